"""Seating a ladder's round and matching quick play's waiting players: pure functions of plain
values (no database, no clock, no randomness), so that every rule is tested on its own.

**A ladder's round** (:func:`seat_round`) seats every player it is given at full tables of
``size`` seats: players of close rating together, server bots ("gatekeepers") filling the seats
that players cannot, and — where it costs little in closeness — no two players together who met
within the last hour. The players are sorted by rating and cut into as few tables as hold them,
their sizes differing by one at most (so the gatekeepers' seats are spread, one or none per table
but for the last few); then neighbouring tables swap players while that lowers the round's cost:
each table's spread of ratings (best less worst) plus :data:`REPEAT_COST` for each pair that met
recently. The swaps only ever lower the cost, so the round is never further apart in rating than
:data:`REPEAT_COST` per repeat avoided.
"""

from __future__ import annotations

from collections.abc import Collection, Hashable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations, pairwise
from typing import Any, Generic, TypeVar

Player = TypeVar("Player", bound=Hashable)

# The server bots that fill a ladder's tables and quick play's empty seats, per game: the
# strongest two of each ("gatekeepers"); quick play fills with the first.
GATEKEEPERS = {"shedding": ("heuristic", "montecarlo"), "abbott": ("heuristic", "search")}

# What one repeated pairing costs, in rating points (openskill's μ: a new player has 25 ± 8.3).
# A repeat is avoided if it costs the table less than this much spread of rating.
REPEAT_COST = 4.0
# Passes of swaps over the round at most (each pass tries every pair of neighbouring tables).
SWAP_PASSES = 8


@dataclass(frozen=True)
class Gatekeeper:
    """A server bot that fills seats: its strategy and its rating (μ)."""

    strategy: str
    rating: float


@dataclass(frozen=True)
class Table(Generic[Player]):
    """One table of a round: its players in seat order, then the gatekeepers' strategies."""

    players: tuple[Player, ...]
    gatekeepers: tuple[str, ...]


def seat_round(
    players: Sequence[Player],
    *,
    size: int,
    rating: Mapping[Player, float],
    met: Collection[frozenset[Player]] = (),
    gatekeepers: Sequence[Gatekeeper],
) -> list[Table[Player]]:
    """Seat every player once, at tables of exactly ``size`` seats, best-rated tables first.

    ``met`` holds the pairs that played together recently; ``gatekeepers`` the server bots that
    fill the seats (a table takes the ones closest to its players' mean rating, the closest
    first, the same strategy again when it needs more seats than there are strategies).
    """
    if size < 2:
        raise ValueError(f"a table has two seats at least, not {size}")
    if not players:
        return []
    if len(set(players)) != len(players):
        raise ValueError("a player is given twice")
    if not gatekeepers and len(players) % size:
        raise ValueError(f"{len(players)} players cannot fill tables of {size} without bots")
    order = sorted(players, key=lambda p: (-rating[p], str(p)))
    groups = tables_in_order(order, size)
    groups = _swapped(groups, rating, frozenset(met))
    return [
        Table(tuple(group), _fill(group, size - len(group), rating, gatekeepers))
        for group in groups
    ]


def round_cost(
    tables: Sequence[Sequence[Player]],
    rating: Mapping[Player, float],
    met: Collection[frozenset[Player]],
) -> float:
    """How far a seating is from the ideal: each table's spread of rating plus
    :data:`REPEAT_COST` for each pair seated together that met recently."""
    recent = frozenset(met)
    return sum(_table_cost(table, rating, recent) for table in tables)


def tables_in_order(order: Sequence[Player], size: int) -> list[list[Player]]:
    """As few tables as hold everyone, in order, their sizes differing by one at most (the
    larger first)."""
    count = -(-len(order) // size)
    if not count:
        return []
    small, larger = divmod(len(order), count)
    groups, start = [], 0
    for index in range(count):
        length = small + (1 if index < larger else 0)
        groups.append(list(order[start : start + length]))
        start += length
    return groups


def _table_cost(
    table: Sequence[Player], rating: Mapping[Player, float], met: frozenset[frozenset[Player]]
) -> float:
    if not table:
        return 0.0
    ratings = [rating[p] for p in table]
    repeats = sum(frozenset(pair) in met for pair in combinations(table, 2))
    return max(ratings) - min(ratings) + REPEAT_COST * repeats


def _swapped(
    groups: list[list[Player]], rating: Mapping[Player, float], met: frozenset[frozenset[Player]]
) -> list[list[Player]]:
    """Swap players between neighbouring tables while a swap lowers their cost (only when there
    are repeats to avoid: without them the cut in rating order is already the best)."""
    if not met:
        return groups
    for _ in range(SWAP_PASSES):
        improved = False
        for left, right in pairwise(groups):
            improved |= _best_swap(left, right, rating, met)
        if not improved:
            break
    return groups


def _best_swap(
    left: list[Player],
    right: list[Player],
    rating: Mapping[Player, float],
    met: frozenset[frozenset[Player]],
) -> bool:
    """Make the one swap between two tables that lowers their cost the most, if any does."""
    before = _table_cost(left, rating, met) + _table_cost(right, rating, met)
    best: tuple[float, int, int] | None = None
    for i, a in enumerate(left):
        for j, b in enumerate(right):
            new_left = [*left[:i], b, *left[i + 1 :]]
            new_right = [*right[:j], a, *right[j + 1 :]]
            after = _table_cost(new_left, rating, met) + _table_cost(new_right, rating, met)
            if after < before - 1e-9 and (best is None or after < best[0]):
                best = (after, i, j)
    if best is None:
        return False
    _, i, j = best
    left[i], right[j] = right[j], left[i]
    return True


def _fill(
    group: Sequence[Player],
    seats: int,
    rating: Mapping[Player, float],
    gatekeepers: Sequence[Gatekeeper],
) -> tuple[str, ...]:
    if seats == 0:
        return ()
    mean = sum(rating[p] for p in group) / len(group)
    closest = sorted(gatekeepers, key=lambda g: (abs(g.rating - mean), g.strategy))
    return tuple(closest[index % len(closest)].strategy for index in range(seats))


@dataclass(frozen=True)
class Waiting(Generic[Player]):
    """A quick-play entry waiting: who, for which game (any hashable key: ruleset, seats,
    rated), and whether server bots may fill its table once it has waited long enough."""

    player: Player
    wants: Hashable
    bots_ok: bool
    overdue: bool  # it has waited its ``wait_seconds``


@dataclass(frozen=True)
class PoolMatch(Generic[Player]):
    players: tuple[Player, ...]
    bots: int  # server-bot seats to fill


def match_pool(
    waiting: Sequence[Waiting[Player]], *, seats: Mapping[Any, int]
) -> list[PoolMatch[Player]]:
    """The matches quick play starts now, oldest entries first (``waiting`` in the order they
    came): every full table of players who want the same game, then, for each game, the
    entries left over that are overdue and accept bots, each with the other leftovers of that
    game who accept bots too, the empty seats to server bots. A player appears once at most."""
    matches: list[PoolMatch[Player]] = []
    by_game: dict[Hashable, list[Waiting[Player]]] = {}
    for entry in waiting:
        by_game.setdefault(entry.wants, []).append(entry)
    for wants, entries in by_game.items():
        size = seats[wants]
        full = len(entries) // size * size
        matches += [
            PoolMatch(tuple(e.player for e in entries[start : start + size]), 0)
            for start in range(0, full, size)
        ]
        left = [e for e in entries[full:] if e.bots_ok]
        if any(e.overdue for e in left):
            matches.append(PoolMatch(tuple(e.player for e in left), size - len(left)))
    return matches
