"""Who met whom: the rounds seated so far, the cost of meeting again, and the repeats a plan cannot avoid.

Pure functions (standard library only); entries are opaque hashable ids, as in the seating module.

**Repeat cost.** A pair that has met ``k`` times before costs ``10·((k+1)²−1)`` for meeting again:
0 for a first meeting, 30 for the second, 80 for the third, 150 for the fourth.

**Repeats and the unavoidable minimum** (:func:`repeat_report`). A repeat is a meeting of a pair
that had met before (in the history or earlier in the same plan). The lower bound for a plan's
layout — who plays in which round at which table sizes, whoever sits together — is the larger of:

* global: ``M − U``, where ``M`` is the number of pair meetings the tables hold
  (``Σ s(s−1)/2`` over all tables of all planned rounds) and ``U`` the number of pairs of entries in
  the plan that have never met: at most ``U`` meetings can be first meetings;
* per entry: ``⌈Σ_p max(0, d_p − a_p) / 2⌉``, where ``d_p`` is the fewest opponents entry ``p`` can
  face (the smallest table of each round it plays, minus one, summed) and ``a_p`` the number of
  entries in the plan it has never met; each repeat involves two entries.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Hashable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Generic, TypeVar

# Whatever identifies an entry (the service seats entries by id; the tests by name).
Entry = TypeVar("Entry", bound=Hashable)


@dataclass(frozen=True)
class RoundSeating(Generic[Entry]):
    """One round: each table lists its entries in seat order (seat 0 deals first)."""

    tables: tuple[tuple[Entry, ...], ...]
    byes: tuple[Entry, ...] = ()


@dataclass(frozen=True)
class SeatingHistory(Generic[Entry]):
    """What the earlier rounds did: pair meetings, byes, and how often each entry held each seat."""

    meetings: Counter[frozenset[Entry]] = field(default_factory=Counter)
    byes: Counter[Entry] = field(default_factory=Counter)
    seats: Counter[tuple[Entry, int]] = field(default_factory=Counter)

    @classmethod
    def from_rounds(cls, rounds: Iterable[RoundSeating[Entry]]) -> SeatingHistory[Entry]:
        history = cls()
        for seating in rounds:
            history._record(seating)
        return history

    def _record(self, seating: RoundSeating[Entry]) -> None:
        for table in seating.tables:
            for seat, entry in enumerate(table):
                self.seats[entry, seat] += 1
                for opponent in table[seat + 1 :]:
                    self.meetings[frozenset((entry, opponent))] += 1
        self.byes.update(seating.byes)

    def pairs_met(self) -> Iterator[tuple[Entry, Entry, int]]:
        """Each pair that has met, and how often (only those: a large field has few of its
        pairs met)."""
        for pair, times in self.meetings.items():
            first, second = pair
            yield first, second, times


@dataclass(frozen=True)
class RepeatReport:
    """For the organiser: repeat meetings in a plan, the unavoidable minimum, and the search cost."""

    repeats: int
    lower_bound: int
    cost: int


def meeting_cost(times_met: int) -> int:
    """What one more meeting of a pair that has met ``times_met`` times costs."""
    return 10 * ((times_met + 1) ** 2 - 1)


def repeat_report(
    rounds: Sequence[RoundSeating[Entry]], history: SeatingHistory[Entry]
) -> RepeatReport:
    """Repeats, search cost and unavoidable minimum of consecutive rounds after ``history``."""
    times_met = Counter(history.meetings)
    repeats = cost = 0
    for seating in rounds:
        for table in seating.tables:
            for seat, entry in enumerate(table):
                for opponent in table[seat + 1 :]:
                    pair = frozenset((entry, opponent))
                    repeats += times_met[pair] > 0
                    cost += meeting_cost(times_met[pair])
                    times_met[pair] += 1
    return RepeatReport(repeats=repeats, lower_bound=repeat_lower_bound(rounds, history), cost=cost)


def repeat_lower_bound(
    rounds: Sequence[RoundSeating[Entry]], history: SeatingHistory[Entry]
) -> int:
    """The fewest repeats any seating with this layout could have (see the module docstring)."""
    field_entries = list(
        dict.fromkeys(entry for seating in rounds for entry in seated_entries(seating))
    )
    in_field = set(field_entries)
    met_in_field: Counter[Entry] = Counter()
    for first, second, _ in history.pairs_met():
        if first in in_field and second in in_field:
            met_in_field.update((first, second))
    never_met = {entry: len(field_entries) - 1 - met_in_field[entry] for entry in field_entries}
    meetings = sum(len(t) * (len(t) - 1) // 2 for seating in rounds for t in seating.tables)
    unmet_pairs = sum(never_met.values()) // 2
    fewest_opponents: Counter[Entry] = Counter()
    for seating in rounds:
        smallest = min((len(table) for table in seating.tables), default=0)
        for entry in seated_entries(seating):
            fewest_opponents[entry] += smallest - 1
    forced = sum(max(0, fewest_opponents[entry] - never_met[entry]) for entry in field_entries)
    return max(0, meetings - unmet_pairs, math.ceil(forced / 2))


def seated_entries(seating: RoundSeating[Entry]) -> Iterable[Entry]:
    return (entry for table in seating.tables for entry in table)
