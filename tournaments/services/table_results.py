"""Table results: a played match scored, the desk's result entered or corrected, the recompute."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from games import services as game_services
from games.models import Match, RatedResult
from switchgame import catalog, protocol
from switchgame.tournament import results
from switchgame.tournament.scoring import Scoring
from switchsite.problems import said
from switchsite.tasks import publish_after_commit
from tournaments import errors, selectors
from tournaments.models import (
    Entry,
    ResultEntry,
    ResultReport,
    Round,
    ScoreLine,
    Table,
    Tournament,
)
from tournaments.powers import Power, require_power
from tournaments.services.common import locked_tournament

ENDED = (Match.Status.FINISHED, Match.Status.ABANDONED)
WHOLE_TABLE = 0  # the "hand" of a table rated as a whole


def table_result_record(*, match_id: int) -> bool:
    """Write the score lines and rating updates of a tournament table whose match has ended.

    Safe to run twice: the lines are rewritten as they were, ratings are updated once per table
    (or Abbott hand). A table whose result the desk entered is left alone. A match abandoned with
    no outcome forfeits the table (docs/rules.md §5: everyone at it lost). Closes the round when
    it was the last table, and the tournament after its last round. Returns whether the table was
    newly recorded.
    """
    tournament_id = (
        Table.objects.filter(match_id=match_id)
        .values_list("round__tournament_id", flat=True)
        .first()
    )
    if tournament_id is None:
        return False
    with transaction.atomic():
        tournament = locked_tournament(tournament_id)
        table = Table.objects.select_related("round", "match").get(match_id=match_id)
        match = table.match
        assert match is not None  # found by its match
        if match.status not in ENDED or table.outcome == Table.Outcome.ENTERED:
            return False
        newly = table.recorded_at is None
        _record_played(tournament, table)
        _close_round_if_done(tournament, table.round)
    return newly


def unscored_matches(*, quiet_for: timedelta) -> list[int]:
    """Matches of tournament tables that ended more than ``quiet_for`` ago and were never scored
    (the task that should have scored them was lost): the sweep publishes their scoring again."""
    ended_before = timezone.now() - quiet_for
    return list(
        Table.objects.filter(
            recorded_at__isnull=True, match__status__in=ENDED, match__finished_at__lte=ended_before
        ).values_list("match_id", flat=True)
    )


def table_result_enter(
    *,
    tournament_id: int,
    round_number: int,
    table_number: int,
    user: User,
    result: dict[str, Any],
    replace: bool = False,
    confirm: bool = False,
    reason: str = "",
    submission: str = "",
) -> Table:
    """The desk's result of one table: checked against the table and the tournament's format,
    then scored exactly as a played match. An online table still playing is adjudicated: its
    match is abandoned. A table with a result already needs ``replace`` (a correction, with an
    optional ``reason``); every version is kept (:class:`ResultEntry`), a French tally above the
    plausible needs ``confirm``, and ratings are replayed from the table onwards in the
    background. A cancelled tournament is closed: no result is entered or corrected. A desk
    form's ``submission`` already saved (sent again by a browser that was offline) is not saved
    twice.
    """
    require_power(user, Power.RESULTS)
    with transaction.atomic():
        tournament = locked_tournament(tournament_id)
        table = open_table(tournament, round_number=round_number, table_number=table_number)
        if submission and table.result_entries.filter(submission=submission).exists():
            return table
        has_result = has_recorded_result(table)
        if has_result and not replace:
            raise errors.ResultRecorded(
                gettext(
                    'Table %(table)s of round %(round)s has a result; send "replace": true to '
                    "correct it."
                )
                % {"table": table_number, "round": round_number}
            )
        checked = result_checked(tournament, table, result, confirm=confirm)
        if table.match is not None and table.match.status == Match.Status.ACTIVE:
            game_services.match_abandon(
                match_id=table.match.pk, reason="adjudicated by the tournament desk"
            )
        result_write(
            tournament,
            table,
            checked,
            user=user,
            reason=reason if has_result else "",
            submission=submission,
        )
        settled = list(table.reports.filter(status__in=ResultReport.OPEN))
        for report in settled:
            report.status = ResultReport.Status.SETTLED
        ResultReport.objects.bulk_update(settled, ["status"])
        if settled:
            tell_table(tournament, table, settled[-1])
    return table


def tell_table(tournament: Tournament, table: Table, report: ResultReport) -> None:
    """A ``table_report`` in the feed of each player at the table (members, and guests through
    their seat links): their pages show the report, or the result, without reloading."""
    holders = Entry.objects.filter(seats__table=table).values_list("player_id", "guest_user_id")
    for user_id in {player or guest for player, guest in holders if player or guest}:
        game_services.player_notify(
            user_id=user_id,
            event_type="table_report",
            match=None,
            data={
                "tournament": tournament.pk,
                "round": table.round.number,
                "table": table.number,
                "report": report.pk,
                "status": report.status,
            },
        )


def open_table(tournament: Tournament, *, round_number: int, table_number: int) -> Table:
    """A table of a published round of a tournament that still takes results (not cancelled)."""
    if tournament.status == Tournament.Status.CANCELLED:
        raise errors.TournamentCancelled.results_closed(tournament.name)
    return selectors.table_of(
        tournament=tournament, round_number=round_number, table_number=table_number
    )


def has_recorded_result(table: Table) -> bool:
    """Whether the table has score lines, played or entered (a forfeit is no result)."""
    return table.outcome in (Table.Outcome.PLAYED, Table.Outcome.ENTERED)


@dataclass(frozen=True)
class CheckedResult:
    """A result body that passed the desk's checks, with the deals (or hands) it scores."""

    result: dict[str, Any]
    hands: Sequence[protocol.HandOutcome]
    tallies: Sequence[Sequence[int]]


def result_checked(
    tournament: Tournament, table: Table, result: dict[str, Any], *, confirm: bool
) -> CheckedResult:
    """The one check of a table's result, whoever sends it (the desk, the API, a player's
    report): it must fit the table and the format (400 ``invalid_result``), and a French tally
    above the plausible needs ``confirm`` (400 ``implausible_tally``)."""
    names = [seat.entry.name for seat in table.seats.select_related("entry").order_by("seat")]
    table_format = selectors.table_format(tournament=tournament, names=names)
    try:
        hands = results.hands_from_result(table_format, result)
    except results.ResultInvalid as error:
        raise errors.InvalidResult(
            gettext("The result cannot be right: see errors."), errors=error.errors
        ) from None
    implausible = results.implausible_tallies(table_format, result)
    if implausible and not confirm:
        raise errors.ImplausibleTally(
            gettext(
                'Unusually high tallies (%(tallies)s): check them, then send "confirm": true '
                "to record them."
            )
            % {"tallies": "; ".join(said(tally) for tally in implausible)}
        )
    return CheckedResult(result, hands, results.french_tallies(table_format, result))


def result_write(
    tournament: Tournament,
    table: Table,
    checked: CheckedResult,
    *,
    user: User,
    reason: str = "",
    report: ResultReport | None = None,
    submission: str = "",
) -> None:
    """Record a checked result as the desk's entry (in the caller's transaction, the tournament
    locked): kept on record with who entered it (and the players' report it came from), scored
    exactly as a played match, the round closed if it was the last table."""
    ResultEntry.objects.create(
        table=table,
        result=checked.result,
        entered_by=user,
        reason=reason,
        report=report,
        submission=submission,
    )
    rewritten = _table_write(
        tournament, table, checked.hands, outcome=Table.Outcome.ENTERED, tallies=checked.tallies
    )
    _close_round_if_done(tournament, table.round)
    if rewritten:
        publish_after_commit("tournaments.tasks.recompute_tournament", tournament.pk)


def standings_recompute(*, tournament_id: int) -> None:
    """The full recompute (after a correction, or a lost task).

    Records every ended match whose table is not recorded yet. Standings themselves are computed
    from the score lines when read, so they are right at once; ratings are replayed by their own
    task (``games.tasks.replay_ratings``).
    """
    with transaction.atomic():
        tournament = locked_tournament(tournament_id)
        tables = Table.objects.filter(
            round__tournament=tournament, match__status__in=ENDED, recorded_at__isnull=True
        ).select_related("round", "match")
        for table in tables:
            _record_played(tournament, table)
            _close_round_if_done(tournament, table.round)


def _record_played(tournament: Tournament, table: Table) -> None:
    """Score an ended match: its outcome, or a forfeit when it was abandoned with none."""
    assert table.match is not None  # only online tables are played
    result = table.match.result or {}
    if result.get("abandoned") or "hands" not in result:
        table.outcome, table.recorded_at = Table.Outcome.FORFEITED, timezone.now()
        table.save(update_fields=["outcome", "recorded_at"])
        return
    hands = protocol.Outcome.from_json(result).hands
    tallies = [
        list(data.get("tallies", ()))
        for data in table.match.events.filter(type="deal_end")
        .order_by("seq")
        .values_list("data", flat=True)
    ]
    _table_write(tournament, table, hands, outcome=Table.Outcome.PLAYED, tallies=tallies)


def _table_write(
    tournament: Tournament,
    table: Table,
    hands: Sequence[protocol.HandOutcome],
    *,
    outcome: str,
    tallies: Sequence[Sequence[int]] = (),
) -> bool:
    """Write a table's score lines and rating updates from its deals (or hands), in seat order.

    The rated results are written once per table (a rerun of the same result leaves the ratings
    alone); a result the desk enters over them replaces them, and the ratings are replayed from
    the table onwards. Returns whether they were replaced.
    """
    seats = list(table.seats.order_by("seat").values_list("entry_id", flat=True))
    every_seat = [results.hand_points(Scoring(tournament.scoring), hand) for hand in hands]
    # The server bots filling the table sit after the entries: theirs are the last points.
    points = [scored[: len(seats)] for scored in every_seat]
    table.fill_points = [
        sum(scored[seat] for scored in every_seat if seat < len(scored))
        for seat in range(len(seats), len(seats) + table.fill_bots)
    ]
    ScoreLine.objects.filter(table=table).delete()
    ScoreLine.objects.bulk_create(
        ScoreLine(
            table=table,
            entry_id=entry,
            deal=hand.number,
            points=scored[seat],
            won=seat == hand.winner,
            conceded=0 if seat == hand.winner else _tally(tallies, index, seat),
        )
        for index, (hand, scored) in enumerate(zip(hands, points, strict=True))
        for seat, entry in enumerate(seats)
    )
    source = f"table:{table.pk}:"
    earlier = RatedResult.objects.filter(source__startswith=source).order_by("played_at").first()
    rewritten = earlier is not None and outcome == Table.Outcome.ENTERED
    if earlier is None or rewritten:
        holders = {e.pk: e.rating_holder for e in Entry.objects.filter(pk__in=seats)}
        game_services.rated_results_write(
            game=catalog.find_ruleset(tournament.ruleset).game,
            results=[
                (
                    f"{source}{hand}",
                    [[holders[entry] for entry in team] for team in teams],
                    _team_ranks(teams, scored),
                )
                for hand, teams, scored in _rated_games(tournament, hands, points, seats)
            ],
            played_at=earlier.played_at if earlier else timezone.now(),
            replacing=source if rewritten else None,
        )
    table.outcome = outcome
    table.recorded_at = table.recorded_at or timezone.now()
    table.save(update_fields=["outcome", "recorded_at", "fill_points"])
    return rewritten


def _tally(tallies: Sequence[Sequence[int]], deal: int, seat: int) -> int:
    """The French tally a seat was left holding in a deal (0 when unknown)."""
    held = tallies[deal] if deal < len(tallies) else ()
    return held[seat] if seat < len(held) else 0


def _rated_games(
    tournament: Tournament,
    hands: Sequence[protocol.HandOutcome],
    points: Sequence[Sequence[int]],
    seats: Sequence[int],
) -> list[tuple[int, list[list[int]], dict[int, int]]]:
    """(hand, teams of entry ids, points by entry) per rated result: Abbott is rated hand by hand,
    each hand's alliance a team; a shedding table as a whole on its total points."""
    if tournament.scoring == Scoring.ABBOTT:
        return [
            (
                hand.number,
                [
                    [seats[seat] for seat in team if seat < len(seats)]
                    for team in hand.teams
                    if any(seat < len(seats) for seat in team)
                ],
                dict(zip(seats, scored, strict=True)),
            )
            for hand, scored in zip(hands, points, strict=True)
        ]
    totals = [sum(column) for column in zip(*points, strict=True)]
    return [(WHOLE_TABLE, [[entry] for entry in seats], dict(zip(seats, totals, strict=True)))]


def _team_ranks(teams: Sequence[Sequence[int]], points: dict[int, int]) -> list[int]:
    """Each team's place by its members' points (1 best; equal points share a place)."""
    totals = [sum(points.get(entry, 0) for entry in team) for team in teams]
    return [1 + sum(other > own for other in totals) for own in totals]


def _close_round_if_done(tournament: Tournament, played: Round) -> None:
    if played.status != Round.Status.PUBLISHED or tournament.status == Tournament.Status.CANCELLED:
        return
    if played.tables.filter(recorded_at__isnull=True).exists():
        return
    played.status = Round.Status.COMPLETE
    played.save(update_fields=["status"])
    last = played.number >= tournament.planned_rounds
    tournament.status = Tournament.Status.FINISHED if last else Tournament.Status.ROUND_COMPLETE
    tournament.save(update_fields=["status"])
