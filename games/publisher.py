"""The connection tier's publisher: each committed event rendered once per audience and published.

One process beside each Pushpin instance (``manage.py publish_events``,
``deploy/switch-publisher.service``). It listens to the notifications the event tables' triggers
send at commit (``switchsite.serving.notifier``; since ``games/0019`` each names the ``seq``
range its statement wrote), reads exactly those events, renders them once for each audience of
the match or feed (:mod:`games.api.tier`) and posts the items to its Pushpin. Nothing depends on
the process that wrote: a web process that dies after its commit loses nothing, since the
notification comes from PostgreSQL.

What it cannot have heard — committed while it was not listening (it started, or its connection
to PostgreSQL dropped) — it publishes from the database when it listens again: every event
written since shortly before it stopped listening (:data:`CATCH_UP_MARGIN_SECONDS`), each
audience's as one item. A hold that already had some of them sees an item that does not follow
on and makes the tier ask Django for what it misses: nothing is skipped, at worst asked twice.

It also ends streams: a revoked token's (``k:`` notifications), an occupant's who left their seat,
and every stream of a match once its last event is out.
"""

from __future__ import annotations

import logging
import socket
import time
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.db import DatabaseError
from django.db.models import Max, Min
from django.utils import timezone

from games import selectors
from games.api import tier
from games.models import FeedEvent, Match, MatchEvent
from switchsite import grip, heartbeats
from switchsite.serving import notifier

logger = logging.getLogger(__name__)

PUBLISHER = "publisher"  # its heartbeat's kind
HEARTBEAT_SECONDS = heartbeats.INTERVAL_SECONDS
# Notifications that arrive within this of the first are published together.
GATHER_SECONDS = 0.005
# Published again from the database when listening again: from this long before listening stopped
# (a transaction that was committing then is seen).
CATCH_UP_MARGIN_SECONDS = 30.0
RECONNECT_DELAYS = notifier.RECONNECT_DELAYS
PUBLISH_RETRY_DELAYS = (0.2, 0.5, 1.0)

SeqRange = tuple[int, int]


@dataclass
class Written:
    """What notifications say was committed: seq ranges per match and per feed (by user id), the
    tokens revoked, and whether some could not be named (``*``): then read what is recent."""

    matches: defaultdict[int, list[SeqRange]] = field(default_factory=lambda: defaultdict(list))
    feeds: defaultdict[int, list[SeqRange]] = field(default_factory=lambda: defaultdict(list))
    revoked: list[int] = field(default_factory=list)
    unnamed: bool = False

    def add(self, payload: str) -> None:
        try:
            kind, entries = notifier.parse_ranges(payload)
        except ValueError:
            logger.error("Unreadable event notification %r: publishing what is recent", payload)
            self.unnamed = True
            return
        if kind == notifier.REVOKED and entries is not None:
            self.revoked += [token_id for token_id, _ in entries]
            return
        topics = {notifier.MATCH: self.matches, notifier.FEED: self.feeds}.get(kind)
        if topics is None:
            return  # the lobby, tournaments, series: their streams stay on the web processes
        if entries is None or any(seqs is None for _, seqs in entries):
            self.unnamed = True
            return
        for topic_id, seqs in entries:
            assert seqs is not None
            topics[topic_id].append(seqs)


def match_items(match_id: int, ranges: Sequence[SeqRange]) -> list[dict[str, Any]]:
    """The match's events of ``ranges``, once per audience; then the streams that must end."""
    match = Match.objects.filter(pk=match_id).first()
    if match is None:
        return []
    seats = tuple(match.seats.all())
    over = match.status in selectors.REVEALED_STATUSES
    audiences = [
        (tier.seat_channel(match_id, s.index, s.player_id), s.index)
        for s in seats
        if s.player_id is not None and not s.resigned
    ] + [(tier.spectator_channel(match_id), None)]
    items: list[dict[str, Any]] = []
    last_sent = 0
    for first, last in ranges:
        records = list(
            MatchEvent.objects.filter(match_id=match_id, seq__gte=first, seq__lte=last).order_by(
                "seq"
            )
        )
        if not records:
            continue  # removed since (retention): a hold that needs them is told 410 by Django
        for channel, seat in audiences:
            seen = [selectors.event_as_seen(r, seat=seat, reveal_all=over) for r in records]
            items += tier.audience_items(channel, seen, prev_id=records[0].seq - 1)
        last_sent = max(last_sent, records[-1].seq)
    # Whoever left a seat watches from now on as a spectator: their seat's stream ends.
    items += [
        grip.close_item(tier.seat_channel(match_id, s.index, s.player_id))
        for s in seats
        if s.player_id is not None and s.resigned
    ]
    if over and last_sent and last_sent >= match.last_event_seq:
        items += [grip.close_item(channel) for channel, _ in audiences]
    return items


def feed_items(user_id: int, ranges: Sequence[SeqRange]) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = []
    for first, last in ranges:
        records = list(
            FeedEvent.objects.filter(
                player__user_id=user_id, seq__gte=first, seq__lte=last
            ).order_by("seq")
        )
        if records:
            seen = [selectors.feed_event_as_seen(r) for r in records]
            channel = tier.feed_channel(user_id)
            items += tier.audience_items(channel, seen, prev_id=records[0].seq - 1)
    return items


def written_since(since: datetime) -> Written:
    """Every match's and feed's events written since ``since``, as one range each."""
    written = Written()
    for row in (
        MatchEvent.objects.filter(created_at__gte=since)
        .values("match_id")
        .annotate(first=Min("seq"), last=Max("seq"))
    ):
        written.matches[row["match_id"]].append((row["first"], row["last"]))
    for row in (
        FeedEvent.objects.filter(created_at__gte=since)
        .values("player__user_id")
        .annotate(first=Min("seq"), last=Max("seq"))
    ):
        written.feeds[row["player__user_id"]].append((row["first"], row["last"]))
    return written


def items_of(written: Written) -> list[dict[str, Any]]:
    items = [grip.close_item(tier.token_channel(token_id)) for token_id in written.revoked]
    for match_id, ranges in written.matches.items():
        items += match_items(match_id, ranges)
    for user_id, ranges in written.feeds.items():
        items += feed_items(user_id, ranges)
    return items


class Publisher:
    """The loop: listen, gather what a moment's notifications say, publish it."""

    def __init__(self, urls: Iterable[str]) -> None:
        self.urls = list(urls)
        self.name = socket.gethostname()
        self._heard_at = timezone.now()  # when it last surely listened
        self._beat_at = 0.0

    def run(self, *, stop_after_seconds: float | None = None) -> None:
        """Publish until stopped (or for ``stop_after_seconds``, for tests)."""
        import psycopg

        ends_at = None if stop_after_seconds is None else time.monotonic() + stop_after_seconds
        failures = 0
        while ends_at is None or time.monotonic() < ends_at:
            try:
                params = notifier.listen_connection_params()
                with psycopg.connect(**params, autocommit=True) as conn:
                    conn.execute(f"LISTEN {notifier.CHANNEL}")
                    self._catch_up()
                    failures = 0
                    self._listen(conn, ends_at)
            except (psycopg.Error, DatabaseError) as error:
                delay = RECONNECT_DELAYS[min(failures, len(RECONNECT_DELAYS) - 1)]
                failures += 1
                logger.warning("Publisher: %s; listening again in %.1f s", error, delay)
                time.sleep(delay)

    def _listen(self, conn: Any, ends_at: float | None) -> None:
        while ends_at is None or time.monotonic() < ends_at:
            self._beat()
            self._heard_at = timezone.now()
            payloads = [n.payload for n in conn.notifies(timeout=HEARTBEAT_SECONDS, stop_after=1)]
            if not payloads:
                continue
            payloads += [n.payload for n in conn.notifies(timeout=GATHER_SECONDS)]
            written = Written()
            for payload in payloads:
                written.add(payload)
            if written.unnamed:
                written = self._recent(written)
            self.publish(items_of(written))

    def _catch_up(self) -> None:
        since = self._heard_at - timedelta(seconds=CATCH_UP_MARGIN_SECONDS)
        self.publish(items_of(written_since(since)))

    def _recent(self, written: Written) -> Written:
        recent = written_since(self._heard_at - timedelta(seconds=CATCH_UP_MARGIN_SECONDS))
        recent.revoked = written.revoked
        return recent

    def _beat(self) -> None:
        if time.monotonic() - self._beat_at >= HEARTBEAT_SECONDS:
            self._beat_at = time.monotonic()
            heartbeats.record(PUBLISHER, self.name)

    def publish(self, items: list[dict[str, Any]]) -> None:
        """Post ``items`` to the tier, trying again a few times; then give up on them (the tier
        is down: its clients are cut off and will be answered by Django when they come back)."""
        if not items:
            return
        for delay in (*PUBLISH_RETRY_DELAYS, None):
            try:
                grip.publish(items, self.urls)
                return
            except OSError as error:
                if delay is None:
                    logger.error("Publisher: %d items not published: %s", len(items), error)
                    return
                time.sleep(delay)
