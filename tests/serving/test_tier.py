"""The contract through the connection tier as deployed: Pushpin from ``deploy/pushpin.conf`` in
front of the web processes, and the publisher (``manage.py publish_events``).

``test_server.py`` runs the shared stream tests both ways (the web processes alone, and through the
tier); these are what the tier adds or could break: each audience its own rendering, long polls
held and answered as the client asked, errors before any hold, keep-alives, a revoked token's
streams ended, and nothing lost when the publisher was away or a publication went missing.
"""

from __future__ import annotations

import asyncio
import json
import time
import urllib.request
from typing import Any

import aiohttp
import pytest

from games import services
from games.api import tier as audiences
from tests.serving.clients import (
    SseMessage,
    auth,
    events_after,
    get_json,
    last_seq,
    open_stream,
    sse_messages,
)
from tests.serving.conftest import Table, Tier, in_thread, play_one_move, run_in_own_loop

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(scope="module")
def tier(start_tier: Any) -> Tier:
    return start_tier(SSE_KEEPALIVE_SECONDS=1)


async def collect_for(stream: aiohttp.ClientResponse, seconds: float) -> list[SseMessage]:
    """The stream's messages for ``seconds`` (it stays open)."""
    messages: list[SseMessage] = []

    async def read() -> None:
        async for message in sse_messages(stream):
            messages.append(message)

    reading = asyncio.create_task(read())
    await asyncio.sleep(seconds)
    reading.cancel()
    stream.close()
    return messages


def events_of(messages: list[SseMessage]) -> list[dict[str, Any]]:
    return [json.loads(m.data) for m in messages if m.id is not None and m.data]


async def play_until_a_draw(session: aiohttp.ClientSession, table: Table) -> int:
    """Moves by whoever is to move, drawing when they may, until a card was drawn; the seat."""
    for _ in range(20):
        for token in table.tokens:
            view = await get_json(session, f"/api/v1/matches/{table.match_id}/", token)
            if view["to_move"] != view["you"]["seat"]:
                continue
            moves = view["legal_moves"]
            move = next((m for m in moves if m["action"] == "draw"), moves[0])
            path = f"/api/v1/matches/{table.match_id}/moves/"
            async with session.post(path, json=move, headers=auth(token)) as answer:
                assert answer.status == 201, await answer.text()
            if move["action"] == "draw":
                return int(view["you"]["seat"])
    raise AssertionError("nobody drew in twenty moves")


def test_each_audience_sees_the_log_as_its_seat_may(tier: Tier, table: Table):
    spectator = services.player_register(username="sam", password="pw")[1]

    async def scenario() -> tuple[int, list[list[dict[str, Any]]]]:
        async with aiohttp.ClientSession(tier.base_url) as session:
            cursor = await last_seq(session, table)
            path = f"/api/v1/matches/{table.match_id}/stream/"
            streams = [
                await open_stream(session, path, token, cursor)
                for token in [*table.tokens, spectator]
            ]
            readers = [asyncio.create_task(collect_for(s, 4)) for s in streams]
            await asyncio.sleep(0.5)
            drawer = await play_until_a_draw(session, table)
            return drawer, [events_of(messages) for messages in await asyncio.gather(*readers)]

    drawer, (seat0, seat1, watching) = run_in_own_loop(scenario())

    draws = [[e for e in events if e["type"] == "draw"] for events in (seat0, seat1, watching)]
    assert all(draws), "every audience hears of the draw"
    assert "cards" in draws[drawer][-1]["data"]
    assert "cards" not in draws[1 - drawer][-1]["data"]
    assert "cards" not in draws[2][-1]["data"]
    assert [e["seq"] for e in seat0] == [e["seq"] for e in watching]


def test_a_held_long_poll_answers_the_next_commit_as_the_client_asked(tier: Tier, table: Table):
    async def scenario() -> tuple[dict[str, Any], dict[str, Any], str | None, float]:
        async with aiohttp.ClientSession(tier.base_url) as session:
            cursor = await last_seq(session, table)
            path = f"/api/v1/matches/{table.match_id}/events/?after={cursor}&wait=20"

            async def poll(query: str) -> tuple[dict[str, Any], str | None]:
                async with session.get(path + query, headers=auth(table.tokens[0])) as answer:
                    assert answer.status == 200, await answer.text()
                    return await answer.json(), answer.headers.get("Switch-Incarnation")

            polls = [asyncio.create_task(poll("")), asyncio.create_task(poll("&limit=1"))]
            await asyncio.sleep(1)
            assert not any(p.done() for p in polls), "they wait: nothing after the cursor yet"
            started = time.monotonic()
            await in_thread(play_one_move, table)
            (page, incarnation), (small, _) = await asyncio.gather(*polls)
            return page, small, incarnation, time.monotonic() - started

    page, small, incarnation, answered_in = run_in_own_loop(scenario())

    assert page["results"]
    assert page["count"] == len(page["results"])
    assert page["next"] is None
    assert incarnation, "the held answer keeps the headers Django gave it"
    assert len(small["results"]) == 1
    assert small["results"][0] == page["results"][0]
    assert (small["next"] is not None) == (small["count"] > 1)
    assert answered_in < 10


def test_cursor_errors_are_answered_before_any_hold(tier: Tier, table: Table):
    async def scenario() -> list[tuple[int, str]]:
        async with aiohttp.ClientSession(tier.base_url) as session:
            beyond = await last_seq(session, table) + 5
            stream = f"/api/v1/matches/{table.match_id}/stream/"
            sse = {"Accept": "text/event-stream"}
            asked = [
                (stream, {**sse, "Last-Event-ID": str(beyond)}),
                (stream, {**sse, "Last-Event-ID": "abc"}),
                (f"/api/v1/matches/{table.match_id}/events/?after={beyond}&wait=5", {}),
                ("/api/v1/players/me/stream/", {**sse, "Last-Event-ID": "999"}),
            ]
            answers = []
            for path, headers in asked:
                headers = {**auth(table.tokens[0]), **headers}
                async with asyncio.timeout(10), session.get(path, headers=headers) as answer:
                    answers.append((answer.status, (await answer.json())["code"]))
            return answers

    assert run_in_own_loop(scenario()) == [
        (410, "cursor_expired"),
        (400, "invalid"),
        (410, "cursor_expired"),
        (410, "cursor_expired"),
    ]


def test_a_quiet_stream_gets_a_comment_line_after_each_silence(tier: Tier, table: Table):
    async def scenario() -> list[SseMessage]:
        async with aiohttp.ClientSession(tier.base_url) as session:
            feed_end = (
                await get_json(session, "/api/v1/players/me/events/?limit=1", table.tokens[1])
            )["count"]
            stream = await open_stream(
                session, "/api/v1/players/me/stream/", table.tokens[1], feed_end
            )
            return await collect_for(stream, 4.5)

    messages = run_in_own_loop(scenario())

    assert messages[0].retry == "1000"
    assert sum(m.comment == "keepalive" for m in messages) >= 2  # SSE_KEEPALIVE_SECONDS=1


def test_a_revoked_tokens_streams_end_at_once(tier: Tier, table: Table):
    async def scenario() -> tuple[bool, bool]:
        async with aiohttp.ClientSession(tier.base_url) as session:
            cursor = await last_seq(session, table)
            stream = await open_stream(
                session, f"/api/v1/matches/{table.match_id}/stream/", table.tokens[0], cursor
            )
            ended = asyncio.create_task(collect_until_end(stream))
            await asyncio.sleep(1)
            before = ended.done()
            await in_thread(lambda: services.account_token(user=table.users[0], rotate=True))
            await asyncio.wait_for(ended, 10)
            return before, ended.done()

    async def collect_until_end(stream: aiohttp.ClientResponse) -> None:
        async for _ in sse_messages(stream):
            pass

    before, after = run_in_own_loop(scenario())

    assert not before
    assert after


def test_nothing_is_lost_while_the_publisher_is_away(tier: Tier, table: Table):
    """What is committed while no publisher listens is published when one listens again."""

    async def scenario() -> tuple[list[int], int, int]:
        async with aiohttp.ClientSession(tier.base_url) as session:
            cursor = await last_seq(session, table)
            stream = await open_stream(
                session, f"/api/v1/matches/{table.match_id}/stream/", table.tokens[1], cursor
            )
            reader = asyncio.create_task(collect_for(stream, 12))
            await in_thread(tier.stop_publisher)
            for _ in range(2):
                await in_thread(play_one_move, table)
            last = await last_seq(session, table)
            await in_thread(tier.start_publisher)
            return [e["seq"] for e in events_of(await reader)], cursor, last

    seqs, cursor, last = run_in_own_loop(scenario())

    assert seqs == list(range(cursor + 1, last + 1)), tier.output()


def test_a_publication_that_does_not_follow_on_makes_the_tier_ask_django(tier: Tier, table: Table):
    """An item whose prev-id is not the hold's (a publication went missing): the tier follows
    the stream's next link, signed for its holder, and gets from Django what it missed."""

    async def scenario() -> tuple[list[dict[str, Any]], int, int]:
        async with aiohttp.ClientSession(tier.base_url) as session:
            cursor = await last_seq(session, table)
            stream = await open_stream(
                session, f"/api/v1/matches/{table.match_id}/stream/", table.tokens[0], cursor
            )
            reader = asyncio.create_task(collect_for(stream, 8))
            await in_thread(tier.stop_publisher)
            try:
                await in_thread(play_one_move, table)  # never published
                last = await last_seq(session, table)
                channel = audiences.seat_channel(table.match_id, 0, table.users[0].pk)
                stray = audiences.audience_items(
                    channel, [{"seq": last + 100, "type": "stray"}], prev_id=last + 99
                )
                await in_thread(publish, tier, stray)
                return events_of(await reader), cursor, last
            finally:
                await in_thread(tier.start_publisher)

    events, cursor, last = run_in_own_loop(scenario())

    assert [e["seq"] for e in events] == list(range(cursor + 1, last + 1)), tier.output()


def publish(tier: Tier, items: list[dict[str, Any]]) -> None:
    body = json.dumps({"items": items}).encode()
    request = urllib.request.Request(
        tier.pushpin.publish_url, data=body, headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=5) as answer:
        assert answer.status == 200


def test_requests_not_signed_by_the_tier_are_held_by_the_web_processes(tier: Tier, table: Table):
    """The same web processes, asked directly: no hold instructions, the stream is their own."""

    async def scenario() -> tuple[dict[str, str], list[SseMessage]]:
        async with aiohttp.ClientSession(tier.server.base_url) as session:
            cursor = await last_seq(session, table)
            stream = await open_stream(
                session, f"/api/v1/matches/{table.match_id}/stream/", table.tokens[0], cursor
            )
            headers = dict(stream.headers)
            reader = asyncio.create_task(collect_for(stream, 3))
            await asyncio.sleep(0.5)
            await events_after(session, table, cursor, table.tokens[0])
            await in_thread(play_one_move, table)
            return headers, await reader

    headers, messages = run_in_own_loop(scenario())

    assert not any(name.lower().startswith("grip-") for name in headers)
    assert events_of(messages), "the web process's own stream woke at the commit"
