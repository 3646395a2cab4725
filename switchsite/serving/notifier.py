"""Wake long polls and event streams when events are committed, without polling the database.

A waiter (one long poll or SSE stream) subscribes to *topics* — a match's log, a user's feed —
and sleeps on an asyncio event; it reads the database only when woken. Two things wake it:

- **PostgreSQL.** Triggers on the two event tables (migration ``games/0006``) ``NOTIFY`` the
  channel :data:`CHANNEL` with the ids of the matches, or the users whose feeds, got events. ``NOTIFY`` is
  transactional: it is delivered at commit and dropped at rollback, whichever process or machine
  wrote, and no writer has to remember it. Each serving process holds **one** listening connection
  (psycopg 3, async, autocommit), started with the server or by the first waiter, and fans the
  notifications out in memory to the waiters of those topics.
- **Any other database** (SQLite: the embedded default, a single process). The service layer calls
  :func:`notify_on_commit` in the transaction that writes events; the waiters of this process are
  woken when it commits.

A lost notification never loses an event, because waiters carry their own cursor and re-read
everything after it when woken; when the listening connection is (re)established, after the
database went away, every waiter is woken to re-read, since notifications sent meanwhile are gone.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections import defaultdict
from collections.abc import Iterable, Iterator
from contextlib import contextmanager, suppress
from typing import Any

from django.conf import settings
from django.db import connections, transaction

logger = logging.getLogger(__name__)

# The channel the event-table triggers notify; payloads are "m:<match ids>" or "f:<user ids>" (the
# feeds' owners), comma-separated, each id followed by "@<first seq>-<last seq>" of what the
# statement wrote (games/0019: the connection tier's publisher reads just those), or "m:*" / "f:*"
# when the ids would not fit in one notification.
# "t:<tournament id>" is sent by the tournament service, "s:<series id>" when a series is edited,
# "l:0" by the match services when the lobby changes (:func:`wake_on_commit`).
CHANNEL = "switch_events"
MATCH, FEED, TOURNAMENT, SERIES, LOBBY, REVOKED = "m", "f", "t", "s", "l", "k"

# The listening connection's reconnection backoff (seconds), and TCP keep-alives so that a database
# machine that vanished without closing the connection is noticed within about a minute.
RECONNECT_DELAYS = (0.5, 1.0, 2.0, 5.0, 10.0)
KEEPALIVES = {
    "keepalives": 1,
    "keepalives_idle": 30,
    "keepalives_interval": 10,
    "keepalives_count": 3,
}

Topic = tuple[str, int | str]


def match_topic(match_id: int) -> Topic:
    return (MATCH, match_id)


def feed_topic(user_id: int) -> Topic:
    return (FEED, user_id)


def tournament_topic(tournament_id: int) -> Topic:
    return (TOURNAMENT, tournament_id)


def series_topic(series_id: int) -> Topic:
    """A series edited (its tournaments, whether it is public) or deleted: its pages' streams end,
    and the pages' reconnections follow what it is now (tournaments.live sends it)."""
    return (SERIES, series_id)


def revoked_topic(token_id: int) -> Topic:
    """An API token deleted (revoked, rotated, its password changed, its tournament gone): the
    streams it opened end (games.apps sends it)."""
    return (REVOKED, token_id)


def lobby_topic() -> Topic:
    """The lobby's one topic: a match created, a seat taken or freed before the start, a start or
    an end (what the lists of open matches and of matches being played show)."""
    return (LOBBY, 0)


class Subscription:
    """One waiter's wake-up flag. Woken from any thread; waited on in the waiter's event loop."""

    def __init__(self, topics: tuple[Topic, ...]) -> None:
        self.topics = topics
        self._loop = asyncio.get_running_loop()
        self._event = asyncio.Event()
        self._woken_by: set[Topic] = set()

    def wake(self, topic: Topic | None = None) -> None:
        """Wake the waiter; ``topic``, when known, is remembered (:meth:`woken_by`)."""
        if topic is not None:
            self._woken_by.add(topic)
        with suppress(RuntimeError):  # the waiter's loop is closed: nobody is waiting any more
            self._loop.call_soon_threadsafe(self._event.set)

    def woken_by(self, topic: Topic) -> bool:
        """Whether ``topic`` has woken this waiter since it subscribed."""
        return topic in self._woken_by

    def clear(self) -> None:
        """Forget earlier wake-ups: call it just before reading, so a commit during the read wakes."""
        self._event.clear()

    async def wait(self, timeout: float) -> bool:
        """Sleep until woken (True) or ``timeout`` seconds pass (False)."""
        try:
            async with asyncio.timeout(max(timeout, 0)):
                await self._event.wait()
        except TimeoutError:
            return False
        return True


class Hub:
    """This process's waiters by topic."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._waiters: defaultdict[Topic, set[Subscription]] = defaultdict(set)
        self.closing = False

    @contextmanager
    def subscribe(self, topics: Iterable[Topic]) -> Iterator[Subscription]:
        subscription = Subscription(tuple(topics))
        with self._lock:
            for topic in subscription.topics:
                self._waiters[topic].add(subscription)
        try:
            yield subscription
        finally:
            with self._lock:
                for topic in subscription.topics:
                    waiters = self._waiters[topic]
                    waiters.discard(subscription)
                    if not waiters:
                        del self._waiters[topic]

    def wake(self, topics: Iterable[Topic]) -> None:
        with self._lock:
            woken = [(s, topic) for topic in topics for s in self._waiters.get(topic, ())]
        for subscription, topic in woken:
            subscription.wake(topic)

    def wake_kind(self, kind: str) -> None:
        with self._lock:
            woken = {s for topic, subs in self._waiters.items() if topic[0] == kind for s in subs}
        for subscription in woken:
            subscription.wake()

    def wake_all(self) -> None:
        with self._lock:
            woken = {s for subs in self._waiters.values() for s in subs}
        for subscription in woken:
            subscription.wake()

    def waiter_count(self) -> int:
        with self._lock:
            return len({s for subs in self._waiters.values() for s in subs})


def parse_payload(payload: str) -> tuple[str, list[int] | None]:
    """``"m:3,4@7-9"`` → ``("m", [3, 4])``; ``"f:*"`` → ``("f", None)`` (every feed)."""
    kind, ranges = parse_ranges(payload)
    return kind, None if ranges is None else [topic_id for topic_id, _ in ranges]


SeqRange = tuple[int, int]


def parse_ranges(payload: str) -> tuple[str, list[tuple[int, SeqRange | None]] | None]:
    """``"m:3@7-9,4"`` → ``("m", [(3, (7, 9)), (4, None)])``: each id with the seqs written, if
    the payload says; ``None`` instead of the list for ``"*"``. ``ValueError`` if unreadable."""
    kind, _, entries = payload.partition(":")
    if entries == "*":
        return kind, None
    parsed: list[tuple[int, SeqRange | None]] = []
    for entry in entries.split(","):
        if not entry:
            continue
        topic_id, _, seqs = entry.partition("@")
        if seqs:
            first, _, last = seqs.partition("-")
            parsed.append((int(topic_id), (int(first), int(last))))
        else:
            parsed.append((int(topic_id), None))
    return kind, parsed


class PostgresListener:
    """The one ``LISTEN`` connection of this process, reconnecting with backoff when it drops."""

    def __init__(self, hub: Hub) -> None:
        self._hub = hub
        self._task: asyncio.Task[None] | None = None
        self.connected = asyncio.Event()

    def ensure_running(self) -> None:
        """Start listening in the running event loop unless a listener is already running."""
        if self._task is None or self._task.done():
            self.connected = asyncio.Event()
            self._task = asyncio.get_running_loop().create_task(
                self._listen(), name="switch-events-listener"
            )

    async def stop(self) -> None:
        task, self._task = self._task, None
        if task is not None and not task.done():
            task.cancel()
            with suppress(asyncio.CancelledError):
                await task

    async def _listen(self) -> None:
        import psycopg

        failures = 0
        while True:
            try:
                conn = await psycopg.AsyncConnection.connect(
                    **listen_connection_params(), autocommit=True
                )
                async with conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    if failures:
                        logger.info("Listening for event notifications again")
                    failures = 0
                    # Whatever was committed while nobody listened must be read by every waiter.
                    self._hub.wake_all()
                    self.connected.set()
                    async for notification in conn.notifies():
                        self._dispatch(notification.payload)
            except psycopg.Error as error:
                delay = RECONNECT_DELAYS[min(failures, len(RECONNECT_DELAYS) - 1)]
                failures += 1
                logger.warning("Event notifications: %s; reconnecting in %.1f s", error, delay)
                self.connected.clear()
                await asyncio.sleep(delay)

    def _dispatch(self, payload: str) -> None:
        try:
            kind, ids = parse_payload(payload)
        except ValueError:
            logger.error("Unreadable event notification %r: waking everyone", payload)
            self._hub.wake_all()
            return
        if ids is None:
            self._hub.wake_kind(kind)
        else:
            self._hub.wake([(kind, i) for i in ids])


def listen_connection_params() -> dict[str, Any]:
    """The listening connection's parameters: ``DATABASE_LISTEN_URL``'s when DATABASE_URL goes
    through a transaction pooler (LISTEN must stay on one server connection), else Django's own
    for the default database."""
    listen = settings.DATABASE_LISTEN
    if listen is not None:
        named = {
            "dbname": "NAME",
            "user": "USER",
            "password": "PASSWORD",
            "host": "HOST",
            "port": "PORT",
        }
        params = {key: listen[name] for key, name in named.items() if listen.get(name)}
    else:
        params = connections["default"].get_connection_params()
        for django_only in ("cursor_factory", "context", "prepare_threshold"):
            params.pop(django_only, None)
    return {**params, **KEEPALIVES}


hub = Hub()
_listener = PostgresListener(hub)


def uses_postgresql() -> bool:
    return connections["default"].vendor == "postgresql"


@contextmanager
def subscribe(topics: Iterable[Topic]) -> Iterator[Subscription]:
    """Wait for these topics (call from the event loop the waiter runs in)."""
    if uses_postgresql():
        _listener.ensure_running()
    with hub.subscribe(topics) as subscription:
        yield subscription


def notify_on_commit(*, match_ids: Iterable[int] = (), feed_user_ids: Iterable[int] = ()) -> None:
    """Wake this process's waiters of these matches' logs and these users' feeds at commit.

    Call it in the transaction that writes the events (``MatchEvent`` rows of ``match_ids``,
    ``FeedEvent`` rows of the players of ``feed_user_ids``); nothing happens if it rolls back. On
    PostgreSQL it does nothing: the tables' triggers notify every process at commit.
    """
    if uses_postgresql():
        return
    topics = [match_topic(i) for i in match_ids] + [feed_topic(i) for i in feed_user_ids]
    transaction.on_commit(lambda: hub.wake(topics))


def wake_on_commit(topic: Topic) -> None:
    """Wake the waiters of ``topic`` in every process when the current transaction commits, for
    writes that no event-table trigger sees: on PostgreSQL a ``NOTIFY`` sent now (delivered at
    commit, dropped at rollback); elsewhere this process's waiters, at commit."""
    kind, key = topic
    if uses_postgresql():
        with connections["default"].cursor() as cursor:
            cursor.execute("SELECT pg_notify(%s, %s)", [CHANNEL, f"{kind}:{key}"])
        return
    transaction.on_commit(lambda: hub.wake([topic]))


async def start(timeout: float = 5) -> None:
    """At server startup: accept waiters, and on PostgreSQL start listening, waiting up to
    ``timeout`` seconds for the connection (the listener goes on trying if the database is away)."""
    hub.closing = False
    if uses_postgresql():
        _listener.ensure_running()
        with suppress(TimeoutError):
            async with asyncio.timeout(timeout):
                await _listener.connected.wait()


def close() -> None:
    """The server is stopping: every waiter ends now (streams close cleanly, long polls answer).

    Safe to call from any thread through ``loop.call_soon_threadsafe``.
    """
    hub.closing = True
    hub.wake_all()


async def stop() -> None:
    """At server shutdown, after :func:`close`: drop the listening connection."""
    close()
    await _listener.stop()
