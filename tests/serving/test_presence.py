"""Presence is shared by every web host (the API guide, "Ladders and quick play"): a feed stream or
long poll held by one process makes its player online for every other, at once, for as long as it
is open and for a minute after it closed; an idle waiter still costs no query per waiter."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import aiohttp
import pytest
from django.utils import timezone

from games import presence, services
from games.models import Presence
from switchsite.serving import notifier
from tests.serving.clients import get_json, open_stream
from tests.serving.conftest import Server, in_thread, run_in_own_loop
from tests.serving.test_waiters import Call

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("read_threads")]


async def seen_at(user_id: int) -> Any:
    """When the database last saw the user (read in another thread, with its own connection)."""
    held = Presence.objects.filter(user_id=user_id).values_list("seen_at", flat=True)
    return await in_thread(held.first)


async def until_seen(user_id: int, condition: Callable[[Any], bool]) -> Any:
    async with asyncio.timeout(10):
        while not condition(at := await seen_at(user_id)):
            await asyncio.sleep(0.05)
    return at


@pytest.fixture
def robo() -> tuple[int, str]:
    user, token = services.player_register(username="robo", password="pw", bot=True)
    return user.pk, token


def test_a_waiter_is_seen_when_it_opens_again_while_open_and_when_it_closes(
    robo: tuple[int, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(presence, "REFRESH_SECONDS", 0.3)
    user_id, token = robo

    async def scenario() -> None:
        await notifier.start()  # as the server does at startup (a server stopped earlier closed it)
        stream = Call("/api/v1/players/me/stream/", token)
        opened = await until_seen(user_id, lambda at: at is not None)
        await until_seen(user_id, lambda at: at > opened)  # the refresh while it is held

        poll = Call("/api/v1/players/me/events/", token, "wait=20")  # the same player, twice held
        await stream.disconnect()
        await asyncio.sleep(0.8)
        assert presence.tracker.holds(user_id), "its long poll still holds it"
        closed = timezone.now()
        await poll.disconnect()  # the client goes away
        assert not presence.tracker.holds(user_id)
        # written at the refresh after it closed, with the time it closed
        refreshed = await until_seen(user_id, lambda at: at >= closed)
        await asyncio.sleep(1)
        assert await seen_at(user_id) == refreshed, "nothing held: no more refreshes"

    run_in_own_loop(scenario())


@pytest.fixture(scope="module")
def two_hosts(start_server: Any) -> tuple[Server, Server]:
    return start_server(), start_server()


def test_a_bot_streaming_from_one_host_is_online_on_another(
    two_hosts: tuple[Server, Server], robo: tuple[int, str]
) -> None:
    first, second = two_hosts
    _, token = robo
    watcher = services.player_register(username="watcher", password="pw")[1]

    async def scenario() -> tuple[list[str], list[str]]:
        async with (
            aiohttp.ClientSession(first.base_url) as on_first,
            aiohttp.ClientSession(second.base_url) as on_second,
        ):
            before = await get_json(on_second, "/api/v1/players/online/?bot=true", watcher)
            stream = await open_stream(on_first, "/api/v1/players/me/stream/", token, 0)
            await stream.content.readline()  # the stream is open: its retry line came
            async with asyncio.timeout(10):
                while True:
                    after = await get_json(on_second, "/api/v1/players/online/?bot=true", watcher)
                    if after["results"]:
                        break
                    await asyncio.sleep(0.1)
            stream.close()
            return [r["player"] for r in before["results"]], [r["player"] for r in after["results"]]

    before, after = run_in_own_loop(scenario())
    assert (before, after) == ([], ["robo"])
