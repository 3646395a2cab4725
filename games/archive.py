"""Reads of matches that are over, as game records (:mod:`switchgame.records.gamerecord`): one match's, and a
player's all, in chunks of a few matches so that an export of thousands holds only a chunk at once.

Once a match is over its whole log may be revealed (``games.selectors``), so a record — every seed,
every action — is open to any signed-in client. A record's ``deals`` are worked out by replaying
the match's log once, when it ends (:func:`games.services.records.record_deals_keep`), and read
from there (:class:`~games.models.RecordDeals`): a record is then its rows put together, without
reading its log. A match whose deals were not kept (ended before they were, or its task lost) is
replayed each time, giving the same record.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, TypeVar

import orjson
from django.contrib.auth.models import User
from django.db.models import Prefetch, prefetch_related_objects
from django.utils.translation import gettext

from games import errors
from games.models import Match, MatchEvent, Seat
from games.selectors import REVEALED_STATUSES, bot_account
from switchgame.records.gamerecord import Record, deals_from_log, game_record, record_from_log
from switchgame.words import quoted
from switchsite.problems import problem_body

# How many matches an export reads at once: three queries per chunk (matches, seats, events of
# the matches whose record deals were not kept).
EXPORT_CHUNK = 50
# What a record is made from, of each logged event.
LOGGED = ("seq", "type", "seat", "data", "private")

Built = TypeVar("Built")

logger = logging.getLogger(__name__)


def match_record(*, match_id: int) -> Record:
    """The record of a finished or abandoned match; 404 for none, 409 ``match_not_over``."""
    match = next(iter(_with_seats_and_events(Match.objects.filter(pk=match_id))), None)
    if match is None:
        raise errors.MatchNotFound(
            gettext("There is no match %(match_id)s.") % {"match_id": match_id}
        )
    if match.status not in REVEALED_STATUSES:
        raise errors.MatchNotOver(
            gettext(
                "The match is not over: its record is kept once it has finished or been abandoned."
            )
        )
    return _record(match)


def deals_to_keep(*, match_id: int) -> list[dict[str, Any]] | None:
    """The ``deals`` of the record of a match that is over and has none kept, replayed from its
    log (what :class:`~games.models.RecordDeals` keeps); None if it is not over, or they are kept.
    Raises RecordUnavailable when the log does not replay."""
    pending = Match.objects.filter(
        pk=match_id, status__in=REVEALED_STATUSES, record_deals__isnull=True
    )
    match = next(iter(_with_seats_and_events(pending)), None)
    if match is None:
        return None
    log = _log(match)
    return _replayed(
        match,
        lambda: deals_from_log(
            match=_settings(match), events=log, seed_in_play=match.deal_seed or None
        ),
    )


def player_id_named(*, username: str) -> int:
    """The id of the player called ``username``; 404 ``not_found`` for none."""
    user = User.objects.filter(username=username, player__isnull=False).first()
    if user is None:
        raise errors.PlayerNotFound(
            gettext("No player is called %(username)s.") % {"username": quoted(username)}
        )
    return user.pk


def finished_records(
    *, user_id: int, after: int = 0, limit: int | None = None
) -> list[tuple[int, Record]]:
    """The records of up to ``limit`` finished matches the user played, with ids above ``after``,
    oldest first, each with its match's id: one chunk of an export (the next starts after the
    last id); ``limit`` defaults to ``EXPORT_CHUNK``. A match whose record cannot be built has a
    problem document in its place (``record_unavailable``, with its ``match``), so that one such
    match does not end the export. Records to be written with orjson: kept deals are not parsed
    but written as the JSON text they are kept as (``orjson.Fragment``), which spares building and
    collecting hundreds of objects per record."""
    matches = Match.objects.filter(
        status=Match.Status.FINISHED, pk__gt=after, pk__in=_seated(user_id)
    ).order_by("pk")
    chunk = _with_seats_and_events(matches[: limit or EXPORT_CHUNK])
    return [(match.pk, _exported(match)) for match in chunk]


def _exported(match: Match) -> Record:
    try:
        return _record(match, kept_deals=orjson.Fragment)
    except errors.RecordUnavailable as unavailable:
        code, detail = unavailable.code, unavailable.detail
        return problem_body(unavailable.status, code, detail, match=match.pk)


def _seated(user_id: int) -> Any:
    return Seat.objects.filter(player_id=user_id).values("match_id")


def _with_seats_and_events(matches: Any) -> list[Match]:
    """The matches with what their records are made of: seats and players, and the kept record
    deals — or, for a match without them, its log (its event rows, or its archived log).

    The logs are read for the matches that had no kept deals when the matches were read, by their
    ids: a filter on the kept deals in the events' own query would leave out the log of a match
    whose deals were kept in between (by the task, at the same moment), and make its record of
    nothing."""
    read = list(
        matches.select_related("archived_log", "record_deals")
        .defer("state", "archived_log__events")  # read only when the log is replayed
        .prefetch_related(
            Prefetch(
                "seats", queryset=Seat.objects.select_related("player__player").order_by("index")
            )
        )
    )
    unkept = [
        match
        for match in read
        if getattr(match, "record_deals", None) is None
        and getattr(match, "archived_log", None) is None
    ]
    events = MatchEvent.objects.order_by("seq").only(
        "match_id", "seq", "type", "seat", "data", "private"
    )
    prefetch_related_objects(unkept, Prefetch("events", queryset=events))
    return read


def _log(match: Match) -> list[dict[str, Any]]:
    """The match's log as a record is made from it: its event rows, or EVENT_RETENTION_DAYS after
    it ended, when they are gone, its archived log."""
    archived = getattr(match, "archived_log", None)
    if archived is not None:
        return [{key: e[key] for key in LOGGED} for e in archived.events]
    return [{key: getattr(e, key) for key in LOGGED} for e in match.events.all()]


def _record(match: Match, *, kept_deals: Callable[[str], Any] = orjson.loads) -> Record:
    """The match's record, its deals read from those kept (as ``kept_deals`` makes them of their
    JSON text), or replayed from its log; raises RecordUnavailable when the log did not replay."""
    kept = getattr(match, "record_deals", None)
    if kept is not None and kept.failure:
        raise errors.RecordUnavailable(match.pk, kept.failure)
    if kept is not None:
        return game_record(
            match=_settings(match),
            players=_players(match),
            deals=kept_deals(kept.deals),
            result=match.result,
        )
    log = _log(match)
    try:
        return _replayed(
            match,
            lambda: record_from_log(
                match=_settings(match),
                players=_players(match),
                events=log,
                result=match.result,
                seed_in_play=match.deal_seed or None,  # an abandoned match's deal that did not end
            ),
        )
    except errors.RecordUnavailable as unavailable:
        # A match past the sweep's day (its failure was never kept): said on every read.
        logger.warning("The record of match %s cannot be built: %s", match.pk, unavailable.reason)
        raise


def _replayed(match: Match, build: Callable[[], Built]) -> Built:
    """What ``build`` makes of the match's log with the pure replay, which reads nothing more:
    whatever it raises, the log does not give the record (RecordUnavailable, saying why)."""
    try:
        return build()
    except Exception as error:
        raise errors.RecordUnavailable(match.pk, f"{type(error).__name__}: {error}") from error


def _settings(match: Match) -> dict[str, Any]:
    """The record's ``match``: the settings the game was created with, and how it ended."""
    return {
        "id": match.pk,
        "ruleset": match.ruleset,
        "game": match.game,
        "seat_count": match.seat_count,
        "options": match.options,
        "deals": match.deals,
        "target": match.target,
        "layout": match.layout,
        "turn_seconds": match.turn_seconds,
        "status": match.status,
        "practice": bool(match.practice_seed),
        "created_at": match.created_at.isoformat(),
        "finished_at": match.finished_at.isoformat() if match.finished_at else None,
    }


def _players(match: Match) -> list[dict[str, Any]]:
    return [
        {
            "seat": seat.index,
            "player": seat.player.get_username() if seat.player else None,
            "bot_account": bot_account(seat.player),
            "bot": seat.bot_strategy or None,
            "resigned": seat.resigned,
        }
        for seat in match.seats.all()
    ]
