"""A real ASGI server — uvicorn as ``make serve`` runs it, two processes — on PostgreSQL, over HTTP.

Moves are posted to the server, or committed by this test process (another process again); either
way the streams and long polls held by the server's processes must hear of them at once.
"""

from __future__ import annotations

import asyncio
import time
import urllib.request
from typing import Any

import aiohttp
import pytest
from django.db import connection

from tests.serving.clients import (
    SseMessage,
    auth,
    events_after,
    get_json,
    last_seq,
    move_for_the_seat_to_move,
    open_stream,
    sse_messages,
)
from tests.serving.conftest import Server, Table, in_thread, play_one_move, run_in_own_loop

pytestmark = pytest.mark.django_db(transaction=True)

STREAMS = 50


@pytest.fixture(scope="module")
def server(start_server: Any) -> Server:
    return start_server(workers=2, STREAMS_PER_TOKEN=STREAMS)  # two players follow fifty streams


@pytest.fixture(scope="module", params=["web processes", "connection tier"])
def front(request: pytest.FixtureRequest, server: Server) -> Any:
    """Where the clients connect: the web processes themselves, or the production shape's
    connection tier in front of them (Pushpin and the publisher), which must keep the same
    contract."""
    if request.param == "web processes":
        return server
    return request.getfixturevalue("start_tier")(workers=2, STREAMS_PER_TOKEN=STREAMS)


@pytest.fixture(scope="module")
def short_server(start_server: Any) -> Server:
    return start_server(SSE_MAX_SECONDS=2, SSE_KEEPALIVE_SECONDS=0.5)


def test_fifty_streams_all_get_a_move_that_is_answered_while_they_wait(front: Any, table: Table):
    """Fifty open streams hold no request thread: the move is answered while they are open, and
    each of them gets it. How fast is the benchmarks' (benchmarks/streams_load.py): the bounds here
    are only long enough never to be a load's doing."""

    async def scenario() -> tuple[int, int]:
        async with aiohttp.ClientSession(front.base_url) as session:
            cursor = await last_seq(session, table)
            streams = await asyncio.gather(
                *(
                    open_stream(session, f"/api/v1/matches/{table.match_id}/stream/", token, cursor)
                    for token in table.tokens * (STREAMS // 2)
                )
            )

            async def first_event(messages: Any) -> int:
                async for message in messages:
                    if message.id is not None:
                        return int(message.id)
                raise AssertionError("the stream ended without the move")

            readers = [asyncio.create_task(first_event(sse_messages(s))) for s in streams]
            token, action = await move_for_the_seat_to_move(session, table)
            async with asyncio.timeout(20):  # held threads would keep it waiting for the streams
                async with session.post(
                    f"/api/v1/matches/{table.match_id}/moves/", json=action, headers=auth(token)
                ) as answer:
                    status = answer.status
            async with asyncio.timeout(20):
                received = await asyncio.gather(*readers)
            for stream in streams:
                stream.close()
            return status, len([seq for seq in received if seq == cursor + 1])

    status, got_the_move = run_in_own_loop(scenario())

    assert status == 201
    assert got_the_move == STREAMS


def test_a_stream_resumed_with_last_event_id_loses_nothing_and_repeats_nothing(
    front: Any, table: Table
):
    stream_path = f"/api/v1/matches/{table.match_id}/stream/"

    async def read_to(session: aiohttp.ClientSession, resume_after: int, last: int) -> list[int]:
        seen: list[int] = []
        stream = await open_stream(session, stream_path, table.tokens[0], resume_after)
        async with asyncio.timeout(10):
            async for message in sse_messages(stream):
                if message.id is not None:
                    seen.append(int(message.id))
                if seen and seen[-1] >= last:
                    break
        stream.close()
        return seen

    async def scenario() -> tuple[list[int], int]:
        async with aiohttp.ClientSession(front.base_url) as session:
            first = await read_to(session, 0, await last_seq(session, table))
            for _ in range(3):  # while the client is away
                token, action = await move_for_the_seat_to_move(session, table)
                moves = f"/api/v1/matches/{table.match_id}/moves/"
                async with session.post(moves, json=action, headers=auth(token)) as answer:
                    assert answer.status == 201
            last = await last_seq(session, table)
            return first + await read_to(session, first[-1], last), last

    seen, last = run_in_own_loop(scenario())

    assert seen == list(range(1, last + 1))


def test_a_stream_ends_cleanly_at_sse_max_seconds_with_keepalives_meanwhile(
    short_server: Server, table: Table
):
    async def scenario() -> tuple[float, list[SseMessage]]:
        async with aiohttp.ClientSession(short_server.base_url) as session:
            started = time.monotonic()
            stream = await open_stream(session, "/api/v1/players/me/stream/", table.tokens[1], 0)
            async with asyncio.timeout(15):
                messages = [m async for m in sse_messages(stream)]  # to the end, or an error
            return time.monotonic() - started, messages

    lasted, messages = run_in_own_loop(scenario())

    assert 2 <= lasted < 6
    assert messages[0].retry == "1000"
    assert [m.event for m in messages if m.id] == ["match_started"]
    assert sum(m.comment == "keepalive" for m in messages) >= 2


def test_a_long_poll_answers_as_soon_as_another_process_commits(front: Any, table: Table):
    async def scenario() -> tuple[float, dict[str, Any]]:
        async with aiohttp.ClientSession(front.base_url) as session:
            cursor = await last_seq(session, table)
            poll = asyncio.create_task(
                events_after(session, table, cursor, table.tokens[0], wait=20)
            )
            await asyncio.sleep(0.5)
            await in_thread(play_one_move, table)  # this test process: not the server's
            committed = time.monotonic()
            page = await asyncio.wait_for(poll, 20)
            return time.monotonic() - committed, page

    latency, page = run_in_own_loop(scenario())

    assert page["results"], page
    assert latency < 1, f"the long poll answered {latency:.2f} s after the commit"


def test_on_sigterm_open_streams_end_cleanly_and_long_polls_answer_at_once(
    start_server: Any, table: Table
):
    server = start_server(workers=2)  # streams stay open: only the stop ends them

    async def scenario() -> tuple[float, list[list[SseMessage]], list[dict[str, Any]]]:
        async with aiohttp.ClientSession(server.base_url) as session:
            cursor = await last_seq(session, table)
            feed_ends = [
                (await get_json(session, "/api/v1/players/me/events/?limit=1", token))["count"]
                for token in table.tokens
            ]
            streams = [
                await open_stream(session, "/api/v1/players/me/stream/", token, feed_end)
                for token, feed_end in zip(table.tokens, feed_ends, strict=True)
            ] + [
                await open_stream(
                    session, f"/api/v1/matches/{table.match_id}/stream/", token, cursor
                )
                for token in table.tokens
            ]
            collectors = [asyncio.create_task(collect(s)) for s in streams]
            polls = [
                asyncio.create_task(events_after(session, table, cursor, token, wait=30))
                for token in table.tokens
            ]
            await asyncio.sleep(1)
            exited_in = await asyncio.to_thread(server.terminate)
            async with asyncio.timeout(5):
                return exited_in, await asyncio.gather(*collectors), await asyncio.gather(*polls)

    async def collect(stream: aiohttp.ClientResponse) -> list[SseMessage]:
        return [m async for m in sse_messages(stream)]  # raises if the stream is cut

    exited_in, streamed, pages = run_in_own_loop(scenario())

    assert exited_in < 5, f"the server took {exited_in:.1f} s to stop"
    assert all(messages[0].retry for messages in streamed)
    assert all(page["results"] == [] for page in pages)


def test_ordinary_requests_keep_and_reuse_their_database_connections(server: Server, table: Table):
    """Views that do not wait run on a fixed pool of threads that keep their connections
    (``switchsite.asgi``): once the threads have connected, forty more requests open no new
    database session. Served by Django's ASGI handler, each request opened one of its own."""

    def forty_requests() -> None:
        for _ in range(40):
            request = urllib.request.Request(
                f"{server.base_url}/api/v1/players/me/", headers=auth(table.tokens[0])
            )
            with urllib.request.urlopen(request, timeout=10) as answer:
                assert answer.status == 200

    forty_requests()  # every thread that serves has connected by now
    before = sessions_when_settled()
    forty_requests()

    assert sessions_when_settled() - before <= 2  # none, give or take a stray connection


def sessions_when_settled() -> int:
    """Sessions ever opened to the test database, once the count has stopped moving (each
    backend reports its own a little after it starts, or when it ends)."""
    last, deadline = -1, time.monotonic() + 10
    while time.monotonic() < deadline:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_stat_clear_snapshot()")
            cursor.execute(
                "SELECT sessions FROM pg_stat_database WHERE datname = current_database()"
            )
            (count,) = cursor.fetchone()
        if count == last:
            return count
        last = count
        time.sleep(1.5)
    return last


def test_the_access_log_names_a_seat_page_without_its_secret(start_server: Any):
    server = start_server(LOG_LEVEL="INFO")  # the access log is written at INFO
    with urllib.request.urlopen(f"{server.base_url}/play/seat/swt_sEcReT-42/", timeout=10) as page:
        assert page.status == 200

    deadline = time.monotonic() + 5
    while "/play/seat/[redacted]/" not in server.output() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert "/play/seat/[redacted]/" in server.output()
    assert "sEcReT" not in server.output()
