"""``STREAMS_PER_TOKEN`` holds across web processes and hosts (issue 35): two servers on one Redis
(two hosts' worth), a token's streams counted together wherever they are open. A stream held
longer than ``STREAM_LEASE_SECONDS`` stays counted (its lease is renewed); a server killed without
closing its streams gives their places back within ``STREAM_LEASE_SECONDS``
(switchsite.serving.streamcaps)."""

from __future__ import annotations

import asyncio
import os
import signal
import time
from typing import Any

import aiohttp
import pytest

from tests.serving.clients import auth
from tests.serving.conftest import Server, Table, run_in_own_loop

pytestmark = pytest.mark.django_db(transaction=True)

ALLOWED = 2
LEASE_SECONDS = 3


async def opened(session: aiohttp.ClientSession, server: Server, token: str) -> Any:
    """A feed stream of ``token`` on ``server``: the response, open (200) or refused."""
    return await session.get(
        f"{server.base_url}/api/v1/players/me/stream/",
        headers={**auth(token), "Accept": "text/event-stream"},
    )


def test_a_tokens_streams_are_counted_across_servers_and_a_killed_ones_come_free(
    start_server: Any, private_redis: Any, table: Table
):
    shared = {
        "CACHE_URL": private_redis.url,
        "STREAMS_PER_TOKEN": ALLOWED,
        "STREAM_LEASE_SECONDS": LEASE_SECONDS,
    }
    first, second = start_server(**shared), start_server(**shared)
    token = table.tokens[0]

    async def scenario() -> dict[str, Any]:
        seen: dict[str, Any] = {}
        async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=60)) as session:
            on_first = await opened(session, first, token)
            on_second = await opened(session, second, token)
            seen["opened"] = [on_first.status, on_second.status]
            refused = [await opened(session, server, token) for server in (first, second)]
            seen["beyond the cap"] = [answer.status for answer in refused]
            if refused[0].status != 429:  # a stream, which would never end: no need to go on
                return seen
            seen["refusal"] = await refused[0].json()

            # Held past its lease, each stream is still counted: the leases were renewed.
            await asyncio.sleep(LEASE_SECONDS * 2)
            seen["after two leases"] = (await opened(session, second, token)).status

            # The first server dies with its stream open: nothing closes it, its lease lapses.
            os.killpg(first.process.pid, signal.SIGKILL)
            first.process.wait(10)
            seen["at once"] = (await opened(session, second, token)).status
            deadline = time.monotonic() + LEASE_SECONDS * 3
            while time.monotonic() < deadline:
                answer = await opened(session, second, token)
                if answer.status == 200:
                    break
                await asyncio.sleep(0.25)
            seen["within its lease"] = answer.status
            for stream in (on_first, on_second, *refused, answer):
                stream.close()
        return seen

    try:
        seen = run_in_own_loop(scenario())
    finally:
        for server in (first, second):
            server.stop()

    assert seen["opened"] == [200, 200]
    assert seen["beyond the cap"] == [429, 429]
    assert (seen["refusal"]["limit"], seen["refusal"]["allowed"]) == ("STREAMS_PER_TOKEN", 2)
    assert seen["after two leases"] == 429
    assert seen["at once"] == 429
    assert seen["within its lease"] == 200
