"""The local search of balanced and Swiss seating: swaps of two entries between tables of a round.

Pure (standard library only), driven by the ``random.Random`` it is handed for a fixed number of
steps (never a clock), so the same entries, history and seed give the same plan.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from switchgame.tournament.meetings import SeatingHistory, meeting_cost

Entry = TypeVar("Entry", bound=Hashable)


@dataclass(frozen=True)
class Grouping(Generic[Entry]):
    """A round's tables before seat order is decided."""

    tables: list[list[Entry]]
    byes: list[Entry]


class SwapSearch(Generic[Entry]):
    """Local search over swaps of two entries between tables of the same round.

    A tabu search first (except in Swiss seating), which only moves entries out of a repeat and
    always takes the best such swap (after Dotú and Van Hentenryck's local search for the social
    golfer problem): it repairs a greedy start with a few repeats at a cost that grows with the
    repeats, not the field, and gives up after a few steps without progress. If repeats remain,
    simulated annealing (it finds the 16-players-tables-of-4 schedule in hundredths of a second),
    then the tabu search again from the best plan found, which gets out of the plateaus annealing
    stalls on.

    ``meet[a][b]`` holds how often entries ``a`` and ``b`` have met, history included, so the
    change in cost of a swap is read off the rows of the two entries swapped. The last table of
    every round holds its byes, who meet nobody. A bye changes hands only between entries of one
    kind (two bots, two humans), so no human takes a bye a bot could have.
    """

    START_TEMPERATURE = 25.0
    STEPS_PER_SEAT = 1500
    TABU_STEPS = 400
    TABU_STALL = 8
    TABU_TENURE = (4, 30)
    EPSILON = 1e-9

    def __init__(
        self,
        entries: Sequence[Entry],
        history: SeatingHistory[Entry],
        rng: random.Random,
        bots: frozenset[Entry],
    ):
        self.entries = list(entries)
        self.is_bot = [entry in bots for entry in self.entries]
        self.index = {entry: number for number, entry in enumerate(self.entries)}
        self.met_before = [[0] * len(self.entries) for _ in self.entries]
        for first, second, times in history.pairs_met():
            if first in self.index and second in self.index:
                a, b = self.index[first], self.index[second]
                self.met_before[a][b] = self.met_before[b][a] = times
        self.most_met_before = max(map(max, self.met_before), default=0)
        self.rng = rng
        self.rounds: list[list[list[int]]] = []
        self.bye_eligible: list[set[int]] = []
        self.distance_weight = 0.0
        self.home: list[int] = []
        self._load([])

    def add_round(
        self, tables: list[list[Entry]], *, byes: Sequence[Entry], bye_eligible: Iterable[Entry]
    ) -> None:
        round_tables = [[self.index[e] for e in table] for table in tables]
        self._append(round_tables, byes, bye_eligible)

    def add_round_greedily(
        self,
        seated: Sequence[Entry],
        table_sizes: Sequence[int],
        *,
        byes: Sequence[Entry],
        bye_eligible: Iterable[Entry],
    ) -> None:
        """Add a round built entry by entry in the order given, each at the first open table
        where it adds the least cost to the plan so far.

        A constructive start: on a large field nearly everyone finds a table of strangers, so
        the search is left with a few repeats to repair instead of a random plan's hundreds.
        """
        tables: list[list[int]] = [[] for _ in table_sizes]
        open_tables = list(range(len(tables)))
        cost_of = self.cost_of
        for entry in seated:
            player = self.index[entry]
            met = self.meet[player]
            chosen, lowest = open_tables[0], math.inf
            for number in open_tables:
                added = sum(cost_of[met[other]] for other in tables[number])
                if added < lowest:
                    chosen, lowest = number, added
                    if not added:
                        break
            tables[chosen].append(player)
            if len(tables[chosen]) == table_sizes[chosen]:
                open_tables.remove(chosen)
        self._append(tables, byes, bye_eligible)

    def _append(
        self, tables: list[list[int]], byes: Sequence[Entry], bye_eligible: Iterable[Entry]
    ) -> None:
        self.rounds.append([*tables, [self.index[e] for e in byes]])
        self.bye_eligible.append({self.index[e] for e in bye_eligible})
        self._count_round(self.rounds[-1])
        self._price()

    def _load(self, rounds: list[list[list[int]]]) -> None:
        """Make ``rounds`` the current plan, recounting the meetings and where everyone sits."""
        self.rounds = []
        self.meet = [list(row) for row in self.met_before]
        self.table_of: list[list[int]] = []
        for tables in rounds:
            self.rounds.append([list(table) for table in tables])
            self._count_round(self.rounds[-1])
        self._price()

    def _price(self) -> None:
        """What one more meeting costs, by times met, as far as the plan can go: a list on the
        hot path rather than a call."""
        most = self.most_met_before + len(self.rounds)
        self.cost_of = [meeting_cost(times) for times in range(most + 1)]

    def _count_round(self, tables: list[list[int]]) -> None:
        """Count the meetings of the plan's newest round (its last table holds the byes)."""
        table_of = [len(tables) - 1] * len(self.entries)
        for number, table in enumerate(tables[:-1]):
            for player in table:
                table_of[player] = number
                met = self.meet[player]
                for other in table:
                    if other != player:
                        met[other] += 1
        self.table_of.append(table_of)

    def keep_near(self, home_tables: list[list[Entry]]) -> None:
        """Add the distance from each entry's home table (single round) as a secondary cost.

        The weight keeps the largest possible total distance below 10, the smallest step of the
        repeat cost, so repeats are always minimised first.
        """
        # The bye table comes last, one past the lowest table: byes are for the lowest standing.
        self.home = [len(home_tables)] * len(self.entries)
        for number, table in enumerate(home_tables):
            for entry in table:
                self.home[self.index[entry]] = number
        tables = len(home_tables) + 1
        self.distance_weight = 10 / (len(self.entries) * tables + 1)

    def _distance(self, player: int, table: int) -> float:
        return self.distance_weight * abs(table - self.home[player])

    def _swap_delta(self, round_number: int, a: int, b: int) -> float:
        table_of = self.table_of[round_number]
        tables = self.rounds[round_number]
        bye_table = len(tables) - 1
        table_a, table_b = table_of[a], table_of[b]
        meet_a, meet_b = self.meet[a], self.meet[b]
        cost_of = self.cost_of
        delta = 0.0
        if table_a != bye_table:
            for x in tables[table_a]:
                if x != a:
                    delta += cost_of[meet_b[x]] - cost_of[meet_a[x] - 1]
        if table_b != bye_table:
            for y in tables[table_b]:
                if y != b:
                    delta += cost_of[meet_a[y]] - cost_of[meet_b[y] - 1]
        if self.distance_weight:
            delta += (
                self._distance(a, table_b)
                + self._distance(b, table_a)
                - self._distance(a, table_a)
                - self._distance(b, table_b)
            )
        return delta

    def _swap(self, round_number: int, a: int, b: int) -> None:
        table_of = self.table_of[round_number]
        tables = self.rounds[round_number]
        bye_table = len(tables) - 1
        table_a, table_b = table_of[a], table_of[b]
        for mover, stayer, old, new in ((a, b, table_a, table_b), (b, a, table_b, table_a)):
            if old != bye_table:
                for x in tables[old]:
                    if x != mover:
                        self.meet[mover][x] -= 1
                        self.meet[x][mover] -= 1
            if new != bye_table:
                for y in tables[new]:
                    if y != stayer:
                        self.meet[mover][y] += 1
                        self.meet[y][mover] += 1
        tables[table_a][tables[table_a].index(a)] = b
        tables[table_b][tables[table_b].index(b)] = a
        table_of[a], table_of[b] = table_b, table_a

    def _cost(self) -> float:
        """Total cost of the plan, history's own meetings excluded (they are the same in every plan)."""
        repeat_cost = 0
        seen: Counter[tuple[int, int]] = Counter()
        for tables in self.rounds:
            for table in tables[:-1]:
                for i, a in enumerate(table):
                    for b in table[i + 1 :]:
                        seen[min(a, b), max(a, b)] += 1
        for (a, b), count in seen.items():
            before = self.meet[a][b] - count
            repeat_cost += sum(meeting_cost(before + k) for k in range(count))
        distance = 0.0
        if self.distance_weight:
            for number, table in enumerate(self.rounds[0]):
                distance += sum(self._distance(player, number) for player in table)
        return repeat_cost + distance

    def best_plan(self, good_enough: float = 0) -> list[Grouping[Entry]]:
        """The best plan found; the search stops early at a cost of ``good_enough`` or less."""
        movable = [
            number
            for number, tables in enumerate(self.rounds)
            if len(tables) - (0 if self.bye_eligible[number] else 1) >= 2
        ]
        if not movable:
            return self._groupings(self.rounds)
        best, best_cost = self._snapshot(), self._cost()
        if not self.distance_weight:
            # A start with few repeats (a greedy start on a large field) is repaired by the tabu
            # search alone, which looks only at entries in repeats where annealing would wander
            # the whole plan; it gives up soon on a start it cannot improve. Swiss seating (which
            # also weighs how far entries move) anneals first, as it did: it left fewer repeats so.
            best, best_cost = self._tabu(movable, best_cost, good_enough, self.TABU_STALL)
        if best_cost > good_enough:
            self._load(best)
            best, best_cost = self._anneal(movable, good_enough)
            self._load(best)
            best, best_cost = self._tabu(movable, best_cost, good_enough, self.TABU_STEPS)
        return self._groupings(best)

    def _anneal(
        self, movable: list[int], good_enough: float
    ) -> tuple[list[list[list[int]]], float]:
        """Random swaps, worse ones accepted less and less often; returns the best plan and cost."""
        steps = self.STEPS_PER_SEAT * len(self.entries) * len(self.rounds)
        cost = best_cost = self._cost()
        best = self._snapshot()
        final_temperature = min(1.0, self.distance_weight or 1.0) / 10
        cooling = (final_temperature / self.START_TEMPERATURE) ** (1 / steps)
        temperature = self.START_TEMPERATURE
        rng = self.rng
        for _ in range(steps):
            if best_cost <= good_enough:
                break
            temperature *= cooling
            round_number = rng.choice(movable)
            a = rng.randrange(len(self.entries))
            b = rng.randrange(len(self.entries))
            if not self._may_swap(round_number, a, b):
                continue
            delta = self._swap_delta(round_number, a, b)
            if delta <= 0 or rng.random() < math.exp(-delta / temperature):
                self._swap(round_number, a, b)
                cost += delta
                if cost < best_cost - self.EPSILON:
                    best_cost = cost
                    best = self._snapshot()
        return best, best_cost

    def _tabu(
        self, movable: list[int], cost: float, good_enough: float, patience: int
    ) -> tuple[list[list[list[int]]], float]:
        """Each step takes the best swap that moves an entry out of a repeat, even a worse one;
        returns the best plan and cost, once ``patience`` steps in a row have found no better.

        Swapping a pair back soon after is tabu, unless that gives a new best plan.
        """
        best, best_cost = self._snapshot(), cost
        tabu_until: dict[tuple[int, int, int], int] = {}
        last_better = 0
        for step in range(self.TABU_STEPS):
            # Every repeat costs at least 30, the distance from home tables less than 10 in all.
            if best_cost < 10 or best_cost <= good_enough or step - last_better >= patience:
                break
            lowest, candidates = math.inf, []
            for round_number in movable:
                for a in self._entries_in_repeats(round_number):
                    for b in range(len(self.entries)):
                        if not self._may_swap(round_number, a, b):
                            continue
                        delta = self._swap_delta(round_number, a, b)
                        is_tabu = tabu_until.get((round_number, a, b), -1) >= step
                        if is_tabu and cost + delta >= best_cost - self.EPSILON:
                            continue
                        if delta < lowest - self.EPSILON:
                            lowest, candidates = delta, [(round_number, a, b)]
                        elif delta <= lowest + self.EPSILON:
                            candidates.append((round_number, a, b))
            if not candidates:
                break
            round_number, a, b = self.rng.choice(candidates)
            self._swap(round_number, a, b)
            cost += lowest
            until = step + self.rng.randint(*self.TABU_TENURE)
            tabu_until[round_number, a, b] = tabu_until[round_number, b, a] = until
            if cost < best_cost - self.EPSILON:
                best, best_cost, last_better = self._snapshot(), cost, step + 1
        return best, best_cost

    def _entries_in_repeats(self, round_number: int) -> list[int]:
        """Entries seated this round with a tablemate they meet for at least the second time."""
        tables = self.rounds[round_number]
        return [
            player
            for table in tables[:-1]
            for player in table
            if any(self.meet[player][other] > 1 for other in table if other != player)
        ]

    def _may_swap(self, round_number: int, a: int, b: int) -> bool:
        """Whether ``a`` and ``b`` sit at different tables, any bye to someone due one (and of
        the same kind as who had it)."""
        table_of = self.table_of[round_number]
        table_a, table_b = table_of[a], table_of[b]
        bye_table = len(self.rounds[round_number]) - 1
        if table_a == table_b:
            return False
        if bye_table in (table_a, table_b) and self.is_bot[a] != self.is_bot[b]:
            return False
        eligible = self.bye_eligible[round_number]
        return (table_a != bye_table or b in eligible) and (table_b != bye_table or a in eligible)

    def _snapshot(self) -> list[list[list[int]]]:
        return [[list(table) for table in tables] for tables in self.rounds]

    def _groupings(self, rounds: list[list[list[int]]]) -> list[Grouping[Entry]]:
        return [
            Grouping(
                tables=[[self.entries[p] for p in table] for table in tables[:-1]],
                byes=[self.entries[p] for p in tables[-1]],
            )
            for tables in rounds
        ]
