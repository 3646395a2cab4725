"""The least a round's seating can cost, proven: an exact branch-and-bound search.

Pure (standard library only). Given who sits this round, at which table sizes, and a weight for
each pair seated together (1 for a pair that met before, to count repeats; or the repeat cost),
:func:`least_together` finds the smallest total any seating can have, or proves that none is
smaller than the ``upper`` value the caller already holds (the seating the draw found). The desk
uses it so that "the fewest possible" is true, not a bound that may be too low: with 12 entries
at tables of 4, three of each round-1 table must meet again somewhere in round 2.

The search places entries one by one, those with the most weighted pairs first, each at a table
with room; an empty table stands for every empty table of its size. A branch is cut when what it
has placed, plus for each entry still to place the least it adds at any open table given those
placed, reaches the best total known. Entries without weighted pairs add nothing wherever they
sit, so a branch ends when only they are left. After ``budget`` branches the search stops and
says its answer is not proven (large fields late in an event; the caller then has a lower bound).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import TypeVar

Entry = TypeVar("Entry", bound=Hashable)

# Branches explored before giving up: at most about a fifth of a second of CPU (benchmarks/
# fewest_repeats.py, docs/performance.md). Club fields need a few hundred; fields where most pairs
# have met (20 entrants at tables of 4 in round 6) may need more and stay unproven.
BUDGET = 20_000


@dataclass(frozen=True)
class Least:
    """The smallest total found (``upper`` when none is smaller) and whether it is proven."""

    total: int
    proven: bool


class _BudgetSpent(Exception):
    pass


def least_together(
    seated: Sequence[Entry],
    table_sizes: Sequence[int],
    weight: Callable[[Entry, Entry], int],
    *,
    upper: int,
    budget: int = BUDGET,
) -> Least:
    """The smallest sum of ``weight`` over the pairs seated at one table, for ``seated`` entries
    at tables of ``table_sizes`` (which add up to their number); ``upper`` is a total some seating
    reaches."""
    return _Search(seated, table_sizes, weight, upper, budget).run()


class _Search:
    def __init__(
        self,
        seated: Sequence[Entry],
        table_sizes: Sequence[int],
        weight: Callable[[Entry, Entry], int],
        upper: int,
        budget: int,
    ) -> None:
        if sum(table_sizes) != len(seated):
            raise ValueError("the tables must seat exactly the entries given")
        neighbours: list[list[tuple[int, int]]] = [[] for _ in seated]
        for a, first in enumerate(seated):
            for b in range(a + 1, len(seated)):
                pair_weight = weight(first, seated[b])
                if pair_weight:
                    neighbours[a].append((b, pair_weight))
                    neighbours[b].append((a, pair_weight))
        # The most constrained first; those without weighted pairs are never placed.
        self.order = sorted(
            (entry for entry in range(len(seated)) if neighbours[entry]),
            key=lambda entry: -len(neighbours[entry]),
        )
        self.neighbours = neighbours
        self.sizes = list(table_sizes)
        self.room = list(table_sizes)
        # load[entry][table]: what ``entry`` would add at ``table`` given the entries placed there.
        self.load = [[0] * len(table_sizes) for _ in seated]
        self.placed = [False] * len(seated)
        self.unplaced = len(seated)
        # Weighted pairs among the entries not placed yet, and the least weight one can cost.
        self.pairs_unplaced = sum(map(len, neighbours)) // 2
        self.least_weight = min((w for pairs in neighbours for _, w in pairs), default=0)
        self.best = upper
        self.budget = budget

    def run(self) -> Least:
        try:
            self._place(0, 0)
        except _BudgetSpent:
            return Least(self.best, proven=False)
        return Least(self.best, proven=True)

    def _still_to_add(self, placed: int, limit: int) -> int:
        """At least what the entries not yet placed will add (stops counting at ``limit``): each
        one's least load at an open table (its pairs with entries placed), plus the pairs among
        them that must sit together — spread as evenly as the room left allows, more pairs than
        those that never met (stops counting at ``limit``)."""
        open_tables = [table for table, room in enumerate(self.room) if room]
        never_met = self.unplaced * (self.unplaced - 1) // 2 - self.pairs_unplaced
        together = fewest_pairs(self.unplaced, [self.room[table] for table in open_tables])
        total = max(0, together - never_met) * self.least_weight
        for entry in self.order[placed:]:
            load = self.load[entry]
            total += min(load[table] for table in open_tables)
            if total >= limit:
                break
        return total

    def _place(self, placed: int, total: int) -> None:
        self.budget -= 1
        if self.budget < 0:
            raise _BudgetSpent
        if placed == len(self.order):
            self.best = min(self.best, total)
            return
        if total + self._still_to_add(placed, self.best - total) >= self.best:
            return
        entry = self.order[placed]
        empty_sizes_tried = set()
        choices = []
        for table, room in enumerate(self.room):
            if not room:
                continue
            if room == self.sizes[table]:
                if room in empty_sizes_tried:
                    continue
                empty_sizes_tried.add(room)
            choices.append((self.load[entry][table], table))
        for added, table in sorted(choices):
            if total + added >= self.best:
                break
            self._move(entry, table, 1)
            self._place(placed + 1, total + added)
            self._move(entry, table, -1)

    def _move(self, entry: int, table: int, sign: int) -> None:
        """Seat ``entry`` at ``table`` (``sign`` 1) or take it away again (-1)."""
        self.room[table] -= sign
        self.placed[entry] = sign > 0
        self.unplaced -= sign
        for other, pair_weight in self.neighbours[entry]:
            self.load[other][table] += sign * pair_weight
            if not self.placed[other]:
                self.pairs_unplaced -= sign


def fewest_pairs(count: int, rooms: Sequence[int]) -> int:
    """The fewest pairs ``count`` entries form at tables with ``rooms`` seats free: spread as
    evenly as the rooms allow (the smallest rooms filled up, the others shared alike)."""
    pairs, left = 0, count
    ordered = sorted(rooms)
    for index, room in enumerate(ordered):
        tables_left = len(ordered) - index
        if room * tables_left <= left:
            pairs += room * (room - 1) // 2
            left -= room
            continue
        share, larger = divmod(left, tables_left)
        return (
            pairs
            + larger * (share + 1) * share // 2
            + (tables_left - larger) * share * (share - 1) // 2
        )
    return pairs
