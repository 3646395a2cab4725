"""Waiting costs nothing until a commit: the ASGI application in this process, driven directly.

Requests go through ``switchsite.asgi.application`` — Django's ASGI handler, its per-request
threads and middleware included — with the read threads on, as in production, on whatever database
the suite runs on (SQLite: the in-process notifier; PostgreSQL: triggers and the listener).
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Mapping
from typing import Any

import pytest
from asgiref.sync import SyncToAsync
from django.db import connection, transaction
from django.db.backends.utils import CursorWrapper

from games import selectors, services
from games.models import FeedEvent, MatchEvent
from switchsite.asgi import application
from switchsite.serving import notifier
from tests.serving.conftest import (
    Table,
    in_thread,
    play_one_move,
    require_postgresql,
    run_in_own_loop,
)
from tournaments.models import Series, Tournament

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("read_threads")]

IDLE_SECONDS = 2.0


class Call:
    """One HTTP request to the ASGI application, running as a task of the current loop."""

    def __init__(self, path: str, token: str, query: str = "") -> None:
        self.status: int | None = None
        self.headers: dict[bytes, bytes] = {}
        self.body = b""
        self.complete = asyncio.Event()
        self.started = asyncio.Event()
        self._disconnect = asyncio.Event()
        self._body_sent = False
        scope = {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": "GET",
            "scheme": "http",
            "path": path,
            "raw_path": path.encode(),
            "query_string": query.encode(),
            "root_path": "",
            "headers": [(b"host", b"127.0.0.1"), (b"authorization", f"Token {token}".encode())],
            "client": ("127.0.0.1", 50000),
            "server": ("127.0.0.1", 80),
        }
        self.task = asyncio.create_task(application(scope, self._receive, self._send))

    async def _receive(self) -> dict[str, Any]:
        if not self._body_sent:
            self._body_sent = True
            return {"type": "http.request", "body": b"", "more_body": False}
        await self._disconnect.wait()
        return {"type": "http.disconnect"}

    async def _send(self, message: Mapping[str, Any]) -> None:
        if message["type"] == "http.response.start":
            self.status = message["status"]
            self.headers = {name.lower(): value for name, value in message.get("headers", [])}
            self.started.set()
        elif message["type"] == "http.response.body":
            self.body += message.get("body", b"")
            if not message.get("more_body", False):
                self.complete.set()

    async def disconnect(self) -> None:
        self._disconnect.set()
        await self.task


class QueryCounter:
    """Counts every query Django runs, in any thread of this process."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.count = 0
        self._lock = threading.Lock()
        for name in ("_execute", "_executemany"):
            original = getattr(CursorWrapper, name)
            monkeypatch.setattr(CursorWrapper, name, self._counting(original))

    def _counting(self, original: Callable[..., Any]) -> Callable[..., Any]:
        def execute(cursor: CursorWrapper, *args: Any, **kwargs: Any) -> Any:
            with self._lock:
                self.count += 1
            return original(cursor, *args, **kwargs)

        return execute


async def until(condition: Callable[[], bool], timeout: float = 10) -> None:
    async with asyncio.timeout(timeout):
        while not condition():
            await asyncio.sleep(0.02)


def other_threads() -> set[int]:
    """Threads other than the read threads' (whose number is fixed by EVENT_READ_THREADS) and the
    one of a process that renews its streams' leases (switchsite.serving.streamcaps)."""
    return {
        t.ident
        for t in threading.enumerate()
        if t.ident is not None and not t.name.startswith(("db-read", "stream-leases"))
    }


def test_idle_waiters_make_no_query_and_hold_no_thread_until_a_commit_wakes_them(
    table: Table, monkeypatch: pytest.MonkeyPatch, settings: Any
):
    settings.SSE_KEEPALIVE_SECONDS = 0.5  # keep-alives are sent while idle, and cost no query
    match_path = f"/api/v1/matches/{table.match_id}/"
    last_seq = MatchEvent.objects.filter(match_id=table.match_id).count()
    queries = QueryCounter(monkeypatch)

    async def scenario() -> None:
        await notifier.start()  # as the server does at startup
        warm_up = Call(match_path + "events/", table.tokens[0])
        await warm_up.complete.wait()
        threads_before = other_threads()
        polls = [
            Call(match_path + "events/", table.tokens[i % 2], f"after={last_seq}&wait=20")
            for i in range(10)
        ]
        feeds = [Call("/api/v1/players/me/stream/", table.tokens[i % 2]) for i in range(10)]
        await until(lambda: notifier.hub.waiter_count() == 20)
        await until(lambda: all(b"match_started" in f.body for f in feeds))
        await until(lambda: other_threads() <= threads_before, timeout=5)

        queries_before = queries.count
        await asyncio.sleep(IDLE_SECONDS)

        assert queries.count == queries_before, "idle waiters queried the database"
        assert other_threads() <= threads_before, "idle waiters hold threads"
        assert not any(p.complete.is_set() for p in polls)

        await in_thread(play_one_move, table)  # another thread, another connection
        await until(lambda: all(p.complete.is_set() for p in polls), timeout=5)
        assert all(p.status == 200 for p in polls)
        assert all(b'"seq":' + str(last_seq + 1).encode() in p.body for p in polls)
        feed_lengths = await in_thread(
            lambda: [FeedEvent.objects.filter(player_id=p).count() for p in table.player_ids]
        )
        await until(
            lambda: all(
                f.body.count(b"\nevent: ") == feed_lengths[i % 2] for i, f in enumerate(feeds)
            ),
            timeout=5,
        )
        for call in feeds:
            await call.disconnect()
        assert notifier.hub.waiter_count() == 0

    run_in_own_loop(scenario())


def test_closing_ends_streams_cleanly_and_answers_long_polls(table: Table):
    feed_end = FeedEvent.objects.filter(player_id=table.player_ids[1]).count()

    async def scenario() -> None:
        stream = Call(f"/api/v1/matches/{table.match_id}/stream/", table.tokens[0])
        poll = Call("/api/v1/players/me/events/", table.tokens[1], f"after={feed_end}&wait=20")
        await until(lambda: notifier.hub.waiter_count() == 2)

        notifier.close()
        try:
            await until(lambda: stream.complete.is_set() and poll.complete.is_set(), timeout=2)
        finally:
            await notifier.start()

        assert stream.status == 200
        assert stream.body.startswith(b"retry: ")
        assert poll.status == 200
        assert b'"results":[]' in poll.body

    run_in_own_loop(scenario())


def test_a_match_stream_ends_once_the_match_is_over_and_all_is_sent(table: Table):
    services.match_resign(match_id=table.match_id, user=table.users[1])  # on_resign=bot: play on
    services.match_resign(match_id=table.match_id, user=table.users[0])  # nobody left: abandoned

    async def scenario() -> Call:
        stream = Call(f"/api/v1/matches/{table.match_id}/stream/", table.tokens[0])
        await asyncio.wait_for(stream.complete.wait(), 5)
        return stream

    text = run_in_own_loop(scenario()).body.decode()
    assert "event: deal" in text
    assert text.rstrip().endswith("}")  # the last event, then the end
    assert text.count("event: resign") == 2


def test_a_revoked_tokens_streams_end_and_send_nothing_more(table: Table):
    """Revoking a token (here by rotating it) ends, within moments, the streams it opened — the
    match's, the feed and the lobby's — through a notification at commit, as in every process; the player's
    other token streams on, and the revoked one sends nothing of the moves played after."""
    match_stream = f"/api/v1/matches/{table.match_id}/stream/"

    async def scenario() -> None:
        await notifier.start()
        _, other_secret = await in_thread(
            lambda: services.token_create(user=table.users[0], name="phone", scopes=["read"])
        )
        revoked = [
            Call(match_stream, table.tokens[0]),
            Call("/api/v1/players/me/stream/", table.tokens[0]),
            Call("/api/v1/lobby/stream/", table.tokens[0]),
        ]
        kept = Call(match_stream, other_secret)
        await until(lambda: all(b"event: " in call.body for call in [*revoked, kept]))

        await in_thread(lambda: services.account_token(user=table.users[0], rotate=True))
        await until(lambda: all(call.complete.is_set() for call in revoked), timeout=5)
        sent, seen = [len(call.body) for call in revoked], kept.body.count(b"\nevent: ")
        await in_thread(play_one_move, table)
        await until(lambda: kept.body.count(b"\nevent: ") > seen, timeout=5)

        assert [len(call.body) for call in revoked] == sent
        assert not kept.complete.is_set()
        await kept.disconnect()

    run_in_own_loop(scenario())


def test_editing_a_series_ends_the_open_streams_of_its_page(table: Table):
    """A series' page follows the tournaments the series had when its stream opened, and streams
    stay open for hours: an edit ends them, and the pages reconnect to the series as it is."""
    owner = table.users[0]
    june, july = (
        Tournament.objects.create(
            name=name,
            ruleset="switch",
            scoring="french",
            planned_rounds=1,
            table_size=4,
            seed=1,
            created_by=owner,
        )
        for name in ("June", "July")
    )
    series = Series.objects.create(name="Summer", public=True, created_by=owner)
    series.tournaments.set([june, july])

    async def scenario() -> None:
        await notifier.start()
        stream = Call(f"/tournaments/series/{series.pk}/live/", table.tokens[0])
        await until(lambda: notifier.hub.waiter_count() == 1)
        await asyncio.sleep(IDLE_SECONDS)
        assert not stream.complete.is_set()

        await in_thread(lambda: series.tournaments.remove(july))
        await until(stream.complete.is_set, timeout=5)

        assert stream.status == 200

    run_in_own_loop(scenario())


@pytest.mark.parametrize("wake", ["match", "player"])
def test_the_hub_wakes_only_the_waiters_of_the_topics_named(wake: str):
    async def scenario() -> None:
        topics = [notifier.match_topic(1), notifier.match_topic(2), notifier.feed_topic(1)]
        with (
            notifier.hub.subscribe([topics[0]]) as first_match,
            notifier.hub.subscribe([topics[1]]) as second_match,
            notifier.hub.subscribe([topics[2]]) as player,
        ):
            woken_topic = topics[0] if wake == "match" else topics[2]
            await in_thread(notifier.hub.wake, [woken_topic])  # from another thread
            woken = [await s.wait(0.2) for s in (first_match, second_match, player)]
        assert woken == [wake == "match", False, wake == "player"]

    run_in_own_loop(scenario())


def test_notification_payloads():
    assert notifier.parse_payload("m:3,14") == ("m", [3, 14])
    assert notifier.parse_payload("f:7") == ("f", [7])
    assert notifier.parse_payload("f:*") == ("f", None)


def test_a_rolled_back_write_wakes_nobody(table: Table):
    async def scenario() -> bool:
        with notifier.subscribe([notifier.feed_topic(table.users[0].pk)]) as subscription:

            def write_and_roll_back() -> None:
                with transaction.atomic():
                    services.player_notify(
                        user_id=table.users[0].pk, event_type="test", match=None, data={}
                    )
                    transaction.set_rollback(True)

            await notifier.start()  # on PostgreSQL, connecting wakes every waiter
            subscription.clear()
            await in_thread(write_and_roll_back)
            return await subscription.wait(0.5)

    assert run_in_own_loop(scenario()) is False


def test_after_the_listening_connection_is_lost_every_waiter_reads_again(table: Table):
    require_postgresql()

    def terminate_the_listener() -> int:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
                " WHERE datname = current_database() AND query = %s",
                [f"LISTEN {notifier.CHANNEL}"],
            )
            return cursor.fetchone()[0]

    def notify_first_player() -> None:
        with transaction.atomic():
            services.player_notify(
                user_id=table.users[0].pk, event_type="test", match=None, data={}
            )

    async def scenario() -> tuple[bool, bool]:
        await notifier.start()
        with notifier.subscribe([notifier.feed_topic(table.users[1].pk)]) as subscription:
            subscription.clear()
            assert await in_thread(terminate_the_listener) == 1
            woken_on_reconnect = await subscription.wait(10)
        with notifier.subscribe([notifier.feed_topic(table.users[0].pk)]) as subscription:
            subscription.clear()
            await in_thread(notify_first_player)
            woken_by_a_commit = await subscription.wait(5)
        return woken_on_reconnect, woken_by_a_commit

    assert run_in_own_loop(scenario()) == (True, True)


class SelectCounter(QueryCounter):
    """Counts the SELECTs that read each table named, in any thread of this process."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, tables: tuple[str, ...]) -> None:
        self.reads = dict.fromkeys(tables, 0)
        super().__init__(monkeypatch)

    def _counting(self, original: Callable[..., Any]) -> Callable[..., Any]:
        def execute(cursor: CursorWrapper, sql: str, *args: Any, **kwargs: Any) -> Any:
            if sql.lstrip().upper().startswith("SELECT"):
                with self._lock:
                    for table in self.reads:
                        if f'"{table}"' in sql:
                            self.reads[table] += 1
            return original(cursor, sql, *args, **kwargs)

        return execute


def test_waiters_woken_together_share_one_read_and_each_sees_only_its_own(
    table: Table, monkeypatch: pytest.MonkeyPatch
):
    """Six streams and six long polls of each player's feed, and six streams of the match by each
    seat, woken by one draw: the feed woken and the log are each read a few times, not once a
    waiter, and the drawn cards reach only the drawer's streams."""
    match_path = f"/api/v1/matches/{table.match_id}/"
    drawer = selectors.match_view_for(match_id=table.match_id, user=table.users[0])["to_move"]
    feed_seqs = [FeedEvent.objects.filter(player_id=p).count() for p in table.player_ids]
    tables = ("games_feedevent", "games_matchevent")
    counter = SelectCounter(monkeypatch, tables)

    def draw() -> None:
        services.action_apply(
            match_id=table.match_id, user=table.users[drawer], action={"action": "draw"}
        )

    async def scenario() -> tuple[list[Call], list[Call], list[Call]]:
        await notifier.start()
        seats = [i % 2 for i in range(12)]
        streams = [Call("/api/v1/players/me/stream/", table.tokens[i]) for i in seats]
        polls = [
            Call("/api/v1/players/me/events/", table.tokens[i], f"after={feed_seqs[i]}&wait=3")
            for i in seats
        ]
        matches = [Call(match_path + "stream/", table.tokens[i]) for i in seats]
        await until(lambda: notifier.hub.waiter_count() == 36)
        await until(lambda: all(b"event: deal" in m.body for m in matches))
        reads_before = dict(counter.reads)
        await in_thread(draw)
        await until(lambda: all(b"event: draw" in m.body for m in matches), timeout=5)
        await until(lambda: all(p.complete.is_set() for p in polls), timeout=6)
        await until(lambda: sum(b"event: your_turn" in s.body for s in streams) >= 6, timeout=5)
        for name in tables:
            counter.reads[name] -= reads_before[name]
        for call in streams + matches:
            await call.disconnect()
        return streams, polls, matches

    streams, polls, matches = run_in_own_loop(scenario())
    # Unshared, each of the 12 waiters of the feed woken reads it (and each poll counts it too),
    # and each of the 12 match streams reads the log.
    assert counter.reads["games_feedevent"] <= 6, counter.reads
    assert counter.reads["games_matchevent"] <= 2, counter.reads
    to_act = [i for i in (0, 1) if b'"type":"your_turn"' in polls[i].body]
    assert len(to_act) == 1
    assert all(b'"type":"your_turn"' in p.body for p in polls[to_act[0] :: 2])
    assert all(b"event: your_turn" in s.body for s in streams[to_act[0] :: 2])
    drawn = [m.body.split(b"event: draw", 1)[1].split(b"\n\n", 1)[0] for m in matches]
    assert all(b'"cards"' in d for d in drawn[drawer::2])
    assert not any(b'"cards"' in d for d in drawn[1 - drawer :: 2])


OWN_MIDDLEWARE = (
    "RateLimitHeaders.",
    "DebugPagesAsProblems.",
    "OptionalTrailingSlash.",
    "LocaleMiddleware.",
    "CSPMiddleware.",
)


@pytest.mark.parametrize("token", ["valid", "refused"])
def test_the_services_middleware_run_their_hooks_in_the_event_loop(
    table: Table, monkeypatch: pytest.MonkeyPatch, token: str
):
    """Django runs a synchronous middleware hook of an async request in a thread, a hop each; the
    service's own run in the loop (switchsite.middleware.HooksInline) — but for the rate-limit
    headers of an answer given before the throttles ran, which are read from the cache."""
    hops: list[str] = []
    original = SyncToAsync.__call__

    def counted(self: SyncToAsync[Any, Any], *args: Any, **kwargs: Any) -> Any:
        hops.append(getattr(self.func, "__qualname__", repr(self.func)))
        return original(self, *args, **kwargs)

    monkeypatch.setattr(SyncToAsync, "__call__", counted)

    async def scenario() -> Call:
        key = table.tokens[0] if token == "valid" else "not-a-token"
        poll = Call("/api/v1/players/me/events/", key, "after=0&wait=20")
        await asyncio.wait_for(poll.complete.wait(), 5)
        return poll

    poll = run_in_own_loop(scenario())
    assert b"ratelimit-remaining" in poll.headers
    in_threads = [hop for hop in hops if hop.startswith(OWN_MIDDLEWARE)]
    if token == "valid":
        assert poll.status == 200
        assert b'"type":"match_started"' in poll.body
        assert in_threads == []
    else:
        assert poll.status == 401
        assert in_threads == ["RateLimitHeaders.process_response"]
    assert any(hop.startswith("SessionMiddleware.") for hop in hops)  # Django's hop, counted
