"""Reads: tournaments as the API and the admin show them, and the standings.

Every function here runs a fixed number of queries whatever the size of the field (the standings
page of a sixty-player event costs what a six-player one does): rows are fetched per kind, never
per entry or table, and put together in Python.
"""

from __future__ import annotations

import csv
import io
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from django.db.models import Count, Prefetch, Q, QuerySet, Sum

from tournaments import errors, ratings
from tournaments.models import Bye, Entry, Round, ScoreLine, Table, TableSeat, Tournament
from tournaments.scoring import Bye as ByeResult
from tournaments.scoring import StandingRow, TableResult, standings

TIEBREAKS = ("table_share", "opponents_score", "deals_won", "head_to_head", "lot")


def tournament_get(*, tournament_id: int) -> Tournament:
    try:
        return Tournament.objects.select_related("created_by").get(pk=tournament_id)
    except Tournament.DoesNotExist:
        raise errors.TournamentNotFound(f"There is no tournament {tournament_id}.") from None


def tournament_list() -> QuerySet[Tournament]:
    """Newest first, with the number of entries and of rounds published so far."""
    return Tournament.objects.annotate(
        entry_count=Count(
            "entries", filter=Q(entries__withdrawn_after__isnull=True), distinct=True
        ),
        current_round=Count("round", filter=~Q(round__status=Round.Status.DRAFT), distinct=True),
    ).order_by("-created_at", "-pk")


def tournament_detail(*, tournament: Tournament) -> dict[str, Any]:
    """The event, its entries and its published rounds with their tables, matches and seats."""
    entries = list(tournament.entries.select_related("player").order_by("pk"))
    rounds = (
        tournament.round_set.exclude(status=Round.Status.DRAFT)
        .order_by("number")
        .prefetch_related(
            Prefetch("tables", queryset=Table.objects.order_by("number")),
            Prefetch("seats", queryset=TableSeat.objects.order_by("seat")),
            "byes",
        )
    )
    names = {entry.pk: entry for entry in entries}
    return {
        "id": tournament.pk,
        "name": tournament.name,
        "ruleset": tournament.ruleset,
        "options": tournament.options,
        "scoring": tournament.scoring,
        "planned_rounds": tournament.rounds,
        "table_size": tournament.table_size,
        "deals_per_round": tournament.deals_per_round,
        "target": tournament.target,
        "seating": tournament.seating,
        "bye_policy": tournament.bye_policy,
        "status": tournament.status,
        "created_by": tournament.created_by.get_username(),
        "created_at": tournament.created_at.isoformat(),
        "entries": [_entry_summary(entry) for entry in entries],
        "rounds": [_round_summary(r, names) for r in rounds],
    }


def _entry_summary(entry: Entry) -> dict[str, Any]:
    return {
        "id": entry.pk,
        "name": entry.name,
        "player": entry.player.get_username() if entry.player else None,
        "bot": entry.bot_strategy or None,
        "joined_round": entry.joined_round,
        "withdrawn": not entry.is_active,
    }


def _round_summary(played: Round, entries: dict[int, Entry]) -> dict[str, Any]:
    seats_by_table: defaultdict[int, list[TableSeat]] = defaultdict(list)
    for seat in played.seats.all():
        seats_by_table[seat.table_id].append(seat)

    def seated(entry_id: int) -> dict[str, Any]:
        entry = entries[entry_id]
        return {"entry": entry_id, "name": entry.name, "bot": entry.bot_strategy or None}

    return {
        "number": played.number,
        "status": played.status,
        "seed": played.seed,
        "repeats": played.repeats,
        "repeat_lower_bound": played.repeat_lower_bound,
        "published_at": played.published_at.isoformat() if played.published_at else None,
        "tables": [
            {
                "number": table.number,
                "match": table.match_id,
                "recorded": table.recorded_at is not None,
                "seats": [{"seat": s.seat, **seated(s.entry_id)} for s in seats_by_table[table.pk]],
            }
            for table in played.tables.all()
        ],
        "byes": [seated(bye.entry_id) for bye in played.byes.all()],
    }


# --- standings -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Standings:
    """Standings rows ready to show (API.md shape plus per-round points) and the round numbers."""

    rows: list[dict[str, Any]]
    round_numbers: list[int]


def tournament_standings(*, tournament: Tournament) -> list[StandingRow]:
    """The pure standings (entry ids) from the recorded tables and the byes of complete rounds."""
    return _standings_inputs(tournament).rows


def standings_table(*, tournament: Tournament) -> Standings:
    """The standings as the API, the CSV export and the admin page show them (API.md)."""
    inputs = _standings_inputs(tournament)
    fresh = ratings.initial_rating()
    rows = []
    for row in inputs.rows:
        entry = inputs.entries[row.entry]
        holder = getattr(entry.player, "player", None) if entry.player else entry
        mu, sigma = fresh.mu, fresh.sigma
        if holder is not None and holder.rating_mu is not None:
            mu, sigma = holder.rating_mu, holder.rating_sigma
        rows.append(
            {
                "rank": row.rank,
                "entry": row.entry,
                "player": entry.name,
                "bot": entry.bot_strategy or None,
                "score": row.score,
                "points": row.points,
                "deals_won": row.deals_won,
                "played": row.played,
                "byes": row.byes,
                "withdrawn": not entry.is_active,
                "tiebreaks": row.tiebreaks,
                "rating": round(mu - 3 * sigma, 3),
                "round_points": {number: row.round_points.get(number) for number in inputs.rounds},
            }
        )
    return Standings(rows=rows, round_numbers=inputs.rounds)


def standings_csv(*, standings_rows: list[dict[str, Any]]) -> str:
    """The standings as CSV: the JSON fields, tie-breaks and rounds flattened into columns."""
    round_numbers = list(standings_rows[0]["round_points"]) if standings_rows else []
    out = io.StringIO()
    writer = csv.writer(out)
    scalar = ["rank", "player", "score", "points", "deals_won", "played", "byes", "rating"]
    writer.writerow([*scalar, *TIEBREAKS, *(f"round_{n}" for n in round_numbers)])
    for row in standings_rows:
        writer.writerow(
            [
                *(row[name] for name in scalar),
                *(
                    "" if row["tiebreaks"][name] is None else row["tiebreaks"][name]
                    for name in TIEBREAKS
                ),
                *(
                    "" if row["round_points"][n] is None else row["round_points"][n]
                    for n in round_numbers
                ),
            ]
        )
    return out.getvalue()


def running_totals(*, standings: Standings) -> dict[str, list[float]]:
    """Each entry's points added up round by round (rounds it missed add nothing), for the chart."""
    totals = {}
    for row in standings.rows:
        total, series = 0.0, []
        for number in standings.round_numbers:
            total += row["round_points"][number] or 0
            series.append(total)
        totals[row["player"]] = series
    return totals


@dataclass(frozen=True)
class _Inputs:
    rows: list[StandingRow]
    entries: dict[int, Entry]
    rounds: list[int]


def _standings_inputs(tournament: Tournament) -> _Inputs:
    """Five queries: entries (with ratings), recorded tables, their seats, summed lines, byes."""
    entries = {
        e.pk: e
        for e in Entry.objects.filter(tournament=tournament)
        .select_related("player__player")
        .order_by("pk")
    }
    tables = dict(
        Table.objects.filter(round__tournament=tournament, recorded_at__isnull=False).values_list(
            "pk", "round__number"
        )
    )
    points: defaultdict[int, dict[int, float]] = defaultdict(dict)
    for table_id, entry_id in TableSeat.objects.filter(table_id__in=tables).values_list(
        "table_id", "entry_id"
    ):
        points[table_id][entry_id] = 0  # an abandoned table has no lines: everyone scored 0
    deals_won: defaultdict[int, dict[int, int]] = defaultdict(dict)
    sums = (
        ScoreLine.objects.filter(table_id__in=tables)
        .values("table_id", "entry_id")
        .annotate(total=Sum("points"), won=Count("pk", filter=Q(won=True)))
    )
    for line in sums:
        points[line["table_id"]][line["entry_id"]] = line["total"]
        deals_won[line["table_id"]][line["entry_id"]] = line["won"]
    byes = [
        ByeResult(round_number=number, entry=entry_id)
        for number, entry_id in Bye.objects.filter(
            round__tournament=tournament, round__status=Round.Status.COMPLETE
        ).values_list("round__number", "entry_id")
    ]
    results = [
        TableResult(tables[table_id], points[table_id], deals_won[table_id])
        for table_id in sorted(tables)
        if len(points[table_id]) >= 2
    ]
    in_play = {entry for result in results for entry in result.points} | {b.entry for b in byes}
    field = [pk for pk, entry in entries.items() if entry.is_active or pk in in_play]
    rows = standings(field, results, byes, bye_policy=tournament.bye_policy, seed=tournament.seed)
    rounds = sorted({result.round_number for result in results} | {b.round_number for b in byes})
    return _Inputs(rows=rows, entries=entries, rounds=rounds)
