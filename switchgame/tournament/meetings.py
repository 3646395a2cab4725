"""Who met whom: the rounds seated so far, the cost of meeting again, and the repeats a plan cannot avoid.

Pure functions (standard library only); entries are opaque hashable ids, as in the seating module.

**Repeat cost.** A pair that has met ``k`` times before costs ``10·((k+1)²−1)`` for meeting again:
0 for a first meeting, 30 for the second, 80 for the third, 150 for the fourth.

**Repeats and the unavoidable minimum** (:func:`repeat_report`). A repeat is a meeting of a pair
that had met before (in the history or earlier in the same plan). The lower bound for a plan's
layout — who plays in which round at which table sizes, whoever sits together — is the largest of:

* global: ``M − U``, where ``M`` is the number of pair meetings the tables hold
  (``Σ s(s−1)/2`` over all tables of all planned rounds) and ``U`` the number of pairs of entries in
  the plan that have never met: at most ``U`` meetings can be first meetings;
* per entry: ``⌈Σ_p max(0, d_p − a_p) / 2⌉``, where ``d_p`` is the fewest opponents entry ``p`` can
  face (the smallest table of each round it plays, minus one, summed) and ``a_p`` the number of
  entries in the plan it has never met; each repeat involves two entries;
* pigeonhole over the earlier tables: everyone at an earlier table has met everyone else there, so
  when ``k`` of them sit this round at tables of sizes ``c₁ … c_t`` they repeat at least the pairs
  of spreading ``k`` as evenly as the tables allow (12 entries at tables of 4: each round-1 table's
  four meet in round 2 at three tables, so one of its pairs meets again — 3 repeats in all). Earlier
  tables sharing no pair add up, in each planned round.

For one round, the fewest repeats and the least cost are then worked out exactly
(:mod:`switchgame.tournament.fewest`), from the bound and the seating drawn: the report says
``proven`` when both are the true minima, not only bounds. Fewer repeats than the draw's may be
possible only by seating a pair together more often than the draw does (two second meetings cost
less than one third meeting): the report's :attr:`~RepeatReport.verdict` tells that apart from a
draw that missed a better seating.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Hashable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Generic, TypeVar

from switchgame.tournament.fewest import fewest_pairs, least_together

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
    # Every earlier table's members (all of whom met each other), latest last.
    tables: list[frozenset[Entry]] = field(default_factory=list)

    @classmethod
    def from_rounds(cls, rounds: Iterable[RoundSeating[Entry]]) -> SeatingHistory[Entry]:
        history = cls()
        for seating in rounds:
            history._record(seating)
        return history

    def _record(self, seating: RoundSeating[Entry]) -> None:
        for table in seating.tables:
            self.tables.append(frozenset(table))
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


class RepeatVerdict(StrEnum):
    """What a seating's repeats say to the organiser."""

    FEWEST = "fewest"  # no seating of these entries and tables repeats fewer pairs
    SPREAD = "spread"  # fewer repeats only by seating a pair together more often than this does
    IMPROVABLE = "improvable"  # a seating of the same entries and tables costs less: draw again
    UNPROVEN = "unproven"  # above the lower bound, and the exact count took too long to find


@dataclass(frozen=True)
class RepeatReport:
    """For the organiser: repeat meetings in a plan and the fewest its layout allows, the search
    cost and the least it can be; ``proven``: both are the true minima, not only lower bounds."""

    repeats: int
    lower_bound: int
    cost: int
    least_cost: int = 0
    proven: bool = False

    @property
    def verdict(self) -> RepeatVerdict:
        if self.repeats <= self.lower_bound:
            return RepeatVerdict.FEWEST
        if not self.proven:
            return RepeatVerdict.UNPROVEN
        if self.cost > self.least_cost:
            return RepeatVerdict.IMPROVABLE
        return RepeatVerdict.SPREAD


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
    bound = repeat_lower_bound(rounds, history)
    least_cost = bound * meeting_cost(1)  # each repeat costs at least a second meeting
    reached = repeats == bound and cost == least_cost
    if len(rounds) != 1 or reached:
        return RepeatReport(repeats, bound, cost, least_cost, proven=reached)
    seating = rounds[0]
    seated = list(seated_entries(seating))
    sizes = [len(table) for table in seating.tables]
    fewest = least_together(
        seated, sizes, lambda a, b: int(pair_met(history, a, b) > 0), upper=repeats
    )
    if not fewest.proven:
        return RepeatReport(repeats, bound, cost, least_cost, proven=False)
    cheapest = least_together(
        seated, sizes, lambda a, b: meeting_cost(pair_met(history, a, b)), upper=cost
    )
    return RepeatReport(
        repeats,
        fewest.total,
        cost,
        cheapest.total if cheapest.proven else least_cost,
        proven=cheapest.proven,
    )


def pair_met(history: SeatingHistory[Entry], first: Entry, second: Entry) -> int:
    """How often two entries met in the rounds before."""
    return history.meetings[frozenset((first, second))]


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
    pigeonhole = sum(_earlier_tables_repeat(seating, history) for seating in rounds)
    return max(0, meetings - unmet_pairs, math.ceil(forced / 2), pigeonhole)


def _earlier_tables_repeat(seating: RoundSeating[Entry], history: SeatingHistory[Entry]) -> int:
    """The pairs of earlier tables that must meet again this round (the pigeonhole bound), over
    earlier tables that share no pair, latest first."""
    seated = set(seated_entries(seating))
    sizes = [len(table) for table in seating.tables]
    counted: set[frozenset[Entry]] = set()
    total = 0
    for table in reversed(history.tables):
        here = [entry for entry in table if entry in seated]
        pairs = {frozenset((a, b)) for i, a in enumerate(here) for b in here[i + 1 :]}
        if pairs & counted:
            continue
        counted |= pairs
        total += fewest_pairs(len(here), sizes)
    return total


def seated_entries(seating: RoundSeating[Entry]) -> Iterable[Entry]:
    return (entry for table in seating.tables for entry in table)
