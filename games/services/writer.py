"""Writes a match's advance — its row and its events — and the players' feed entries, in as few
round trips as the database allows.

What is written is the same everywhere: the match row (only if it is still at the version it was
read at), its new events, and feed entries numbered per player — each player's counter is raised
first, which locks their row until commit, so concurrent writers of one feed queue and its numbers
have no gaps and never commit out of order. Every player must have a game profile.

How it is written depends on the database. On PostgreSQL all of it is **one statement** (data-
modifying ``WITH`` queries, the rows passed as one JSON document each — the match events' and feed
entries' JSON fields use the default encoder, as these rows do), so a move costs the database one
round trip for its writes instead of four; the events and feed entries are inserted only if the
match row was updated. SQLite (the embedded default) has no data-modifying ``WITH``, so there it is
one ORM statement per table, each at most one round trip however many rows. Both ways are tested on
the same rows (``tests/services/test_writer.py``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db import connection
from django.db.models import Case, F, Field, Model, Subquery, Value, When
from django.utils import timezone

from games.models import FeedEvent, Match, MatchEvent, Player
from switchsite.encoding import json_text
from switchsite.serving import notifier


@dataclass(frozen=True)
class FeedEntry:
    """One entry for a player's own feed."""

    user_id: int
    type: str
    match_id: int | None
    data: dict[str, Any]


@dataclass(frozen=True)
class Advance:
    """A match's advance as written: ``fields`` of ``match`` (if its row is still at
    ``read_version``), then its ``events`` and the ``feed`` entries."""

    match: Match
    read_version: int
    fields: Sequence[str]
    events: Sequence[MatchEvent]
    feed: Sequence[FeedEntry]


def advance_write(advance: Advance) -> bool:
    """Write ``advance``; returns whether the match's row was at its read version (if not, nothing
    is written). Must run inside a transaction."""
    write = _advance_in_one_statement if connection.vendor == "postgresql" else _advance_by_orm
    written = write(advance)
    if written:
        notifier.notify_on_commit(
            match_ids=[advance.match.pk], feed_user_ids={e.user_id for e in advance.feed}
        )
    return written


def feed_append(entries: Sequence[FeedEntry]) -> None:
    """Append ``entries`` to the players' feeds."""
    if not entries:
        return
    if connection.vendor == "postgresql":
        sql, params = _feed_statement(entries, after_advance=False)
        with connection.cursor() as cursor:
            cursor.execute(f"WITH {sql} SELECT 1", params)
    else:
        _feed_by_orm(entries)
    notifier.notify_on_commit(feed_user_ids={entry.user_id for entry in entries})


# --- PostgreSQL: one statement -------------------------------------------------------------------


def _advance_in_one_statement(advance: Advance) -> bool:
    match, fields, events, feed = advance.match, advance.fields, advance.events, advance.feed
    assignments = ", ".join(f"{_column(Match, name)} = %s" for name in fields)
    now = timezone.now()
    for event in events:  # as bulk_create would have set it (the rows' ids stay unknown)
        event.created_at = now
    sql = f"""
        advanced AS (
            UPDATE games_match SET {assignments} WHERE id = %s AND version = %s RETURNING id
        ),
        events AS (
            INSERT INTO games_matchevent (match_id, seq, type, seat, data, private, created_at)
            SELECT advanced.id, e.seq, e.type, e.seat, e.data, e.private, %s
            FROM advanced CROSS JOIN jsonb_to_recordset(%s::jsonb)
                AS e(seq bigint, type varchar, seat smallint, data jsonb, private jsonb)
        )"""
    rows = [
        {"seq": e.seq, "type": e.type, "seat": e.seat, "data": e.data, "private": e.private}
        for e in events
    ]
    params: list[Any] = [_prepared(match, name) for name in fields]
    params += [match.pk, advance.read_version, now, json_text(rows)]
    if feed:
        feed_sql, feed_params = _feed_statement(feed, after_advance=True)
        sql += ",\n" + feed_sql
        params += feed_params
    with connection.cursor() as cursor:
        cursor.execute(f"WITH {sql} SELECT count(*) FROM advanced", params)
        (updated,) = cursor.fetchone()
    return bool(updated)


def _feed_statement(entries: Sequence[FeedEntry], *, after_advance: bool) -> tuple[str, list[Any]]:
    """The ``WITH`` queries that number and insert feed entries; ``after_advance``: only if the
    ``advanced`` query updated the match."""
    per_player, behind = _numbering(entries)
    guard = "AND EXISTS (SELECT FROM advanced)" if after_advance else ""
    sql = f"""
        bumped AS (
            UPDATE games_player SET feed_seq = games_player.feed_seq + n.entries
            FROM jsonb_to_recordset(%s::jsonb) AS n(user_id integer, entries bigint)
            WHERE games_player.user_id = n.user_id {guard}
            RETURNING games_player.id, games_player.user_id, games_player.feed_seq
        ),
        feed AS (
            INSERT INTO games_feedevent (player_id, seq, type, match_id, data, created_at)
            SELECT bumped.id, bumped.feed_seq - f.behind, f.type, f.match_id, f.data, %s
            FROM jsonb_to_recordset(%s::jsonb)
                AS f(user_id integer, behind bigint, type varchar, match_id bigint, data jsonb)
            JOIN bumped ON bumped.user_id = f.user_id
        )"""
    counts = [{"user_id": user, "entries": n} for user, n in per_player.items()]
    rows = [
        {
            "user_id": entry.user_id,
            "behind": after,
            "type": entry.type,
            "match_id": entry.match_id,
            "data": _feed_data(entry),
        }
        for entry, after in zip(entries, behind, strict=True)
    ]
    return sql, [json_text(counts), timezone.now(), json_text(rows)]


def _column(model: type[Model], name: str) -> str:
    return connection.ops.quote_name(_concrete_field(model, name).column)


def _prepared(instance: Model, name: str) -> Any:
    """A field's value as the ORM would send it (JSON adapted with the field's encoder, …)."""
    field = _concrete_field(type(instance), name)
    return field.get_db_prep_save(getattr(instance, name), connection)


def _concrete_field(model: type[Model], name: str) -> Field[Any, Any]:
    field = model._meta.get_field(name)
    assert isinstance(field, Field)  # a column of the table, not a relation's other side
    assert field.column is not None
    return field


def _feed_data(entry: FeedEntry) -> dict[str, Any]:
    return {"match": entry.match_id, **entry.data}


def _numbering(entries: Sequence[FeedEntry]) -> tuple[Counter[int], list[int]]:
    """How many entries each player gets, and for each entry how many of the same player's come
    after it (its number is the player's raised counter less that)."""
    per_player = Counter(entry.user_id for entry in entries)
    remaining = dict(per_player)
    behind = []
    for entry in entries:
        remaining[entry.user_id] -= 1
        behind.append(remaining[entry.user_id])
    return per_player, behind


# --- any database: the ORM, a statement per table ------------------------------------------------


def _advance_by_orm(advance: Advance) -> bool:
    match = advance.match
    updated = Match.objects.filter(pk=match.pk, version=advance.read_version).update(
        **{name: getattr(match, name) for name in advance.fields}
    )
    if updated:
        MatchEvent.objects.bulk_create(advance.events)
        _feed_by_orm(advance.feed)
    return bool(updated)


def _feed_by_orm(entries: Sequence[FeedEntry]) -> None:
    if not entries:
        return
    per_player, behind = _numbering(entries)
    Player.objects.filter(user_id__in=per_player).update(
        feed_seq=F("feed_seq")
        + Case(*(When(user_id=user, then=Value(n)) for user, n in per_player.items()))
    )
    rows = []
    for entry, after in zip(entries, behind, strict=True):
        player = Player.objects.filter(user_id=entry.user_id)
        row = FeedEvent(type=entry.type, match_id=entry.match_id, data=_feed_data(entry))
        row.player_id = Subquery(player.values("pk")[:1])
        row.seq = Subquery(player.values("feed_seq")[:1]) - Value(after)
        rows.append(row)
    FeedEvent.objects.bulk_create(rows)
