"""Standings from hand-computed examples: table sizes, ties, byes, head-to-head and lots."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from switchgame.tournament.scoring import (
    Bye,
    ByePolicy,
    TableResult,
    lot,
    placement_points,
    standings,
    table_scores,
    tiebreak_order,
)


def by_entry(rows):
    return {row.entry: row for row in rows}


def test_placement_points_one_per_opponent_finished_ahead_of():
    assert placement_points(["w", "x", "y", "z"]) == {"w": 3, "x": 2, "y": 1, "z": 0}
    assert placement_points(["w", "x"]) == {"w": 1, "x": 0}


def test_table_score_counts_a_tie_as_one_half():
    scores = table_scores({"a": 10, "b": 5, "c": 5, "d": 0})
    assert scores == {"a": 1, "b": 0.5, "c": 0.5, "d": 0}


MIXED_SIZES = [
    TableResult(
        1, {"a": 40, "b": 20, "c": 20, "d": 10, "e": 0}, deals_won={"a": 3, "b": 2, "c": 1}
    ),
    TableResult(1, {"f": 15, "g": 5, "h": 5}, deals_won={"f": 2}),
]


def test_winners_of_different_table_sizes_score_alike_and_split_on_table_share():
    rows = standings("abcdefgh", MIXED_SIZES, bye_policy=ByePolicy.ZERO, seed=7, ranking="average")
    rows_by_entry = by_entry(rows)
    # Both won their table: score 1. f took 15/25 of its table's points, a 40/90.
    assert rows_by_entry["a"].score == rows_by_entry["f"].score == 1
    assert rows_by_entry["f"].tiebreaks["table_share"] == pytest.approx(3 / 5)
    assert rows_by_entry["a"].tiebreaks["table_share"] == pytest.approx(4 / 9)
    # b and c tie at 20: each beats d and e and ties the other: 2.5 of 4 opponents.
    assert rows_by_entry["b"].score == rows_by_entry["c"].score == 0.625
    # Opponents a (1), the other (5/8), d (1/4 → floor 1/3), e (0 → floor 1/3).
    assert rows_by_entry["b"].tiebreaks["opponents_score"] == pytest.approx(55 / 96)
    assert rows_by_entry["c"].tiebreaks["opponents_score"] == pytest.approx(55 / 96)
    # g and h tie at 5 and met: head-to-head is level, so the lot decides.
    assert rows_by_entry["g"].tiebreaks["head_to_head"] == 0.5
    lots_order = sorted("gh", key=lambda entry: lot(entry, 7), reverse=True)
    # d has the same score as g and h (1/4) but the smallest share of its table's points.
    assert [row.entry for row in rows] == ["f", "a", "b", "c", *lots_order, "d", "e"]
    assert [row.rank for row in rows] == list(range(1, 9))
    assert rows_by_entry["a"].points == 40
    assert rows_by_entry["a"].deals_won == 3


# Three entries, two tables of two a round, each sits out one round.
ROTATING_BYES = [
    TableResult(1, {"a": 10, "b": 0}),
    TableResult(2, {"a": 5, "c": 10}),
    TableResult(3, {"b": 10, "c": 0}),
]
BYES = [Bye(1, "c"), Bye(2, "b"), Bye(3, "a")]


@pytest.mark.parametrize(
    ("policy", "scores", "points", "order"),
    [
        # A bye is a round scoring 0: one win in three rounds; a's share (1, 1/3, 0) is the largest.
        (ByePolicy.ZERO, {"a": 1 / 3, "b": 1 / 3, "c": 1 / 3}, {"a": 15, "b": 10, "c": 10}, "abc"),
        # A bye repeats the entry's own average: score 1/2, points +7.5 for a and +5 for b, c.
        (ByePolicy.AVERAGE, {"a": 0.5, "b": 0.5, "c": 0.5}, {"a": 22.5, "b": 15, "c": 15}, "abc"),
        # A bye equals the best result of its round: score 1 and 10 points in every round here.
        # b and c then tie on everything up to head-to-head, which b won in round 3.
        (
            ByePolicy.MAXIMUM,
            {"a": 2 / 3, "b": 2 / 3, "c": 2 / 3},
            {"a": 25, "b": 20, "c": 20},
            "abc",
        ),
    ],
)
def test_byes_under_each_policy(policy, scores, points, order):
    rows = standings("abc", ROTATING_BYES, BYES, bye_policy=policy, seed=1, ranking="average")
    rows_by_entry = by_entry(rows)
    assert {e: row.score for e, row in rows_by_entry.items()} == pytest.approx(scores)
    assert {e: row.points for e, row in rows_by_entry.items()} == pytest.approx(points)
    assert "".join(row.entry for row in rows) == order
    assert all(row.played == 2 and row.byes == 1 for row in rows)
    assert all(row.deals_won == 0 for row in rows)


def test_bye_policy_may_be_given_as_its_stored_string():
    as_string = standings(
        "abc", ROTATING_BYES, BYES, bye_policy="maximum", seed=1, ranking="average"
    )
    assert as_string == standings(
        "abc", ROTATING_BYES, BYES, bye_policy=ByePolicy.MAXIMUM, seed=1, ranking="average"
    )


def test_maximum_policy_table_shares_and_head_to_head():
    rows = by_entry(
        standings(
            "abc", ROTATING_BYES, BYES, bye_policy=ByePolicy.MAXIMUM, seed=1, ranking="average"
        )
    )
    assert rows["a"].tiebreaks["table_share"] == pytest.approx(7 / 9)  # 1, 1/3, best of round 3
    assert rows["b"].tiebreaks["table_share"] == pytest.approx(5 / 9)  # 0, best of round 2 (2/3), 1
    assert rows["c"].tiebreaks["table_share"] == pytest.approx(5 / 9)  # best of round 1, 2/3, 0
    assert rows["b"].tiebreaks["head_to_head"] == 1
    assert rows["c"].tiebreaks["head_to_head"] == 0
    assert rows["a"].tiebreaks["head_to_head"] is None
    assert rows["b"].round_scores == {1: 0, 2: 1, 3: 1}
    assert rows["b"].round_points == {1: 0, 2: 10, 3: 10}


# A round robin of heads-up tables: a and b win two each, everything else level between them.
ROUND_ROBIN = [
    TableResult(1, {"a": 10, "b": 0}),
    TableResult(1, {"c": 0, "d": 10}),
    TableResult(2, {"a": 0, "c": 10}),
    TableResult(2, {"b": 10, "d": 0}),
    TableResult(3, {"a": 10, "d": 0}),
    TableResult(3, {"b": 10, "c": 0}),
]


@pytest.mark.parametrize("seed", range(6))
def test_head_to_head_separates_entries_who_all_met(seed):
    rows = standings("abcd", ROUND_ROBIN, bye_policy=ByePolicy.ZERO, seed=seed, ranking="average")
    rows_by_entry = by_entry(rows)
    assert rows_by_entry["a"].score == rows_by_entry["b"].score == pytest.approx(2 / 3)
    assert (
        rows_by_entry["a"].tiebreaks["table_share"] == rows_by_entry["b"].tiebreaks["table_share"]
    )
    assert rows_by_entry["a"].tiebreaks["opponents_score"] == pytest.approx(4 / 9)
    assert rows_by_entry["b"].tiebreaks["opponents_score"] == pytest.approx(4 / 9)
    assert rows_by_entry["a"].tiebreaks["head_to_head"] == 1
    assert rows_by_entry["b"].tiebreaks["head_to_head"] == 0
    # d beat c in round 1: the same decides the bottom pair, whatever the lots.
    assert [row.entry for row in rows] == ["a", "b", "d", "c"]


def test_lots_separate_entries_who_did_not_meet_and_are_reproducible():
    tables = [TableResult(1, {"a": 10, "b": 0}), TableResult(1, {"c": 10, "d": 0})]
    orders = set()
    for seed in range(20):
        rows = standings("abcd", tables, bye_policy=ByePolicy.ZERO, seed=seed, ranking="average")
        assert rows == standings(
            "abcd", tables, bye_policy=ByePolicy.ZERO, seed=seed, ranking="average"
        )
        assert rows[0].tiebreaks["head_to_head"] is None
        first_lot, second_lot = rows[0].tiebreaks["lot"], rows[1].tiebreaks["lot"]
        assert first_lot is not None
        assert second_lot is not None
        assert first_lot > second_lot
        orders.add((rows[0].entry, rows[1].entry))
    assert orders == {("a", "c"), ("c", "a")}


def test_a_lot_depends_only_on_seed_and_entry():
    assert lot("a", 3) == lot("a", 3)
    assert lot("a", 3) != lot("a", 4)
    assert lot(1, 3) != lot("1", 3)


def test_entries_without_results_rank_last_with_zeros():
    rows = standings(
        ["x", "y", "z"], [TableResult(1, {"x": 3, "y": 5})], bye_policy=ByePolicy.ZERO, seed=0
    )
    assert rows[-1].entry == "z"
    assert rows[-1].played == 0
    assert rows[-1].score == rows[-1].points == 0
    assert rows[-1].tiebreaks["opponents_score"] == 0


def test_a_table_needs_two_entries():
    with pytest.raises(ValueError, match="fewer than two"):
        TableResult(1, {"a": 3})


def test_an_entry_cannot_play_twice_in_a_round():
    tables = [TableResult(1, {"a": 1, "b": 0}), TableResult(1, {"a": 2, "c": 0})]
    with pytest.raises(ValueError, match="placed twice in round 1"):
        standings("abc", tables, bye_policy=ByePolicy.ZERO, seed=0, ranking="average")
    with pytest.raises(ValueError, match="placed twice in round 1"):
        standings("abc", tables[:1], [Bye(1, "a")], bye_policy=ByePolicy.ZERO, seed=0)


@st.composite
def rounds_of_results(draw):
    """Up to 12 entries over up to 4 rounds, split into tables of 2 to 5 with small point totals."""
    entries = list(range(draw(st.integers(2, 12))))
    tables = []
    for round_number in range(1, draw(st.integers(1, 4)) + 1):
        shuffled = draw(st.permutations(entries))
        start = 0
        while len(shuffled) - start >= 2:
            size = draw(st.integers(2, min(5, len(shuffled) - start)))
            seated = shuffled[start : start + size]
            tables.append(TableResult(round_number, {e: draw(st.integers(0, 3)) for e in seated}))
            start += size
    return entries, tables


@settings(max_examples=80, deadline=None)
@given(case=rounds_of_results(), policy=st.sampled_from(ByePolicy), seed=st.integers(0, 99))
def test_standings_rank_everyone_once_in_score_order(case, policy, seed):
    entries, tables = case
    for table in tables:  # n entries share n(n−1)/2 comparisons: the shares add up to n/2
        assert sum(table_scores(table.points).values()) == pytest.approx(len(table.points) / 2)
    rows = standings(entries, tables, bye_policy=policy, seed=seed, ranking="average")
    assert sorted(row.entry for row in rows) == entries
    assert [row.rank for row in rows] == list(range(1, len(entries) + 1))
    assert all(0 <= row.score <= 1 for row in rows)
    assert [row.score for row in rows] == sorted((row.score for row in rows), reverse=True)
    assert rows == standings(
        list(reversed(entries)), tables, bye_policy=policy, seed=seed, ranking="average"
    )


# --- fair rankings (club nights, second edition) --------------------------------------------------


def test_total_ranking_adds_the_round_scores_so_a_late_entrant_ranks_below():
    """A late entrant on one round does not rank with those who won twice."""
    tables = [
        TableResult(1, {"a": 10, "b": 0}),
        TableResult(2, {"a": 10, "c": 0}),
        TableResult(2, {"late": 10, "b": 0}),
    ]
    rows = standings(["a", "b", "c", "late"], tables, bye_policy=ByePolicy.ZERO, seed=1)
    assert [(row.entry, row.score) for row in rows[:2]] == [("a", 2.0), ("late", 1.0)]
    averaged = standings(
        ["a", "b", "c", "late"], tables, bye_policy=ByePolicy.ZERO, seed=1, ranking="average"
    )
    assert {row.entry: row.score for row in averaged}["late"] == 1.0


@pytest.mark.parametrize("policy", list(ByePolicy))
@pytest.mark.parametrize("ranking", ["total", "average"])
def test_a_bye_never_ranks_fewer_games_above_more_on_equal_results(policy, ranking):
    """One game won and an average (or maximum) bye equals two games won: the two games rank first."""
    tables = [
        TableResult(1, {"bye_taker": 10, "x": 0}),
        TableResult(1, {"player": 10, "y": 0}),
        TableResult(2, {"player": 10, "x": 0}),
    ]
    byes = [Bye(2, "bye_taker")]
    for seed in range(20):
        rows = standings(
            ["bye_taker", "player", "x", "y"],
            tables,
            byes,
            bye_policy=policy,
            seed=seed,
            ranking=ranking,
        )
        order = [row.entry for row in rows]
        assert order.index("player") < order.index("bye_taker")


def test_french_conceded_is_the_first_tiebreak():
    """Two losers of one deal score alike; the one left holding 5 ranks above the one holding 35."""
    tables = [
        TableResult(
            1, {"w": 40, "five": 0, "thirty_five": 0}, conceded={"five": 5, "thirty_five": 35}
        )
    ]
    for seed in range(20):
        rows = standings(
            ["w", "five", "thirty_five"],
            tables,
            bye_policy=ByePolicy.ZERO,
            seed=seed,
            with_conceded=True,
        )
        assert [row.entry for row in rows] == ["w", "five", "thirty_five"]
        assert list(rows[1].tiebreaks) == list(tiebreak_order("french"))
    assert tiebreak_order("placement")[0] == "table_share"
