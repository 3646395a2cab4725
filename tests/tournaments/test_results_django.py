"""Score lines from finished matches (French tallies, Abbott totals, placement), the scoring task
run twice, corrections that recompute standings and ratings, and the standings' query count."""

from dataclasses import replace
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games import tasks as game_tasks
from games.models import Match, RatedResult, Rating
from switchgame import ratings
from switchgame.abbott.scoring import hand_scores
from switchgame.protocol import HandOutcome, Outcome, solo_teams
from tests.engine.test_abbott_scoring import JONES, WORKED_EXAMPLE
from tests.tournaments.conftest import end_match, table_seats
from tournaments import selectors, services, tasks
from tournaments.models import Entry, Round, ScoreLine, Tournament

pytestmark = pytest.mark.django_db

# Two deals at a table of four, scored by the French tally (docs/rules.md §5), worked out by hand:
# deal 1, seat 2 goes out; left in hand: seat 0 A♠ 2♥ = 20 + 15 = 35; seat 1 K♦ Q♣ 7♠ = 10 + 10 +
# 7 = 27; seat 3 J♥ 4♦ 3♣ 10♠ = 15 + 15 + 3 + 10 = 43; seat 2 scores 35 + 27 + 43 = 105.
# deal 2, seat 0 goes out; seat 1 9♥ = 9; seat 2 5♣ 6♣ = 11; seat 3 A♥ A♦ = 40; seat 0 scores 60.
FRENCH_RESULT = Outcome(
    hands=(
        HandOutcome(
            number=1, points=(0, 0, 105, 0), winner=2, placings=(2, 1, 0, 3), teams=solo_teams(4)
        ),
        HandOutcome(
            number=2, points=(60, 0, 0, 0), winner=0, placings=(0, 1, 2, 3), teams=solo_teams(4)
        ),
    ),
    totals=(60, 0, 105, 0),
    ranking=(2, 0, 1, 3),
)


def started(tournament: Tournament) -> Round:
    return services.tournament_start(tournament_id=tournament.pk, user=tournament.created_by)


def lines_of(table) -> list[tuple[int, int, int, bool]]:
    return list(
        ScoreLine.objects.filter(table=table)
        .order_by("deal", "entry")
        .values_list("entry_id", "deal", "points", "won")
    )


def sorted_seats(seats: list[int]) -> list[tuple[int, int]]:
    """(seat, entry) in entry order, as ``lines_of`` lists each deal."""
    return sorted(enumerate(seats), key=lambda pair: pair[1])


def holder(entry_id: int) -> str:
    return Entry.objects.get(pk=entry_id).rating_holder


def rating_of(entry_id: int) -> tuple[float, float]:
    """The entry's shedding rating once the pending rated results are replayed (the task)."""
    game_tasks.replay_ratings.apply(("shedding",)).get()
    rating = Rating.objects.get(holder=holder(entry_id), game="shedding")
    return rating.mu, rating.sigma


def rated_results(table) -> list[RatedResult]:
    return list(RatedResult.objects.filter(source__startswith=f"table:{table.pk}:"))


def test_french_tallies_become_score_lines_and_standings(human_event):
    tournament = human_event(4, rounds=1)
    (table,) = started(tournament).tables.all()
    seats = table_seats(table)

    end_match(table.match_id, FRENCH_RESULT)

    assert lines_of(table) == [
        *((entry, 1, 105 if seat == 2 else 0, seat == 2) for seat, entry in sorted_seats(seats)),
        *((entry, 2, 60 if seat == 0 else 0, seat == 0) for seat, entry in sorted_seats(seats)),
    ]
    rows = {row["entry"]: row for row in selectors.standings_table(tournament=tournament).rows}
    assert rows[seats[2]]["rank"] == 1
    assert (rows[seats[2]]["points"], rows[seats[2]]["deals_won"], rows[seats[2]]["score"]) == (
        105,
        1,
        1.0,
    )
    assert (rows[seats[0]]["points"], rows[seats[0]]["score"]) == (60, pytest.approx(2 / 3))
    # Seats 1 and 3 scored nothing: each beat nobody and tied one of three opponents.
    assert rows[seats[1]]["score"] == rows[seats[3]]["score"] == pytest.approx(1 / 6)
    assert rows[seats[2]]["tiebreaks"]["table_share"] == pytest.approx(105 / 165)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED  # the only round of the event


def test_placement_points_per_deal(human_event):
    tournament = human_event(4, rounds=1, scoring="placement")
    (table,) = started(tournament).tables.all()
    seats = table_seats(table)

    end_match(table.match_id, FRENCH_RESULT)

    totals = {
        row["entry"]: row["points"] for row in selectors.standings_table(tournament=tournament).rows
    }
    # Placings [2, 1, 0, 3] then [0, 1, 2, 3]: 3, 2, 1, 0 points by place.
    assert totals == {seats[0]: 1 + 3, seats[1]: 2 + 2, seats[2]: 3 + 1, seats[3]: 0 + 0}


def test_abbott_totals_of_the_sources_worked_example(human_event):
    """The seven hands of the source (Smith, Jones, Robinson, Brown in seats 0–3): Jones wins at 20."""
    tournament = human_event(4, rounds=1, ruleset="abbott", scoring="abbott", deals_per_round=None)
    (table,) = started(tournament).tables.all()
    seats = table_seats(table)
    hands, totals = [], [0, 0, 0, 0]
    for hand, (chooser, chosen, winner, _, _) in enumerate(WORKED_EXAMPLE, start=1):
        scores = hand_scores(4, winner, (chooser, chosen))
        totals = [t + s for t, s in zip(totals, scores, strict=True)]
        others = tuple((seat,) for seat in range(4) if seat not in (chooser, chosen))
        hands.append(
            HandOutcome(
                number=hand,
                points=tuple(scores),
                winner=winner,
                placings=(winner, *(seat for seat in range(4) if seat != winner)),
                teams=((chooser, chosen), *others),
            )
        )
    ranking = sorted(range(4), key=lambda seat: -totals[seat])
    assert ranking[0] == JONES

    end_match(table.match_id, Outcome(tuple(hands), tuple(totals), tuple(ranking)))

    for hand, (*_, printed_totals) in enumerate(WORKED_EXAMPLE, start=1):
        running = [
            sum(
                ScoreLine.objects.filter(table=table, entry=entry, deal__lte=hand).values_list(
                    "points", flat=True
                )
            )
            for entry in seats
        ]
        assert running == printed_totals, f"after hand {hand}"
    rows = selectors.standings_table(tournament=tournament).rows
    assert [(row["entry"], row["points"]) for row in rows] == [
        (seats[1], 20),
        (seats[2], 15),
        (seats[0], 14),
        (seats[3], 11),
    ]
    assert rows[0]["score"] == 1.0
    games = rated_results(table)
    who = [holder(entry) for entry in seats]
    assert [g.source for g in games] == [f"table:{table.pk}:{hand}" for hand in range(1, 8)]
    assert games[0].teams == [[who[0], who[1]], [who[2]], [who[3]]]  # Smith chose Jones
    assert games[0].ranks == [1, 2, 2]  # and Jones won the hand
    # Jones chose Brown; Robinson won: teams Jones + Brown (0), Smith (4), Robinson (6).
    assert games[1].teams == [[who[1], who[3]], [who[0]], [who[2]]]
    assert games[1].ranks == [3, 2, 1]


def test_the_scoring_task_run_twice_writes_the_same_lines_and_rates_once(human_event):
    tournament = human_event(4, rounds=1)
    (table,) = started(tournament).tables.all()
    end_match(table.match_id, FRENCH_RESULT)
    lines, ratings_after = lines_of(table), [rating_of(e) for e in table_seats(table)]

    assert tasks.record_table_result.apply((table.match_id,)).get() is False
    assert tasks.record_table_result.apply((table.match_id,)).get() is False

    assert lines_of(table) == lines
    assert ScoreLine.objects.filter(table=table).count() == 8
    assert len(rated_results(table)) == 1
    assert [rating_of(e) for e in table_seats(table)] == ratings_after


def names_of(table) -> list[str]:
    return [seat.entry.name for seat in table.seats.select_related("entry").order_by("seat")]


def test_a_correction_replaces_the_lines_and_recomputes_standings_and_ratings(
    human_event, organiser, django_capture_on_commit_callbacks, tasks_in_process
):
    tournament = human_event(4, rounds=1)
    (table,) = started(tournament).tables.all()
    seats, names = table_seats(table), names_of(table)
    end_match(table.match_id, FRENCH_RESULT)
    loser_before = rating_of(seats[3])
    others = dict.fromkeys(names[:3], 0)
    corrected = {
        "deals": [
            {"winner": names[3], "points_left": {**others, names[0]: 500}},
            {"winner": names[3], "points_left": others},
        ]
    }

    with django_capture_on_commit_callbacks(execute=True):
        services.table_result_enter(
            tournament_id=tournament.pk,
            round_number=1,
            table_number=1,
            user=organiser,
            result=corrected,
            replace=True,
            confirm=True,  # 500 is possible (a deck holds 532) but needs confirming
        )

    rows = selectors.standings_table(tournament=tournament).rows
    assert (rows[0]["entry"], rows[0]["points"], rows[0]["deals_won"]) == (seats[3], 500, 2)
    assert ScoreLine.objects.filter(table=table).count() == 8  # no line of the match is left
    (game,) = rated_results(table)
    assert game.ranks == [2, 2, 2, 1]  # by points: 0, 0, 0, 500
    expected = ratings.rate_match(
        ratings.RatedMatch(teams=[[holder(s)] for s in seats], ranks=[2, 2, 2, 1]), {}
    )
    assert rating_of(seats[3]) == (
        pytest.approx(expected[holder(seats[3])].mu),
        pytest.approx(expected[holder(seats[3])].sigma),
    )
    assert rating_of(seats[3])[0] > loser_before[0]
    # A rerun of the match's scoring task leaves the desk's result alone.
    assert table.match_id is not None
    assert services.table_result_record(match_id=table.match_id) is False
    assert ScoreLine.objects.get(table=table, entry_id=seats[3], deal=1).points == 500


def test_only_staff_enter_results(human_event):
    from tournaments.errors import StaffOnly

    tournament = human_event(4, rounds=1)
    (table,) = started(tournament).tables.all()
    player = table.seats.get(seat=0).entry.player
    assert player is not None

    with pytest.raises(StaffOnly):
        services.table_result_enter(
            tournament_id=tournament.pk,
            round_number=1,
            table_number=1,
            user=player,
            result={"deals": []},
        )


def played_event(human_event, players: int) -> Tournament:
    """A tournament of ``players`` at tables of four with round 1 played (every seat 0 wins)."""
    tournament = human_event(players, rounds=2)
    for table in started(tournament).tables.all():
        end_match(table.match_id, replace(FRENCH_RESULT, hands=FRENCH_RESULT.hands[1:]))
    return tournament


def test_standings_take_the_same_number_of_queries_for_any_field_size(human_event):
    small, large = played_event(human_event, 4), played_event(human_event, 16)

    counts = []
    for tournament in (small, large):
        with CaptureQueriesContext(connection) as queries:
            rows = selectors.standings_table(tournament=tournament).rows
        counts.append(len(queries))
        assert len(rows) == tournament.entries.count()
    assert counts[0] == counts[1] <= 6


def test_swiss_seats_round_two_by_standing(human_event):
    """Four players at tables of two: the round-1 winners meet at the top table in round 2 (a
    seating with no repeats that keeps everyone at the table their standing gives)."""
    tournament = human_event(4, rounds=2, table_size=2, seating="swiss")
    for table in started(tournament).tables.all():
        deal = HandOutcome(number=1, points=(25, 0), winner=0, placings=(0, 1), teams=solo_teams(2))
        end_match(table.match_id, Outcome(hands=(deal,), totals=(25, 0), ranking=(0, 1)))

    second = services.round_next(tournament_id=tournament.pk, user=tournament.created_by)

    ranked = [row.entry for row in selectors.tournament_standings(tournament=tournament)]
    tables = [set(table_seats(t)) for t in second.tables.order_by("number")]
    assert tables == [set(ranked[:2]), set(ranked[2:])]


def test_tasks_for_deleted_tournaments_or_other_matches_do_nothing():
    assert tasks.recompute_tournament.apply((999,)).get() is False
    assert tasks.record_table_result.apply((999,)).get() is False


def test_the_sweep_scores_a_table_whose_scoring_task_was_lost(human_event, tasks_in_process):
    """The match ended (its task never ran: a dead worker, a broker that was down): the periodic
    sweep finds the unscored table in the database and scores it, once."""
    tournament = human_event(4, rounds=1)
    (table,) = started(tournament).tables.all()
    long_ago = timezone.now() - timedelta(minutes=1)
    assert table.match_id is not None
    Match.objects.filter(pk=table.match_id).update(
        status=Match.Status.FINISHED, result=FRENCH_RESULT.to_json(), finished_at=long_ago
    )

    assert tasks.sweep_unscored_tables() == 1
    assert tasks.sweep_unscored_tables() == 0

    assert len(lines_of(table)) == 8
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
