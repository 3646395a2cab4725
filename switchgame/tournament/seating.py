"""Seating for club tournaments: table sizes, byes, who sits with whom, and in which seat.

Pure functions (standard library only). Entries are opaque hashable ids; every function keeps the
order in which the caller lists them, so pass them in a stable order (for example by id): the same
entries, history and seed then always give the same draw, and the seed stored on the round is
enough to reproduce it.

**Table sizes.** For ``n`` entries the number of tables ``t`` is chosen among those that allow
tables of sizes within the ruleset's bounds (``t·min ≤ n ≤ t·max``): no table larger than the
organiser's table size when the bounds allow it, then the average size ``n / t`` as close as
possible to it (ties: more, smaller tables); the tables then differ in size by at most one, larger
tables first. So a table is larger than the organiser's size, or smaller, only when the numbers
require it. When no ``t`` fits (Abbott's Switch needs exactly four, or two for ``abbott-2``), as
few entries as possible sit out with a bye.

**Filled tables** (``fill``: an online tournament that fills empty seats with server bots):
``⌈n / size⌉`` tables as even as possible, nobody sits out; the seats a table lacks are the
service's to fill.

**Byes** rotate: they go to the entries with the fewest byes so far; among those, the draw chooses
(``random`` at random; ``swiss``, and ``balanced`` seating a single round, as part of the search;
``balanced`` planning several rounds at random, round by round).

**Bots** (online tournaments may enter them) are seated among the people like anyone else; only
byes tell them apart: a bye goes to a bot before any human, so no human sits out while a bot
plays. The searches below never swap a bot on a bye with a human at a table, so that rule holds.

**Repeats** (``switchgame.tournament.meetings``): a pair meeting again costs more each time. The
``balanced`` and ``swiss`` modes minimise the total by swapping two entries between tables of the
same round (``switchgame.tournament.search``: a tabu search that moves entries out of repeats, then,
if repeats remain, simulated annealing and the tabu search again; ``swiss`` anneals first), for a
fixed number of steps driven by ``random.Random(seed)``, so the same entries, history and seed give
the same draw. The search stops early when it reaches the unavoidable minimum, and may otherwise
stop short of the true minimum.

**Modes.** ``random``: a random partition. ``balanced``: every round still to play is planned at
once (round-by-round seating misses schedules without repeats, e.g. 16 players at tables of 4 over 5
rounds), starting from a greedy plan — each entry, in random order, at a table of people it has not
met — which on a large field (256 entrants, tables of 4, 8 rounds) is a few swaps from the minimum,
where a random start is hundreds of repeats away. ``swiss``: entries are cut into tables in
standing order, then moved only as far as needed to lower the repeat cost — the repeat cost always
comes first, the distance from the table one's standing gives comes second (as the Swiss system
treats "no rematch" as absolute).

**Seats.** Within a table, seat 0 (the first dealer) goes to the entry who has had it least often,
then seat 1 to the one who has had seat 1 least often among the rest, and so on; ties by lot.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Collection, Hashable, Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from typing import Generic, TypeVar

from switchgame.tournament.meetings import (
    RepeatReport,
    RoundSeating,
    SeatingHistory,
    meeting_cost,
    repeat_lower_bound,
    repeat_report,
    seated_entries,
)
from switchgame.tournament.search import Grouping, SwapSearch
from switchgame.words import N_, Sentence

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
                Sentence(
                    N_("table bounds must satisfy 2 ≤ min ≤ max, not {low}–{high}"),
                    low=self.min_players,
                    high=self.max_players,
                )
            )
        if not self.min_players <= self.preferred <= self.max_players:
            raise SeatingError(
                Sentence(
                    N_("tables of this ruleset seat {low} players, not {size}")
                    if self.min_players == self.max_players
                    else N_("tables of this ruleset seat {low} to {high} players, not {size}"),
                    low=self.min_players,
                    high=self.max_players,
                    size=self.preferred,
                )
            )


@dataclass(frozen=True)
class Layout:
    """The table sizes of one round and how many entries get a bye."""

    table_sizes: tuple[int, ...]
    byes: int


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
                key=lambda count: (
                    -(-seated // count) > bounds.preferred,
                    abs(Fraction(seated, count) - bounds.preferred),
                    -count,
                ),
            )
            return Layout(table_sizes=_even_sizes(seated, count), byes=entry_count - seated)
    return Layout(table_sizes=(), byes=entry_count)


def fill_layout(entry_count: int, bounds: TableBounds) -> Layout:
    """Everyone seated at tables no larger than the organiser's size (see "Filled tables")."""
    count = -(-entry_count // bounds.preferred)
    return Layout(table_sizes=_even_sizes(entry_count, count), byes=0)


def _even_sizes(seated: int, count: int) -> tuple[int, ...]:
    base, larger = divmod(seated, count)
    return (base + 1,) * larger + (base,) * (count - larger)


def draw_round(
    entries: Sequence[Entry],
    *,
    mode: SeatingMode | str,
    bounds: TableBounds,
    history: SeatingHistory[Entry],
    seed: int,
    rounds_left: int = 1,
    bots: Collection[Entry] = (),
    fill: bool = False,
) -> Draw[Entry]:
    """Seat the next round (and, in ``balanced`` mode, plan the ``rounds_left`` rounds to come).

    ``entries`` are the active entries; in ``swiss`` mode they must be in standing order, leader
    first. ``balanced`` returns all ``rounds_left`` planned rounds so the organiser sees the whole
    plan; re-planning before each round with the real history keeps the plan right when entries
    join or withdraw. The other modes return one round, since later rounds depend on results.
    ``bots`` are the entries that are bots (see "Bots" in the module docstring); ``fill``
    seats everyone at tables the service fills with server bots (see "Filled tables").
    """
    mode = SeatingMode(mode)
    if len(set(entries)) != len(entries):
        raise SeatingError(Sentence(N_("an entry is listed twice")))
    if rounds_left < 1:
        raise SeatingError(Sentence(N_("there is no round left to seat")))
    rng = random.Random(seed)
    bots = frozenset(bots) & frozenset(entries)
    layout = (fill_layout if fill else table_layout)(len(entries), bounds)
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
    fill: bool = False,
    name: Callable[[Entry], str] = str,
) -> RepeatReport:
    """Check an organiser-edited round and report its repeats.

    Every active entry must appear exactly once (at a table or with a bye), nobody else may appear,
    the tables must have the sizes the draw would give the entries seated (so none larger or
    smaller than the organiser's size unless the numbers require it), and no human may sit out
    while one of ``bots`` plays. Raises :class:`SeatingError` otherwise, naming entries by
    ``name``.
    """

    def names(listed: Iterable[Entry]) -> str:
        return ", ".join(map(name, listed))

    placed = [entry for table in seating.tables for entry in table] + list(seating.byes)
    twice = [entry for entry, count in Counter(placed).items() if count > 1]
    if twice:
        raise SeatingError(Sentence(N_("seated more than once: {names}"), names=names(twice)))
    active = set(entries)
    unknown = [entry for entry in placed if entry not in active]
    if unknown:
        raise SeatingError(Sentence(N_("not active entries: {names}"), names=names(unknown)))
    seated_once = set(placed)
    missing = [entry for entry in entries if entry not in seated_once]
    if missing:
        raise SeatingError(Sentence(N_("not seated: {names}"), names=names(missing)))
    _check_sizes(seating, bounds, fill)
    bots_playing = [entry for entry in seated_entries(seating) if entry in bots]
    humans_out = [entry for entry in seating.byes if entry not in bots]
    if bots_playing and humans_out:
        raise SeatingError(
            Sentence(
                N_("byes for {names} while bots play: give the byes to bots"),
                names=names(humans_out),
            )
        )
    return repeat_report([seating], history)


def _check_sizes(seating: RoundSeating[Entry], bounds: TableBounds, fill: bool) -> None:
    """The tables must have the sizes the draw gives that many seated entries."""
    sizes = [len(table) for table in seating.tables]
    seated = sum(sizes)
    layout = (fill_layout if fill else table_layout)(seated, bounds)
    if layout.byes or sorted(sizes, reverse=True) != list(layout.table_sizes):
        raise SeatingError(
            Sentence(
                N_(
                    "tables of {shown}: {seated} seated entries sit at tables of {expected} "
                    "(tables of {size} in this event)"
                )
                if not layout.byes
                else N_(
                    "tables of {shown}: {seated} seated entries sit at tables of {low} to "
                    "{high} with nobody left over (tables of {size} in this event)"
                ),
                shown=", ".join(map(str, sizes)) or "0",
                seated=seated,
                expected=", ".join(map(str, layout.table_sizes)),
                low=bounds.min_players,
                high=bounds.max_players,
                size=bounds.preferred,
            )
        )


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


def _cut(seated: Sequence[Entry], layout: Layout) -> list[list[Entry]]:
    """Tables of the layout's sizes, filled in the order given."""
    tables, start = [], 0
    for size in layout.table_sizes:
        tables.append(list(seated[start : start + size]))
        start += size
    return tables


def _plan_random(
    entries: Sequence[Entry],
    layout: Layout,
    bye_counts: Counter[Entry],
    rng: random.Random,
    bots: frozenset[Entry],
) -> Grouping[Entry]:
    byes = _pick_byes(entries, layout, bye_counts, rng, bots)
    seated = [entry for entry in entries if entry not in set(byes)]
    rng.shuffle(seated)
    return Grouping(tables=_cut(seated, layout), byes=byes)


def _plan_balanced(
    entries: Sequence[Entry],
    layout: Layout,
    history: SeatingHistory[Entry],
    rounds: int,
    rng: random.Random,
    bots: frozenset[Entry],
) -> list[Grouping[Entry]]:
    """All rounds at once: a greedy start round by round, then the local search over the whole
    plan."""
    if rounds == 1:
        shuffled = _shuffled(entries, rng)
        return [_plan_one_round(shuffled, layout, history, rng, bots, keep_order=False)]
    bye_counts = Counter(history.byes)
    search = SwapSearch(entries, history, rng, bots)
    layout_only = []
    for _ in range(rounds):
        byes = _pick_byes(entries, layout, bye_counts, rng, bots)
        bye_counts.update(byes)
        seated = _shuffled([entry for entry in entries if entry not in set(byes)], rng)
        search.add_round_greedily(seated, layout.table_sizes, byes=byes, bye_eligible=())
        layout_only.append(RoundSeating(tables=tuple(map(tuple, _cut(seated, layout)))))
    # The byes are fixed, so the layout's lower bound holds for every plan the search can reach,
    # and each repeat costs at least the price of a second meeting.
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
) -> Grouping[Entry]:
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
    search = SwapSearch(standing_order, history, rng, bots)
    if keep_order:
        home_tables = _cut(seated, layout)
        search.add_round(home_tables, byes=byes, bye_eligible=eligible)
        search.keep_near(home_tables)
    else:
        search.add_round_greedily(seated, layout.table_sizes, byes=byes, bye_eligible=eligible)
    return search.best_plan()[0]


def _assign_seats(
    groups: Sequence[Grouping[Entry]], history: SeatingHistory[Entry], rng: random.Random
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
