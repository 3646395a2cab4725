"""Seating for club tournaments: table sizes, byes, who sits with whom, and in which seat.

Pure functions (standard library only). Entries are opaque hashable ids; every function keeps the
order in which the caller lists them, so pass them in a stable order (for example by id): the same
entries, history and seed then always give the same draw, and the seed stored on the round is
enough to reproduce it.

**Table sizes.** For ``n`` entries the number of tables ``t`` is chosen among those that allow
tables of sizes within the ruleset's bounds (``t·min ≤ n ≤ t·max``) so that the average size
``n / t`` is as close as possible to the organiser's table size (ties: more, smaller tables); the
tables then differ in size by at most one, larger tables first. When no ``t`` fits (Abbott's Switch
needs exactly four, or two for ``abbott-2``), as few entries as possible sit out with a bye.

**Byes** rotate: they go to the entries with the fewest byes so far; among those, the draw chooses
(``random`` at random; ``swiss``, and ``balanced`` seating a single round, as part of the search;
``balanced`` planning several rounds at random, round by round).

**Bots** (online tournaments may enter them) sit together: when the humans alone fill tables
without a bye and there are bots enough for a table, humans and bots are seated apart; otherwise
the tables of the whole field get as many bot-only tables as the sizes allow and the remaining bots
share one table. A bye goes to a bot before any human: no human sits out while a bot plays. The
searches below only ever swap a bot with a bot and a human with a human, so neither rule is undone.

**Repeat cost.** A pair that has met ``k`` times before costs ``10·((k+1)²−1)`` for meeting again:
0 for a first meeting, 30 for the second, 80 for the third, 150 for the fourth. The ``balanced``
and ``swiss`` modes minimise the total by swapping two entries between tables of the same round:
simulated annealing, then, if repeats remain, a tabu search that moves entries out of repeats. Both
are driven by ``random.Random(seed)`` for a fixed number of steps (never a clock), so the same
entries, history and seed give the same draw. The search stops early when it reaches the lower
bound below, and may otherwise stop short of the true minimum on large fields.

**Modes.** ``random``: a random partition. ``balanced``: every round still to play is planned at
once (round-by-round seating misses schedules without repeats, e.g. 16 players at tables of 4 over 5
rounds). ``swiss``: entries are cut into tables in standing order, then moved only as far as needed
to lower the repeat cost — the repeat cost always comes first, the distance from the table one's
standing gives comes second (as the Swiss system treats "no rematch" as absolute).

**Seats.** Within a table, seat 0 (the first dealer) goes to the entry who has had it least often,
then seat 1 to the one who has had seat 1 least often among the rest, and so on; ties by lot.

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
import random
from collections import Counter
from collections.abc import Collection, Hashable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from fractions import Fraction
from itertools import product
from typing import Generic, TypeVar

# Whatever identifies an entry (the service seats entries by id; the tests by name): the same
# type throughout one call, as in the scoring module.
Entry = TypeVar("Entry", bound=Hashable)


class SeatingError(ValueError):
    """A table plan that breaks the rules: the message says which rule, for the organiser."""


class SeatingMode(StrEnum):
    RANDOM = "random"
    BALANCED = "balanced"
    SWISS = "swiss"


@dataclass(frozen=True)
class TableBounds:
    """Table sizes allowed by the ruleset (``players`` min and max) and the organiser's choice."""

    min_players: int
    max_players: int
    preferred: int

    def __post_init__(self) -> None:
        if not 2 <= self.min_players <= self.max_players:
            raise SeatingError(
                f"table bounds must satisfy 2 ≤ min ≤ max, not {self.min_players}–{self.max_players}"
            )
        if not self.min_players <= self.preferred <= self.max_players:
            allowed = (
                f"{self.min_players}"
                if self.min_players == self.max_players
                else f"{self.min_players} to {self.max_players}"
            )
            raise SeatingError(
                f"tables of this ruleset seat {allowed} players, not {self.preferred}"
            )


@dataclass(frozen=True)
class Layout:
    """The table sizes of one round, how many entries get a bye, and how many bots sit at each
    table (``table_bots``, one number per table; bots' byes come first)."""

    table_sizes: tuple[int, ...]
    byes: int
    table_bots: tuple[int, ...] = ()


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

    def met(self, first: Entry, second: Entry) -> int:
        return self.meetings[frozenset((first, second))]


@dataclass(frozen=True)
class RepeatReport:
    """For the organiser: repeat meetings in a plan, the unavoidable minimum, and the search cost."""

    repeats: int
    lower_bound: int
    cost: int


@dataclass(frozen=True)
class Draw(Generic[Entry]):
    """The seated rounds (the first is the one to play now) and their repeat report."""

    rounds: tuple[RoundSeating[Entry], ...]
    report: RepeatReport
    seed: int


def table_layout(entry_count: int, bounds: TableBounds) -> Layout:
    """Table sizes as even as the count allows within the bounds, and the number of byes."""
    for seated in range(entry_count, 0, -1):
        table_counts = [
            count
            for count in range(1, seated // bounds.min_players + 1)
            if count * bounds.min_players <= seated <= count * bounds.max_players
        ]
        if table_counts:
            count = min(
                table_counts,
                key=lambda count: (abs(Fraction(seated, count) - bounds.preferred), -count),
            )
            base, larger = divmod(seated, count)
            sizes = (base + 1,) * larger + (base,) * (count - larger)
            return Layout(table_sizes=sizes, byes=entry_count - seated)
    return Layout(table_sizes=(), byes=entry_count)


def layout_with_bots(humans: int, bots: int, bounds: TableBounds) -> Layout:
    """The round's tables when ``bots`` of the entries are bots (see "Bots" above)."""
    human_only, bot_only = table_layout(humans, bounds), table_layout(bots, bounds)
    if bots and bot_only.table_sizes and not human_only.byes:
        return Layout(
            table_sizes=human_only.table_sizes + bot_only.table_sizes,
            byes=bot_only.byes,
            table_bots=(0,) * len(human_only.table_sizes) + bot_only.table_sizes,
        )
    whole = table_layout(humans + bots, bounds)
    seated_bots = bots - min(whole.byes, bots)
    return replace(whole, table_bots=_bots_per_table(whole.table_sizes, seated_bots))


def _bots_per_table(sizes: Sequence[int], bots: int) -> tuple[int, ...]:
    """As many tables of bots only as the sizes allow; the bots left over share one more table."""
    by_size = Counter(sizes)
    best: tuple[int, int, dict[int, int]] = (-1, 0, {})
    for choice in product(*(range(by_size[size] + 1) for size in by_size)):
        filled = dict(zip(by_size, choice, strict=True))
        seated = sum(size * count for size, count in filled.items())
        if seated <= bots and (seated, -sum(choice)) > best[:2]:
            best = (seated, -sum(choice), filled)
    left_over, filled = bots - best[0], dict(best[2])
    result = []
    for size in sizes:
        if filled.get(size):
            filled[size] -= 1
            result.append(size)
        elif left_over:
            result.append(left_over)
            left_over = 0
        else:
            result.append(0)
    return tuple(result)


def meeting_cost(times_met: int) -> int:
    """What one more meeting of a pair that has met ``times_met`` times costs."""
    return 10 * ((times_met + 1) ** 2 - 1)


def draw_round(
    entries: Sequence[Entry],
    *,
    mode: SeatingMode | str,
    bounds: TableBounds,
    history: SeatingHistory[Entry],
    seed: int,
    rounds_left: int = 1,
    bots: Collection[Entry] = (),
) -> Draw[Entry]:
    """Seat the next round (and, in ``balanced`` mode, plan the ``rounds_left`` rounds to come).

    ``entries`` are the active entries; in ``swiss`` mode they must be in standing order, leader
    first. ``balanced`` returns all ``rounds_left`` planned rounds so the organiser sees the whole
    plan; re-planning before each round with the real history keeps the plan right when entries
    join or withdraw. The other modes return one round, since later rounds depend on results.
    ``bots`` are the entries that are bots (see "Bots" in the module docstring).
    """
    mode = SeatingMode(mode)
    if len(set(entries)) != len(entries):
        raise SeatingError("an entry is listed twice")
    if rounds_left < 1:
        raise SeatingError("there is no round left to seat")
    rng = random.Random(seed)
    bots = frozenset(bots) & frozenset(entries)
    layout = layout_with_bots(len(entries) - len(bots), len(bots), bounds)
    if mode is SeatingMode.BALANCED:
        groups = _plan_balanced(entries, layout, history, rounds_left, rng, bots)
    elif mode is SeatingMode.SWISS:
        groups = [_plan_one_round(entries, layout, history, rng, bots)]
    else:
        groups = [_plan_random(entries, layout, history.byes, rng, bots)]
    rounds = _assign_seats(groups, history, rng)
    return Draw(rounds=rounds, report=repeat_report(rounds, history), seed=seed)


def review_round(
    seating: RoundSeating[Entry],
    *,
    entries: Sequence[Entry],
    bounds: TableBounds,
    history: SeatingHistory[Entry],
    bots: Collection[Entry] = (),
) -> RepeatReport:
    """Check an organiser-edited round and report its repeats.

    Every active entry must appear exactly once (at a table or with a bye), nobody else may appear,
    every table must be within the ruleset's bounds, and no human may sit out while one of
    ``bots`` plays. Raises :class:`SeatingError` otherwise.
    """
    placed = [entry for table in seating.tables for entry in table] + list(seating.byes)
    twice = [entry for entry, count in Counter(placed).items() if count > 1]
    if twice:
        raise SeatingError(f"seated more than once: {', '.join(map(str, twice))}")
    active = set(entries)
    unknown = [entry for entry in placed if entry not in active]
    if unknown:
        raise SeatingError(f"not active entries: {', '.join(map(str, unknown))}")
    seated_once = set(placed)
    missing = [entry for entry in entries if entry not in seated_once]
    if missing:
        raise SeatingError(f"not seated: {', '.join(map(str, missing))}")
    for number, table in enumerate(seating.tables, start=1):
        if not bounds.min_players <= len(table) <= bounds.max_players:
            raise SeatingError(
                f"table {number} has {len(table)} players; the ruleset allows "
                f"{bounds.min_players} to {bounds.max_players}"
            )
    bots_playing = [entry for entry in _seated(seating) if entry in bots]
    humans_out = [entry for entry in seating.byes if entry not in bots]
    if bots_playing and humans_out:
        raise SeatingError(
            f"byes for {', '.join(map(str, humans_out))} while bots play: give the byes to bots"
        )
    return repeat_report([seating], history)


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
    field_entries = list(dict.fromkeys(entry for seating in rounds for entry in _seated(seating)))
    never_met = {
        entry: sum(1 for other in field_entries if other != entry and not history.met(entry, other))
        for entry in field_entries
    }
    meetings = sum(len(t) * (len(t) - 1) // 2 for seating in rounds for t in seating.tables)
    unmet_pairs = sum(never_met.values()) // 2
    fewest_opponents: Counter[Entry] = Counter()
    for seating in rounds:
        smallest = min((len(table) for table in seating.tables), default=0)
        for entry in _seated(seating):
            fewest_opponents[entry] += smallest - 1
    forced = sum(max(0, fewest_opponents[entry] - never_met[entry]) for entry in field_entries)
    return max(0, meetings - unmet_pairs, math.ceil(forced / 2))


def _seated(seating: RoundSeating[Entry]) -> Iterable[Entry]:
    return (entry for table in seating.tables for entry in table)


# --- the draw ------------------------------------------------------------------------------------


def _bye_pool(
    entries: Sequence[Entry], byes: int, bye_counts: Counter[Entry]
) -> tuple[list[Entry], list[Entry]]:
    """Entries that must get a bye, and those among whom the rest of the byes are chosen."""
    if byes == 0:
        return [], []
    threshold = sorted(bye_counts[entry] for entry in entries)[byes - 1]
    forced = [entry for entry in entries if bye_counts[entry] < threshold]
    eligible = [entry for entry in entries if bye_counts[entry] == threshold]
    return forced, eligible


def _byes_by_kind(
    entries: Sequence[Entry], layout: Layout, bots: frozenset[Entry]
) -> list[tuple[list[Entry], int]]:
    """The entries of each kind (bots, then humans) and how many byes each kind gets: bots first."""
    robots = [entry for entry in entries if entry in bots]
    humans = [entry for entry in entries if entry not in bots]
    robot_byes = min(layout.byes, len(robots))
    return [(robots, robot_byes), (humans, layout.byes - robot_byes)]


def _pick_byes(
    entries: Sequence[Entry],
    layout: Layout,
    bye_counts: Counter[Entry],
    rng: random.Random,
    bots: frozenset[Entry],
) -> list[Entry]:
    byes = []
    for group, count in _byes_by_kind(entries, layout, bots):
        forced, eligible = _bye_pool(group, count, bye_counts)
        byes += forced + rng.sample(eligible, count - len(forced))
    return byes


def _cut(seated: Sequence[Entry], layout: Layout, bots: frozenset[Entry]) -> list[list[Entry]]:
    """Tables of the layout's sizes, filled in the order given: its bots where the layout puts bots."""
    robots = [entry for entry in seated if entry in bots]
    humans = [entry for entry in seated if entry not in bots]
    tables, robot, human = [], 0, 0
    robot_counts = layout.table_bots or (0,) * len(layout.table_sizes)
    for size, robot_count in zip(layout.table_sizes, robot_counts, strict=True):
        human_count = size - robot_count
        tables.append(robots[robot : robot + robot_count] + humans[human : human + human_count])
        robot, human = robot + robot_count, human + human_count
    return tables


@dataclass(frozen=True)
class _Grouping(Generic[Entry]):
    """A round's tables before seat order is decided."""

    tables: list[list[Entry]]
    byes: list[Entry]


def _plan_random(
    entries: Sequence[Entry],
    layout: Layout,
    bye_counts: Counter[Entry],
    rng: random.Random,
    bots: frozenset[Entry],
) -> _Grouping[Entry]:
    byes = _pick_byes(entries, layout, bye_counts, rng, bots)
    seated = [entry for entry in entries if entry not in set(byes)]
    rng.shuffle(seated)
    return _Grouping(tables=_cut(seated, layout, bots), byes=byes)


def _plan_balanced(
    entries: Sequence[Entry],
    layout: Layout,
    history: SeatingHistory[Entry],
    rounds: int,
    rng: random.Random,
    bots: frozenset[Entry],
) -> list[_Grouping[Entry]]:
    """All rounds at once: a random start, then the local search over the whole plan."""
    if rounds == 1:
        shuffled = _shuffled(entries, rng)
        return [_plan_one_round(shuffled, layout, history, rng, bots, keep_order=False)]
    bye_counts = Counter(history.byes)
    starts = []
    for _ in range(rounds):
        start = _plan_random(entries, layout, bye_counts, rng, bots)
        bye_counts.update(start.byes)
        starts.append(start)
    search = _Search(entries, history, rng, bots)
    for start in starts:
        search.add_round(start.tables, byes=start.byes, bye_eligible=())
    # The byes are fixed, so the layout's lower bound holds for every plan the search can reach,
    # and each repeat costs at least the price of a second meeting.
    layout_only = [RoundSeating(tables=tuple(map(tuple, s.tables))) for s in starts]
    unavoidable = repeat_lower_bound(layout_only, history) * meeting_cost(1)
    return search.best_plan(good_enough=unavoidable)


def _shuffled(entries: Sequence[Entry], rng: random.Random) -> list[Entry]:
    shuffled = list(entries)
    rng.shuffle(shuffled)
    return shuffled


def _plan_one_round(
    standing_order: Sequence[Entry],
    layout: Layout,
    history: SeatingHistory[Entry],
    rng: random.Random,
    bots: frozenset[Entry],
    *,
    keep_order: bool = True,
) -> _Grouping[Entry]:
    """One round: tables cut in ``standing_order``, then the fewest repeats, then least displacement.

    Byes start with the lowest-standing of the entries due one, and the search may hand them to
    any other entry due one. With ``keep_order=False`` only the repeat cost counts.
    """
    byes, eligible = [], []
    for group, count in _byes_by_kind(standing_order, layout, bots):
        forced, due = _bye_pool(group, count, history.byes)
        byes += forced + due[len(due) - (count - len(forced)) :]
        eligible += due
    seated = [entry for entry in standing_order if entry not in set(byes)]
    home_tables = _cut(seated, layout, bots)
    search = _Search(standing_order, history, rng, bots)
    search.add_round(home_tables, byes=byes, bye_eligible=eligible)
    if keep_order:
        search.keep_near(home_tables)
    return search.best_plan()[0]


class _Search(Generic[Entry]):
    """Local search over swaps of two entries between tables of the same round.

    Simulated annealing first (it finds the 16-players-tables-of-4 schedule in hundredths of a
    second); if repeats remain, a tabu search from the best plan found, which only moves entries
    out of a repeat and always takes the best such swap (after Dotú and Van Hentenryck's local
    search for the social golfer problem), and gets out of the plateaus annealing stalls on.

    ``meet[a][b]`` holds how often entries ``a`` and ``b`` have met, history included, so the
    change in cost of a swap is read off the rows of the two entries swapped. The last table of
    every round holds its byes, who meet nobody. Only entries of one kind (two bots, two humans)
    are swapped, so every table keeps its number of bots.
    """

    START_TEMPERATURE = 25.0
    STEPS_PER_SEAT = 1500
    TABU_STEPS = 400
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
        self.met_before = [[history.met(a, b) for b in self.entries] for a in self.entries]
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
        round_tables.append([self.index[e] for e in byes])
        self.bye_eligible.append({self.index[e] for e in bye_eligible})
        self._load([*self.rounds, round_tables])

    def _load(self, rounds: list[list[list[int]]]) -> None:
        """Make ``rounds`` the current plan, recounting the meetings and where everyone sits."""
        self.rounds = [[list(table) for table in tables] for tables in rounds]
        self.meet = [list(row) for row in self.met_before]
        self.table_of = []
        for tables in self.rounds:
            table_of = [len(tables) - 1] * len(self.entries)
            for number, table in enumerate(tables[:-1]):
                for player in table:
                    table_of[player] = number
                    for other in table:
                        if other != player:
                            self.meet[player][other] += 1
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
        delta = 0.0
        if table_a != bye_table:
            for x in tables[table_a]:
                if x != a:
                    delta += meeting_cost(meet_b[x]) - meeting_cost(meet_a[x] - 1)
        if table_b != bye_table:
            for y in tables[table_b]:
                if y != b:
                    delta += meeting_cost(meet_a[y]) - meeting_cost(meet_b[y] - 1)
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

    def best_plan(self, good_enough: float = 0) -> list[_Grouping[Entry]]:
        """The best plan found; the search stops early at a cost of ``good_enough`` or less."""
        movable = [
            number
            for number, tables in enumerate(self.rounds)
            if len(tables) - (0 if self.bye_eligible[number] else 1) >= 2
        ]
        if not movable:
            return self._groupings(self.rounds)
        best, best_cost = self._anneal(movable, good_enough)
        # Every repeat costs at least 30, the distance from home tables less than 10 in all.
        if best_cost >= 10 and best_cost > good_enough:
            self._load(best)
            best = self._tabu(movable, best_cost, good_enough)
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

    def _tabu(self, movable: list[int], cost: float, good_enough: float) -> list[list[list[int]]]:
        """Each step takes the best swap that moves an entry out of a repeat, even a worse one.

        Swapping a pair back soon after is tabu, unless that gives a new best plan.
        """
        best, best_cost = self._snapshot(), cost
        tabu_until: dict[tuple[int, int, int], int] = {}
        for step in range(self.TABU_STEPS):
            if best_cost < 10 or best_cost <= good_enough:
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
                best, best_cost = self._snapshot(), cost
        return best

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
        """Whether ``a`` and ``b`` (of one kind) sit at different tables, any bye to someone due one."""
        table_of = self.table_of[round_number]
        table_a, table_b = table_of[a], table_of[b]
        if table_a == table_b or self.is_bot[a] != self.is_bot[b]:
            return False
        bye_table = len(self.rounds[round_number]) - 1
        eligible = self.bye_eligible[round_number]
        return (table_a != bye_table or b in eligible) and (table_b != bye_table or a in eligible)

    def _snapshot(self) -> list[list[list[int]]]:
        return [[list(table) for table in tables] for tables in self.rounds]

    def _groupings(self, rounds: list[list[list[int]]]) -> list[_Grouping[Entry]]:
        return [
            _Grouping(
                tables=[[self.entries[p] for p in table] for table in tables[:-1]],
                byes=[self.entries[p] for p in tables[-1]],
            )
            for tables in rounds
        ]


def _assign_seats(
    groups: Sequence[_Grouping[Entry]], history: SeatingHistory[Entry], rng: random.Random
) -> tuple[RoundSeating[Entry], ...]:
    """Seat order per table, round after round: each seat to whoever held it least often."""
    seat_counts = Counter(history.seats)
    rounds = []
    for group in groups:
        tables = []
        for members in group.tables:
            remaining = list(members)
            order = []
            for seat in range(len(members)):
                fewest = min(seat_counts[entry, seat] for entry in remaining)
                chosen = rng.choice([e for e in remaining if seat_counts[e, seat] == fewest])
                remaining.remove(chosen)
                order.append(chosen)
                seat_counts[chosen, seat] += 1
            tables.append(tuple(order))
        rounds.append(RoundSeating(tables=tuple(tables), byes=tuple(group.byes)))
    return tuple(rounds)
