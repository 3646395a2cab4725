"""Seating: table sizes, byes, the three modes, seat order, repeat reports and edited plans."""

import time
from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from switchgame.tournament.meetings import (
    RepeatVerdict,
    RoundSeating,
    SeatingHistory,
    meeting_cost,
    repeat_lower_bound,
    repeat_report,
)
from switchgame.tournament.seating import (
    Layout,
    SeatingError,
    SeatingMode,
    TableBounds,
    draw_round,
    fill_layout,
    review_round,
    table_layout,
)

FOURS = TableBounds(min_players=4, max_players=4, preferred=4)


def draw(entries, mode, bounds, history=None, seed=0, rounds_left=1):
    return draw_round(
        entries,
        mode=mode,
        bounds=bounds,
        history=history or SeatingHistory(),
        seed=seed,
        rounds_left=rounds_left,
    )


@pytest.mark.parametrize(
    ("entries", "bounds", "expected"),
    [
        (10, TableBounds(2, 7, 4), Layout((4, 3, 3), 0)),
        (9, TableBounds(2, 7, 4), Layout((3, 3, 3), 0)),  # never above 4 when 3s will do
        (5, TableBounds(3, 5, 4), Layout((5,), 0)),  # above 4 only as the numbers require
        (16, TableBounds(2, 7, 4), Layout((4, 4, 4, 4), 0)),
        (6, TableBounds(2, 7, 4), Layout((3, 3), 0)),
        (23, TableBounds(2, 7, 7), Layout((6, 6, 6, 5), 0)),
        (6, FOURS, Layout((4,), 2)),  # Abbott's Switch: exactly four
        (5, TableBounds(2, 2, 2), Layout((2, 2), 1)),  # abbott-2
        (5, TableBounds(3, 4, 4), Layout((4,), 1)),
        (1, TableBounds(2, 7, 4), Layout((), 1)),
        (0, TableBounds(2, 7, 4), Layout((), 0)),
    ],
)
def test_table_layout_examples(entries, bounds, expected):
    assert table_layout(entries, bounds) == expected


def test_bounds_must_allow_a_table():
    with pytest.raises(SeatingError):
        TableBounds(min_players=5, max_players=4, preferred=4)


def test_the_preferred_size_must_be_one_the_ruleset_allows():
    with pytest.raises(SeatingError, match="seat 4 players, not 5"):
        TableBounds(min_players=4, max_players=4, preferred=5)


bounds_strategy = st.builds(
    lambda low, spread, preferred: TableBounds(low, low + spread, low + preferred % (spread + 1)),
    st.integers(2, 5),
    st.integers(0, 3),
    st.integers(0, 3),
)


@settings(max_examples=200, deadline=None)
@given(entries=st.integers(0, 60), bounds=bounds_strategy)
def test_table_layout_is_even_within_bounds_and_byes_are_a_last_resort(entries, bounds):
    layout = table_layout(entries, bounds)
    assert sum(layout.table_sizes) + layout.byes == entries
    assert all(bounds.min_players <= size <= bounds.max_players for size in layout.table_sizes)
    if layout.table_sizes:
        assert max(layout.table_sizes) - min(layout.table_sizes) <= 1
        if max(layout.table_sizes) > bounds.preferred:  # larger only when it must be
            seated = sum(layout.table_sizes)
            assert not any(
                n * bounds.min_players <= seated <= n * bounds.preferred
                for n in range(1, seated + 1)
            )
    # Any count from the minimum up can be split when max ≥ 2·min − 1, so no bye is needed.
    if entries >= bounds.min_players and bounds.max_players >= 2 * bounds.min_players - 1:
        assert layout.byes == 0
    # No larger number of entries could be seated: the byes are as few as possible.
    for seated in range(sum(layout.table_sizes) + 1, entries + 1):
        assert not any(
            count * bounds.min_players <= seated <= count * bounds.max_players
            for count in range(1, seated + 1)
        )


@st.composite
def tournaments_so_far(draw_from):
    """A field, a few random past rounds, and the entries still active (some withdrew)."""
    bounds = draw_from(bounds_strategy)
    field = list(range(draw_from(st.integers(0, 20))))
    past = [
        draw(field, SeatingMode.RANDOM, bounds, seed=seed).rounds[0]
        for seed in range(draw_from(st.integers(0, 3)))
    ]
    withdrawn = draw_from(st.integers(0, min(3, len(field))))
    active = field[: len(field) - withdrawn]
    return active, bounds, SeatingHistory.from_rounds(past), draw_from(st.integers(0, 2**32))


def assert_well_seated(seating, active, bounds):
    placed = [entry for table in seating.tables for entry in table] + list(seating.byes)
    assert sorted(placed) == sorted(active)
    assert all(bounds.min_players <= len(table) <= bounds.max_players for table in seating.tables)
    assert len(seating.byes) == table_layout(len(active), bounds).byes


@settings(max_examples=60, deadline=None)
@given(case=tournaments_so_far(), mode=st.sampled_from(SeatingMode), rounds_left=st.integers(1, 3))
def test_every_active_entry_is_seated_once_per_round_within_bounds(case, mode, rounds_left):
    active, bounds, history, seed = case
    result = draw(active, mode, bounds, history, seed, rounds_left)
    expected_rounds = rounds_left if mode is SeatingMode.BALANCED else 1
    assert len(result.rounds) == expected_rounds
    for seating in result.rounds:
        assert_well_seated(seating, active, bounds)
    assert result.report.lower_bound <= result.report.repeats
    assert result.report == repeat_report(result.rounds, history)


@settings(max_examples=40, deadline=None)
@given(case=tournaments_so_far(), mode=st.sampled_from(SeatingMode))
def test_the_seed_reproduces_the_draw(case, mode):
    active, bounds, history, seed = case
    assert draw(active, mode, bounds, history, seed, 2) == draw(
        active, mode, bounds, history, seed, 2
    )


@settings(max_examples=60, deadline=None)
@given(case=tournaments_so_far())
def test_swiss_repeats_no_more_than_a_random_seating(case):
    active, bounds, history, seed = case
    swiss = draw(active, SeatingMode.SWISS, bounds, history, seed).report
    random_draw = draw(active, SeatingMode.RANDOM, bounds, history, seed).report
    assert swiss.cost <= random_draw.cost
    # The search minimises the cost, which prefers two second meetings (30 + 30) to one third
    # meeting (80); so the bare count of repeats is comparable only while no pair has met twice,
    # when every repeat costs exactly 30.
    if max(history.meetings.values(), default=0) <= 1:
        assert swiss.repeats <= random_draw.repeats


def test_swiss_without_history_seats_by_standing():
    standing = ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth"]
    seating = draw(standing, SeatingMode.SWISS, FOURS).rounds[0]
    assert [set(table) for table in seating.tables] == [set(standing[:4]), set(standing[4:])]


def test_swiss_moves_entries_only_as_far_as_the_repeats_require():
    standing = list(range(12))
    tables_of_three = TableBounds(3, 3, 3)
    history = SeatingHistory.from_rounds([RoundSeating(tables=((0, 1, 2), (3, 4, 5)))])
    seating = draw(standing, SeatingMode.SWISS, tables_of_three, history).rounds[0]
    assert repeat_report([seating], history).repeats == 0
    # The six who met need three tables; the third table's entries move up to fill the gaps,
    # and the last table stays where its standing puts it.
    for table in seating.tables[:3]:
        assert len(set(table) & {0, 1, 2}) == len(set(table) & {3, 4, 5}) == 1
    assert {e for table in seating.tables[:3] for e in table} == set(range(9))
    assert set(seating.tables[3]) == {9, 10, 11}


def test_swiss_bye_goes_to_the_lowest_standing_entry_without_one():
    standing = list("abcdef")
    history = SeatingHistory(byes=Counter({"f": 1}))
    seating = draw(standing, SeatingMode.SWISS, FOURS, history).rounds[0]
    assert set(seating.byes) == {"d", "e"}


@pytest.mark.parametrize("mode", [SeatingMode.RANDOM, SeatingMode.SWISS])
@pytest.mark.parametrize("entries", [10, 7])
def test_byes_rotate_before_anyone_gets_another(mode, entries):
    field = list(range(entries))  # Abbott tables of four: 2 byes a round for 10, 3 for 7
    past: list[RoundSeating] = []
    for seed in range(6):
        history = SeatingHistory.from_rounds(past)
        past.append(draw(field, mode, FOURS, history, seed).rounds[0])
        byes = Counter(dict.fromkeys(field, 0))
        byes.update(entry for seating in past for entry in seating.byes)
        assert max(byes.values()) - min(byes.values()) <= 1


def test_balanced_plan_rotates_byes_across_its_rounds():
    plan = draw(list(range(10)), SeatingMode.BALANCED, FOURS, rounds_left=5).rounds
    assert sorted(entry for seating in plan for entry in seating.byes) == list(range(10))


def test_sixteen_players_tables_of_four_five_rounds_without_a_repeat():
    for seed in range(5):
        started = time.perf_counter()
        result = draw(list(range(16)), SeatingMode.BALANCED, FOURS, seed=seed, rounds_left=5)
        assert time.perf_counter() - started < 2.0
        assert result.report.repeats == 0
        pairs = Counter(
            frozenset((a, b))
            for seating in result.rounds
            for table in seating.tables
            for a in table
            for b in table
            if a != b
        )
        assert len(pairs) == 16 * 15 // 2  # every pair exactly once


def test_replanning_after_a_round_keeps_the_schedule_free_of_repeats():
    first = draw(list(range(16)), SeatingMode.BALANCED, FOURS, seed=3, rounds_left=5).rounds[0]
    history = SeatingHistory.from_rounds([first])
    rest = draw(list(range(16)), SeatingMode.BALANCED, FOURS, history, seed=4, rounds_left=4)
    assert rest.report.repeats == 0


def test_sixth_round_meets_the_pigeonhole_bound():
    result = draw(list(range(16)), SeatingMode.BALANCED, FOURS, seed=1, rounds_left=6)
    # 6 rounds × 3 opponents = 18 meetings each against 15 others: 3 repeats each, 24 in all.
    assert result.report.lower_bound == 24
    assert result.report.repeats == 24


def test_a_large_field_replanned_each_round_stays_at_the_lower_bound():
    """98 entrants (tables of four and three), three withdrawing after the third round: every
    round's plan of the rounds left has no more repeats than its layout forces (none here)."""
    bounds = TableBounds(2, 7, 4)
    played: list[RoundSeating] = []
    for number in range(8):
        active = list(range(98 if number < 3 else 95))
        result = draw(
            active,
            SeatingMode.BALANCED,
            bounds,
            SeatingHistory.from_rounds(played),
            seed=number,
            rounds_left=8 - number,
        )
        assert result.report.repeats == result.report.lower_bound == 0
        played.append(result.rounds[0])


def test_lower_bound_counts_pairs_already_met():
    history = SeatingHistory.from_rounds([RoundSeating(tables=((0, 1, 2, 3),))])
    again = [RoundSeating(tables=((0, 1, 2, 3),))]
    assert repeat_lower_bound(again, history) == 6
    assert repeat_report(again, history).repeats == 6
    assert repeat_report(again, history).cost == 6 * 30


def test_twelve_at_tables_of_four_repeat_at_least_three_pairs_in_round_two():
    """The issue's evening: three of each round-1 table's four must meet again at three tables,
    so round 2 repeats at least 3 pairs — the draw's 3 is the fewest, and the desk says so."""
    entries = list(range(12))
    tables_of_four = TableBounds(2, 7, 4)
    for mode in SeatingMode:
        first = draw(entries, mode, tables_of_four, seed=1).rounds[0]
        history = SeatingHistory.from_rounds([first])
        second = draw(entries, mode, tables_of_four, history, seed=2).rounds[0]
        report = repeat_report([second], history)

        assert repeat_lower_bound([second], history) == 3
        assert report.lower_bound == 3
        if mode is not SeatingMode.RANDOM:
            assert report.repeats == 3
            assert report.verdict is RepeatVerdict.FEWEST


def seatings(entries, sizes):
    """Every way to seat ``entries`` at tables of ``sizes`` (each table's members as a set)."""
    if not sizes:
        yield []
        return
    first, rest = entries[0], entries[1:]
    for size in set(sizes):
        others = list(sizes)
        others.remove(size)
        for mates in combinations(rest, size - 1):
            left = [entry for entry in rest if entry not in mates]
            for tables in seatings(left, others):
                yield [(first, *mates), *tables]


def fewest_by_exhausting(seating, history):
    """The fewest repeats and the least cost of any seating of the same entries and tables."""
    entries = [entry for table in seating.tables for entry in table]
    sizes = [len(table) for table in seating.tables]
    fewest = least = None
    for tables in seatings(entries, sizes):
        met = [history.meetings[frozenset(pair)] for t in tables for pair in combinations(t, 2)]
        repeats, cost = sum(m > 0 for m in met), sum(map(meeting_cost, met))
        fewest = repeats if fewest is None else min(fewest, repeats)
        least = cost if least is None else min(least, cost)
    return fewest, least


@settings(max_examples=60, deadline=None)
@given(
    size=st.integers(2, 9),
    preferred=st.integers(2, 4),
    rounds=st.integers(1, 4),
    mode=st.sampled_from(list(SeatingMode)),
    seed=st.integers(0, 2**32),
)
def test_the_fewest_repeats_are_the_true_minimum(size, preferred, rounds, mode, seed):
    """docs/tournaments.md, "Repeats": on fields small enough to try every seating, the report's
    fewest repeats and least cost are exactly the minima of every seating of the same entries at
    the same tables; the lower bound never exceeds them nor what the draw achieves."""
    entries = list(range(size))
    bounds = TableBounds(2, 7, preferred)
    played: list[RoundSeating] = []
    for number in range(rounds):
        history = SeatingHistory.from_rounds(played)
        played.append(draw(entries, mode, bounds, history, seed + number).rounds[0])
    history = SeatingHistory.from_rounds(played[:-1])
    seating = played[-1]
    report = repeat_report([seating], history)

    assert report.proven
    assert (report.lower_bound, report.least_cost) == fewest_by_exhausting(seating, history)
    assert repeat_lower_bound([seating], history) <= report.lower_bound <= report.repeats
    assert report.least_cost <= report.cost


def test_fewer_repeats_only_by_a_third_meeting_is_not_a_worse_seating():
    """Six entries at two tables of three after two rounds: three repeats are possible only by
    seating a pair together a third time; the draw spreads four second meetings instead, which
    the report tells apart from a draw that missed a better seating."""
    history = SeatingHistory.from_rounds(
        [RoundSeating(tables=((0, 1, 2), (3, 4, 5))), RoundSeating(tables=((0, 1, 3), (2, 4, 5)))]
    )
    seating = draw(list(range(6)), SeatingMode.BALANCED, TableBounds(3, 3, 3), history).rounds[0]
    report = repeat_report([seating], history)

    assert (report.repeats, report.lower_bound) == (4, 3)
    assert report.cost == report.least_cost == 4 * meeting_cost(1)
    assert report.verdict is RepeatVerdict.SPREAD
    again = RoundSeating(tables=((0, 1, 2), (3, 4, 5)))
    assert repeat_report([again], history).verdict is RepeatVerdict.IMPROVABLE


def test_seat_zero_goes_to_whoever_dealt_least_at_the_table():
    field = list(range(12))
    bounds = TableBounds(3, 4, 4)
    past: list[RoundSeating] = []
    for seed in range(6):
        history = SeatingHistory.from_rounds(past)
        seating = draw(field, SeatingMode.RANDOM, bounds, history, seed).rounds[0]
        for table in seating.tables:
            dealt = {entry: history.seats[entry, 0] for entry in table}
            assert dealt[table[0]] == min(dealt.values())
        past.append(seating)
    dealt = Counter(table[0] for seating in past for table in seating.tables)
    assert max(dealt.values()) - min(dealt[e] for e in field) <= 1


def test_review_accepts_a_valid_edit_and_reports_its_repeats():
    history = SeatingHistory.from_rounds([RoundSeating(tables=((1, 2, 3, 4), (5, 6, 7, 8)))])
    edited = RoundSeating(tables=((1, 2, 5, 6), (3, 4, 7, 8)))
    report = review_round(edited, entries=range(1, 9), bounds=FOURS, history=history)
    assert report.repeats == 4


@pytest.mark.parametrize(
    ("edited", "message"),
    [
        (RoundSeating(tables=((1, 2, 3, 4), (5, 6, 7, 1))), "more than once"),
        (RoundSeating(tables=((1, 2, 3, 4), (5, 6, 7)), byes=(8,)), "tables of 4 to 4"),
        (RoundSeating(tables=((1, 2, 3, 4),), byes=(5, 6, 7)), "not seated: 8"),
        (RoundSeating(tables=((1, 2, 3, 4), (5, 6, 7, 9)), byes=(8,)), "not active entries: 9"),
    ],
)
def test_review_rejects_broken_edits(edited, message):
    with pytest.raises(SeatingError, match=message):
        review_round(edited, entries=range(1, 9), bounds=FOURS, history=SeatingHistory())


def test_mode_may_be_given_as_its_stored_string():
    entries = list(range(9))
    bounds = TableBounds(2, 7, 4)
    assert draw(entries, "swiss", bounds, seed=2) == draw(
        entries, SeatingMode.SWISS, bounds, seed=2
    )


def test_string_ids_draw_reproducibly():
    names = ["ann", "bob", "cat", "dan", "eve", "fay", "gus"]
    bounds = TableBounds(2, 7, 4)
    first = draw(names, SeatingMode.BALANCED, bounds, seed=9, rounds_left=3)
    assert first == draw(names, SeatingMode.BALANCED, bounds, seed=9, rounds_left=3)
    for seating in first.rounds:
        assert_well_seated(seating, names, bounds)


# --- bots in online tournaments ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("entries", "bounds", "expected"),
    [
        (14, FOURS, Layout((4, 4, 3, 3), 0)),
        (5, TableBounds(2, 10, 4), Layout((3, 2), 0)),
        (3, TableBounds(2, 2, 2), Layout((2, 1), 0)),  # the lone player meets a server bot
        (16, TableBounds(2, 10, 4), Layout((4, 4, 4, 4), 0)),
    ],
)
def test_filled_tables_seat_everyone_at_tables_no_larger_than_asked(entries, bounds, expected):
    assert fill_layout(entries, bounds) == expected


@settings(max_examples=60, deadline=None)
@given(
    humans=st.integers(0, 14),
    bots=st.integers(0, 9),
    bounds=bounds_strategy,
    mode=st.sampled_from(list(SeatingMode)),
    seed=st.integers(0, 2**32),
)
def test_no_human_sits_out_while_a_bot_plays(humans, bots, bounds, mode, seed):
    robots = [f"bot{n}" for n in range(bots)]
    entries = [f"h{n}" for n in range(humans)] + robots
    draw = draw_round(
        entries, mode=mode, bounds=bounds, history=SeatingHistory(), seed=seed, bots=robots
    )
    seated = draw.rounds[0]
    robots_playing = [e for table in seated.tables for e in table if e in robots]
    if robots_playing:
        assert all(e in robots for e in seated.byes)
    assert sorted(map(len, seated.tables), reverse=True) == list(
        table_layout(len(entries), bounds).table_sizes
    )


def test_fourteen_people_and_two_bots_play_four_rounds_at_the_lower_bound():
    """The club night of the report: bots seated among the people, round after round re-planned
    with the real history, never more repeats than the unavoidable minimum."""
    bounds = TableBounds(2, 10, 4)
    robots = ["bot1", "bot2"]
    entries = [f"h{n}" for n in range(14)] + robots
    played: list[RoundSeating] = []
    measured = []
    for number in range(4):
        history = SeatingHistory.from_rounds(played)
        draw = draw_round(
            entries,
            mode=SeatingMode.BALANCED,
            bounds=bounds,
            history=history,
            seed=number,
            rounds_left=4 - number,
            bots=robots,
        )
        seated = draw.rounds[0]
        report = repeat_report([seated], history)
        measured.append((report.repeats, report.lower_bound))
        assert [len(table) for table in seated.tables] == [4, 4, 4, 4]
        assert not seated.byes
        played.append(seated)
    assert measured == [(0, 0)] * 4
    bot_tables = [
        [e for e in table if e not in robots] for seating in played for table in seating.tables
    ]
    assert all(len(table) >= 2 for table in bot_tables)  # never two bots with only two people


def test_filled_tables_draw_everyone_with_no_bye():
    draw = draw_round(
        [f"h{n}" for n in range(14)],
        mode=SeatingMode.BALANCED,
        bounds=TableBounds(2, 10, 4),
        history=SeatingHistory(),
        seed=3,
        fill=True,
    )
    assert sorted(map(len, draw.rounds[0].tables)) == [3, 3, 4, 4]
    assert draw.rounds[0].byes == ()


def test_an_edited_table_larger_or_smaller_than_the_numbers_require_is_refused():
    bounds = TableBounds(2, 10, 4)
    entries = range(1, 15)
    with pytest.raises(
        SeatingError, match="tables of 5, 3, 3, 3: 14 seated entries sit at tables of 4, 4, 3, 3"
    ):
        review_round(
            RoundSeating(tables=((1, 2, 3, 4, 5), (6, 7, 8), (9, 10, 11), (12, 13, 14))),
            entries=entries,
            bounds=bounds,
            history=SeatingHistory(),
        )
    with pytest.raises(SeatingError, match="tables of 4, 4, 4, 2"):
        review_round(
            RoundSeating(tables=((1, 2, 3, 4), (5, 6, 7, 8), (9, 10, 11, 12), (13, 14))),
            entries=entries,
            bounds=bounds,
            history=SeatingHistory(),
        )


def test_refusals_name_entries_as_the_caller_names_them():
    with pytest.raises(SeatingError, match="not seated: Chloé"):
        review_round(
            RoundSeating(tables=((1, 2, 3, 4),), byes=(5, 6, 7)),
            entries=range(1, 9),
            bounds=FOURS,
            history=SeatingHistory(),
            name=lambda entry: {8: "Chloé"}.get(entry, str(entry)),
        )


def test_the_organisers_edit_may_not_bench_a_human_while_bots_play():
    edited = RoundSeating(tables=(("a", "b", "bot1", "bot2"),), byes=("c",))
    with pytest.raises(SeatingError, match="byes for c while bots play"):
        review_round(
            edited,
            entries=["a", "b", "c", "bot1", "bot2"],
            bounds=FOURS,
            history=SeatingHistory(),
            bots={"bot1", "bot2"},
        )
