"""The one pipeline through which every match advances: read, work out in memory, write once.

Writes are optimistic: an operation reads the match without a lock
(:func:`games.selectors.match_load`), works out the change in memory — the engine applies the
action, :func:`switchgame.decision.decide` decides what follows — and :func:`advance` writes it in
one short transaction as an ``UPDATE … WHERE version = <read version>`` that takes the row lock only
then, with the events and feed entries in the same statement on PostgreSQL
(:mod:`games.services.writer`). If someone else changed the match in between, the update finds no
row, nothing is written and :class:`MatchChanged` is raised; :func:`retrying` — the one retry
policy, for people, bots and clocks alike — runs the whole operation again from a fresh read, a
bounded number of times. A refused action raises a :class:`~switchsite.problems.ServiceError` (or an
engine error) and writes nothing.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TypeVar

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from games import botshare, errors, signals
from games.models import Match, MatchEvent, Seat
from games.selectors import LoadedMatch, match_view
from games.services.ratings import match_rated
from games.services.writer import Advance, FeedEntry, advance_write
from switchgame import protocol
from switchgame.decision import (
    Abandon,
    Holder,
    MatchRead,
    Start,
    Status,
    decide,
    practice_deal_seed,
)
from switchsite.serving import notifier
from switchsite.tasks import publish_after_commit

# How often an operation is tried again when the match changed under it before it gives up with
# 409 ``match_busy`` (only a match changed many times a second by others gets there).
WRITE_ATTEMPTS = 5

Result = TypeVar("Result")


class MatchChanged(Exception):
    """The match's version moved between the read and the write: start again from a fresh read."""


@dataclass
class Change:
    """What an operation changes besides the game: seats (written with the advance) and feed
    entries of its own (``your_turn`` and ``match_end`` are decided by the pipeline)."""

    seats: dict[int, list[str]] = field(default_factory=dict)  # seat index → changed fields
    feed: list[FeedEntry] = field(default_factory=list)

    def seat_changed(self, seat: Seat, *fields: str) -> None:
        self.seats.setdefault(seat.index, []).extend(fields)


def retrying(operation: Callable[[], Result]) -> Result:
    """Run ``operation`` (a read, then :func:`advance`), again from the start while the match
    changes under it; after ``WRITE_ATTEMPTS`` tries, 409 ``match_busy`` with ``Retry-After``."""
    for _ in range(WRITE_ATTEMPTS):
        try:
            return operation()
        except MatchChanged:
            continue
    raise errors.MatchBusy(gettext("The match is changing too fast; try again."), retry_after=1)


def next_deal_seed(match: Match) -> bytes:
    """The seed the match's next deal is dealt from, should it be due: a practice match's is
    derived from its practice seed, any other's drawn from a cryptographic source."""
    if match.practice_seed:
        return practice_deal_seed(bytes.fromhex(match.practice_seed), match.deal_number + 1)
    return secrets.token_bytes(32)


def advance(
    loaded: LoadedMatch,
    events: Iterable[protocol.Event],
    change: Change | None = None,
    *,
    transition: Start | Abandon | None = None,
    wake_bots: bool = True,
) -> list[MatchEvent]:
    """Write what an operation did to ``play`` (its game already changed, its seats changed as
    ``change`` says) and what follows from it (:func:`~switchgame.decision.decide`), in one
    transaction; raises :class:`MatchChanged`, writing nothing, if the match moved on since it was
    read. After commit, a bot to move is handed to a worker (unless ``wake_bots`` is false: the
    caller is that worker) and whoever waits on the match's end is told. Returns the event
    records written."""
    match, game, seats = loaded.match, loaded.game, loaded.seats
    change = change or Change()
    now = timezone.now()
    read = MatchRead(
        status=Status(match.status),
        version=loaded.read_version,
        turn=loaded.read_turn,
        deal_number=match.deal_number,
        deal_seed=match.deal_seed,
        turn_seconds=match.turn_seconds,
        turn_deadline=match.turn_deadline,
        layout=match.layout,
    )
    holders = [Holder(s.index, s.player_id, s.is_bot, s.resigned) for s in seats]
    decision = decide(
        read=read,
        game=game,
        holders=holders,
        events=list(events),
        now=now,
        new_seed=next_deal_seed(match),
        transition=transition,
    )
    match.status = decision.status
    match.version = decision.version
    match.deal_number, match.deal_seed = decision.deal_number, decision.deal_seed
    match.turn_deadline = decision.turn_deadline
    match.bot_to_move = decision.bot_to_move
    match.state = game.to_dict()
    match.updated_at = now
    if decision.ended:
        match.result, match.finished_at = dict(decision.result or {}), now
    records = []
    for event in decision.events:
        match.last_event_seq += 1
        records.append(
            MatchEvent(
                match=match,
                seq=match.last_event_seq,
                type=event.type,
                seat=event.seat,
                data=event.data,
                private=event.private,
            )
        )
    feed = list(change.feed)
    if decision.your_turn is not None:
        seat = decision.your_turn
        assert seat.user_id is not None  # a person holds it
        view = match_view(loaded=loaded, seat=seat.seat)
        data = {"seat": seat.seat, "version": match.version, "view": view}
        feed.append(FeedEntry(seat.user_id, "your_turn", match.pk, data))
    feed += [FeedEntry(n.user_id, n.type, match.pk, dict(n.data)) for n in decision.notices]
    with transaction.atomic():
        if not advance_write(Advance(match, loaded.read_version, _FIELDS, records, feed)):
            raise MatchChanged
        for index, fields in change.seats.items():
            seat_row = seats[index]
            values = {name: getattr(seat_row, name) for name in fields}
            Seat.objects.filter(pk=seat_row.pk).update(**values)
        if decision.ended and match.rated and match.status == Status.FINISHED:
            match_rated(match, seats)
        if read.status == Status.WAITING or decision.status != read.status:
            notifier.wake_on_commit(notifier.lobby_topic())  # seats, a start or an end
        if decision.ended:
            match_id = match.pk
            transaction.on_commit(
                lambda: signals.match_finished.send(sender=Match, match_id=match_id)
            )
            publish_after_commit("games.tasks.keep_record_deals", match_id)
        if wake_bots and decision.bot_to_move:
            match_id, payer_id = match.pk, match.created_by_id
            transaction.on_commit(lambda: botshare.publish_bot_turns(match_id, payer_id))
    loaded.read_version, loaded.read_turn = match.version, game.turn_id
    return records


# The match fields an advance may change (the conditional update writes exactly these).
_FIELDS = (
    "status",
    "version",
    "deal_number",
    "deal_seed",
    "state",
    "turn_deadline",
    "bot_to_move",
    "last_event_seq",
    "result",
    "finished_at",
    "updated_at",
)
