"""Matchmaking's pure core (switchgame.matchmaking): a ladder's round seats every online bot once
at full tables by closeness of rating, avoiding recent opponents where that costs little, server
bots filling the rest; quick play starts full tables first, then overdue entries with bots."""

from __future__ import annotations

from itertools import combinations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from switchgame.matchmaking import (
    REPEAT_COST,
    Gatekeeper,
    Waiting,
    match_pool,
    round_cost,
    seat_round,
    tables_in_order,
)

GATES = [Gatekeeper("heuristic", 24.0), Gatekeeper("montecarlo", 30.0)]


@st.composite
def rounds(draw: st.DrawFn) -> tuple[list[int], int, dict[int, float], set[frozenset[int]]]:
    players = draw(st.lists(st.integers(0, 10_000), unique=True, max_size=40))
    size = draw(st.integers(2, 6))
    rating = {p: draw(st.floats(0, 50, allow_nan=False)) for p in players}
    pairs = list(combinations(players, 2))
    met = (
        {frozenset(p) for p in draw(st.lists(st.sampled_from(pairs), max_size=30))}
        if pairs
        else set()
    )
    return players, size, rating, met


@given(rounds())
def test_every_player_is_seated_once_at_a_full_table(round_: tuple) -> None:
    players, size, rating, met = round_
    tables = seat_round(players, size=size, rating=rating, met=met, gatekeepers=GATES)

    seated = [p for t in tables for p in t.players]
    assert sorted(seated) == sorted(players)
    assert all(len(t.players) + len(t.gatekeepers) == size for t in tables)
    assert all(t.players for t in tables), "no table of bots alone"
    assert len(tables) == -(-len(players) // size)
    # bots fill only what players cannot: fewer than one table's seats in all, at most one a
    # table more than another
    bots = [len(t.gatekeepers) for t in tables]
    assert sum(bots) < size or not players
    assert not bots or max(bots) - min(bots) <= 1


@given(rounds())
def test_avoiding_repeats_never_costs_more_than_the_cut_in_rating_order(round_: tuple) -> None:
    players, size, rating, met = round_
    tables = seat_round(players, size=size, rating=rating, met=met, gatekeepers=GATES)

    in_order = tables_in_order(sorted(players, key=lambda p: (-rating[p], str(p))), size)
    chosen = [t.players for t in tables]
    assert round_cost(chosen, rating, met) <= round_cost(in_order, rating, met) + 1e-9


def test_without_repeats_players_of_close_rating_sit_together() -> None:
    rating = {"a": 40.0, "b": 10.0, "c": 39.0, "d": 11.0}

    tables = seat_round(list(rating), size=2, rating=rating, gatekeepers=GATES)

    assert [t.players for t in tables] == [("a", "c"), ("d", "b")]


def test_a_pair_that_met_within_the_hour_is_parted_when_that_costs_little() -> None:
    rating = {"a": 30.0, "b": 29.0, "c": 28.0, "d": 27.0}

    tables = seat_round(
        list(rating), size=2, rating=rating, met={frozenset("ab")}, gatekeepers=GATES
    )

    assert all({"a", "b"} - set(t.players) for t in tables)


def test_a_pair_that_met_stays_together_when_parting_them_costs_too_much() -> None:
    rating = {"a": 40.0, "b": 39.0, "c": 10.0, "d": 9.0}

    tables = seat_round(
        list(rating), size=2, rating=rating, met={frozenset("ab")}, gatekeepers=GATES
    )

    assert [t.players for t in tables] == [("a", "b"), ("c", "d")]
    assert REPEAT_COST < 40 - 10  # why: the spread parting them would cost


def test_a_lone_bot_plays_the_gatekeepers_closest_to_its_rating() -> None:
    (table,) = seat_round(["solo"], size=4, rating={"solo": 29.0}, gatekeepers=GATES)

    assert table.players == ("solo",)
    assert table.gatekeepers == ("montecarlo", "heuristic", "montecarlo")


def test_an_odd_player_out_gets_a_gatekeeper_rather_than_no_game() -> None:
    rating = {"a": 30.0, "b": 25.0, "c": 20.0}

    tables = seat_round(list(rating), size=2, rating=rating, gatekeepers=GATES)

    assert [(t.players, t.gatekeepers) for t in tables] == [
        (("a", "b"), ()),
        (("c",), ("heuristic",)),
    ]


def test_nobody_online_seats_nothing_and_bad_sizes_are_refused() -> None:
    assert seat_round([], size=4, rating={}, gatekeepers=GATES) == []
    with pytest.raises(ValueError, match="two seats at least"):
        seat_round(["a"], size=1, rating={"a": 1.0}, gatekeepers=GATES)
    with pytest.raises(ValueError, match="without bots"):
        seat_round(["a"], size=2, rating={"a": 1.0}, gatekeepers=[])


def waiting(player: str, wants: str = "switch/2", bots_ok: bool = False, overdue: bool = False):
    return Waiting(player, wants, bots_ok, overdue)


def test_quick_play_starts_each_full_table_of_players_wanting_the_same_game() -> None:
    entries = [waiting("a"), waiting("b", "switch/3"), waiting("c"), waiting("d")]

    matches = match_pool(entries, seats={"switch/2": 2, "switch/3": 3})

    assert [(m.players, m.bots) for m in matches] == [(("a", "c"), 0)]


def test_an_overdue_entry_that_accepts_bots_plays_them_with_the_others_who_do() -> None:
    entries = [
        waiting("a", "switch/4", bots_ok=True, overdue=True),
        waiting("b", "switch/4"),
        waiting("c", "switch/4", bots_ok=True),
    ]

    matches = match_pool(entries, seats={"switch/4": 4})

    assert [(m.players, m.bots) for m in matches] == [(("a", "c"), 2)]


def test_entries_not_overdue_or_refusing_bots_wait() -> None:
    entries = [waiting("a", bots_ok=True), waiting("b", "switch/3", overdue=True)]

    assert match_pool(entries, seats={"switch/2": 2, "switch/3": 3}) == []


@given(st.lists(st.tuples(st.sampled_from(["x", "y"]), st.booleans(), st.booleans()), max_size=30))
def test_quick_play_seats_nobody_twice_and_fills_every_table(wanted: list) -> None:
    entries = [
        waiting(str(i), w, bots_ok, overdue) for i, (w, bots_ok, overdue) in enumerate(wanted)
    ]
    seats = {"x": 2, "y": 4}

    matches = match_pool(entries, seats=seats)

    players = [p for m in matches for p in m.players]
    assert len(players) == len(set(players))
    by_player = {e.player: e for e in entries}
    for m in matches:
        (game,) = {by_player[p].wants for p in m.players}
        assert len(m.players) + m.bots == seats[game]
        assert m.bots == 0 or all(by_player[p].bots_ok for p in m.players)
        assert m.bots == 0 or any(by_player[p].overdue for p in m.players)
