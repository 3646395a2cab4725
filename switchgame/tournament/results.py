"""Table results entered at the desk, checked and turned into what an online match gives.

Pure (the standard library and the games' own pure scoring): a result names the entries by their
display names; :func:`hands_from_result` checks it against the table and the tournament's format
and returns one :class:`~switchgame.protocol.HandOutcome` per deal or hand, in seat order —
exactly what a finished match's outcome holds — so played and entered tables are scored one way.
Every problem found is reported at once, keyed by where it is in the body (``deals[1].winner``).

The shapes, per scoring (docs/rules.md §4–§5):

* ``french`` — ``{"deals": [{"winner": name, "points_left": {name: tally, ...}}]}``: every other
  seat once with its French tally (≥ 0); the winner scores their sum, the others nothing.
* ``placement`` — ``{"deals": [{"order": [name, ...]}]}``: every seat once, first out first.
* ``abbott`` — ``{"hands": [{"winner": name | None, "alliance": None | {"chooser": name,
  "chosen": name}}]}``: ``None`` is a tie. Each hand scores as in the engine
  (:func:`switchgame.abbott.scoring.hand_scores`), the running totals go on until
  :func:`switchgame.abbott.scoring.game_winner` names a winner, and no hand may follow that one.

Length: with ``deals`` per round, exactly that many deals; with a ``target``, deals until a
running total first reaches it (for ``placement``, the placement points' total), and no more.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from switchgame.abbott.scoring import game_winner, hand_scores
from switchgame.protocol import HandOutcome, solo_teams
from switchgame.tournament.scoring import Scoring, placement_points
from switchgame.words import N_, Sentence


class ResultInvalid(ValueError):
    """The result cannot be right; ``errors`` says why, per place in the body."""

    def __init__(self, errors: Mapping[str, list[str]]) -> None:
        super().__init__("; ".join(f"{where}: {' '.join(why)}" for where, why in errors.items()))
        self.errors = dict(errors)


@dataclass(frozen=True)
class TableFormat:
    """What a table's result must fit: the scoring, the names in seat order, and its length
    (``deals`` per round, or a ``target`` total — for Abbott always the game's target)."""

    scoring: Scoring
    names: tuple[str, ...]
    deals: int | None = None
    target: int | None = None
    # French: the tally of every card of the deck, more than the hands left in play can hold.
    deck_tally: int | None = None


# The smallest card counts 3 (docs/rules.md §5), so no hand tallies 1 or 2.
SMALLEST_CARD = 3
# A tally above this is possible but rare at a club table: the desk confirms it.
PLAUSIBLE_TALLY = 150


def implausible_tallies(table: TableFormat, result: Mapping[str, Any]) -> list[str]:
    """Tallies of a checked French result above :data:`PLAUSIBLE_TALLY`, as ``name: tally``
    (the desk must confirm them); empty for other scorings."""
    return [
        Sentence(N_("{name} {tally} in deal {number}"), name=name, tally=tally, number=number)
        for number, deal in enumerate(result.get("deals", ()), start=1)
        if table.scoring == Scoring.FRENCH
        for name, tally in deal["points_left"].items()
        if tally > PLAUSIBLE_TALLY
    ]


@dataclass
class _Problems:
    found: defaultdict[str, list[str]] = field(default_factory=lambda: defaultdict(list))

    def add(self, where: str, template: str, **values: object) -> None:
        """A problem at ``where``: ``template`` is marked with ``N_`` and has ``{name}``
        placeholders for ``values``, so that the service says it in the reader's language."""
        self.found[where].append(Sentence(template, **values))

    def count(self) -> int:
        return sum(map(len, self.found.values()))


def hands_from_result(table: TableFormat, result: Mapping[str, Any]) -> tuple[HandOutcome, ...]:
    """The result's deals or hands as outcomes, or :class:`ResultInvalid` with every problem."""
    problems = _Problems()
    key = "hands" if table.scoring == Scoring.ABBOTT else "deals"
    items = result.get(key)
    if not isinstance(items, list) or not items:
        problems.add(
            key,
            N_("Give the table's hands as a list, first to last.")
            if key == "hands"
            else N_("Give the table's deals as a list, first to last."),
        )
        raise ResultInvalid(problems.found)
    seats = {name: seat for seat, name in enumerate(table.names)}
    read = {Scoring.FRENCH: _french, Scoring.PLACEMENT: _placement, Scoring.ABBOTT: _abbott}
    hands = read[table.scoring](table, seats, items, problems)
    if not problems.found:
        _check_length(table, hands, key, problems)
    if problems.found:
        raise ResultInvalid(problems.found)
    return tuple(hands)


def _french(
    table: TableFormat, seats: Mapping[str, int], deals: list[Any], problems: _Problems
) -> list[HandOutcome]:
    hands = []
    for index, deal in enumerate(deals):
        where, before = f"deals[{index}]", problems.count()
        if not isinstance(deal, Mapping):
            problems.add(
                where, N_('A deal names its "winner" and the others\' tallies in "points_left".')
            )
            continue
        winner = _one_seat(deal.get("winner"), seats, f"{where}.winner", problems)
        tallies = deal.get("points_left")
        if not isinstance(tallies, Mapping):
            problems.add(f"{where}.points_left", N_("Give each other player's tally by name."))
            continue
        left = {}
        for name, tally in tallies.items():
            seat = seats.get(name)
            if seat is None:
                problems.add(f"{where}.points_left", N_("{name} is not at this table."), name=name)
            elif seat == winner:
                problems.add(
                    f"{where}.points_left",
                    N_("{name} won the deal: a winner has no tally."),
                    name=name,
                )
            elif not _count(tally):
                problems.add(
                    f"{where}.points_left",
                    N_("{name}'s tally must be a whole number ≥ 0."),
                    name=name,
                )
            elif 0 < tally < SMALLEST_CARD:
                problems.add(
                    f"{where}.points_left",
                    N_(
                        "{name}'s tally {tally} is not one cards can make: "
                        "the smallest card counts {smallest}."
                    ),
                    name=name,
                    tally=tally,
                    smallest=SMALLEST_CARD,
                )
            else:
                left[seat] = tally
        if winner is not None:
            missing = [n for n, s in seats.items() if s != winner and n not in tallies]
            if missing:
                problems.add(
                    f"{where}.points_left", N_("No tally for {names}."), names=_names(missing)
                )
        held = sum(left.values())
        if table.deck_tally is not None and held > table.deck_tally:
            problems.add(
                f"{where}.points_left",
                N_("The tallies add up to {held}: more than the whole deck's {deck} could hold."),
                held=held,
                deck=table.deck_tally,
            )
        if problems.count() > before or winner is None:
            continue
        points = [0] * len(table.names)
        points[winner] = sum(left.values())
        placings = (winner, *sorted(left, key=lambda seat: (left[seat], seat)))
        hands.append(_hand(table, index, points, winner, placings))
    return hands


def _placement(
    table: TableFormat, seats: Mapping[str, int], deals: list[Any], problems: _Problems
) -> list[HandOutcome]:
    hands = []
    for index, deal in enumerate(deals):
        where = f"deals[{index}].order"
        order = deal.get("order") if isinstance(deal, Mapping) else None
        if not isinstance(order, list):
            problems.add(
                where, N_("Give the finishing order: every player's name, first out first.")
            )
            continue
        strangers = [name for name in order if name not in seats]
        twice = sorted({name for name in order if order.count(name) > 1}, key=str)
        missing = [name for name in seats if name not in order]
        if strangers:
            problems.add(where, N_("{names}: not at this table."), names=_names(strangers))
        if twice:
            problems.add(where, N_("{names}: listed twice."), names=_names(twice))
        if missing:
            problems.add(where, N_("Missing: {names}."), names=_names(missing))
        if strangers or twice or missing:
            continue
        placings = tuple(seats[name] for name in order)
        by_seat = placement_points(placings)
        points = [by_seat[seat] for seat in range(len(table.names))]
        hands.append(_hand(table, index, points, placings[0], placings))
    return hands


def _abbott(
    table: TableFormat, seats: Mapping[str, int], items: list[Any], problems: _Problems
) -> list[HandOutcome]:
    assert table.target is not None  # an Abbott table always plays to the game's target
    players = len(table.names)
    totals = [0] * players
    won_in: int | None = None
    hands = []
    for index, hand in enumerate(items):
        where, before = f"hands[{index}]", problems.count()
        if not isinstance(hand, Mapping):
            problems.add(
                where,
                N_('A hand names its "winner" (null for a tie) and its "alliance" (or null).'),
            )
            continue
        if won_in is not None:
            problems.add(
                where,
                N_("The game was won in hand {number}: no hand follows it."),
                number=won_in + 1,
            )
            continue
        winner = None
        if hand.get("winner") is not None:
            winner = _one_seat(hand["winner"], seats, f"{where}.winner", problems)
        alliance = _alliance(hand.get("alliance"), seats, players, f"{where}.alliance", problems)
        if problems.count() > before:
            continue
        scores = hand_scores(players, winner, alliance)
        totals = [total + score for total, score in zip(totals, scores, strict=True)]
        teams = solo_teams(players)
        if alliance is not None:
            teams = (alliance, *((seat,) for seat in range(players) if seat not in alliance))
        others = [seat for seat in range(players) if seat != winner]
        placings = tuple(others if winner is None else [winner, *others])
        hands.append(_hand(table, index, scores, winner, placings, teams))
        if game_winner(totals, table.target) is not None:
            won_in = index
    if won_in is None and not problems.found:
        shown = ", ".join(
            f"{name} {total}" for name, total in zip(table.names, totals, strict=True)
        )
        problems.add(
            "hands",
            N_("Nobody has won the game to {target} yet ({totals}): give every hand played."),
            target=table.target,
            totals=shown,
        )
    return hands


def french_tallies(table: TableFormat, result: Mapping[str, Any]) -> list[list[int]]:
    """Per deal, each seat's tally left in hand (0 for the winner), from a checked French result."""
    if table.scoring != Scoring.FRENCH:
        return []
    return [[deal["points_left"].get(name, 0) for name in table.names] for deal in result["deals"]]


def hand_points(scoring: Scoring, hand: HandOutcome) -> list[int]:
    """Each seat's points in one deal or hand as the tournament scores it: placement points from
    the finishing order, otherwise the points the deal or hand gave."""
    if scoring == Scoring.PLACEMENT:
        by_seat = placement_points(hand.placings)
        return [by_seat[seat] for seat in range(len(hand.points))]
    return list(hand.points)


def _alliance(
    value: Any, seats: Mapping[str, int], players: int, where: str, problems: _Problems
) -> tuple[int, int] | None:
    if value is None:
        return None
    if players != 4:
        problems.add(where, N_("Alliances are made only at tables of four."))
        return None
    if not isinstance(value, Mapping):
        problems.add(where, N_('An alliance names its "chooser" and the partner "chosen".'))
        return None
    chooser = _one_seat(value.get("chooser"), seats, f"{where}.chooser", problems)
    chosen = _one_seat(value.get("chosen"), seats, f"{where}.chosen", problems)
    if chooser is None or chosen is None:
        return None
    if chooser == chosen:
        problems.add(where, N_("A player cannot choose themselves as partner."))
        return None
    return chooser, chosen


def _check_length(
    table: TableFormat, hands: Sequence[HandOutcome], key: str, problems: _Problems
) -> None:
    if table.scoring == Scoring.ABBOTT:
        return  # the game's own end was checked hand by hand
    if table.deals is not None:
        if len(hands) != table.deals:
            problems.add(
                key,
                N_("A table plays {deals} deals a round, not {given}."),
                deals=table.deals,
                given=len(hands),
            )
        return
    assert table.target is not None  # a table plays a number of deals or to a target
    totals = [0] * len(table.names)
    for number, hand in enumerate(hands, start=1):
        totals = [total + points for total, points in zip(totals, hand.points, strict=True)]
        if max(totals) >= table.target:
            if number != len(hands):
                problems.add(
                    key,
                    N_("The target {target} was reached in deal {number}."),
                    target=table.target,
                    number=number,
                )
            return
    problems.add(
        key,
        N_("No total reaches the target {target} yet: give every deal played."),
        target=table.target,
    )


def _one_seat(value: Any, seats: Mapping[str, int], where: str, problems: _Problems) -> int | None:
    """The seat of one player named by ``value``; two or more names are two winners."""
    if isinstance(value, list) and len(value) > 1:
        problems.add(where, N_("Two winners ({names}): name one."), names=_names(value))
        return None
    if isinstance(value, list):
        value = value[0] if value else None
    if not isinstance(value, str) or not value:
        problems.add(where, N_("Name one player of the table."))
        return None
    if value not in seats:
        problems.add(where, N_("{name} is not at this table."), name=value)
        return None
    return seats[value]


def _hand(
    table: TableFormat,
    index: int,
    points: Sequence[int],
    winner: int | None,
    placings: Sequence[int],
    teams: tuple[tuple[int, ...], ...] | None = None,
) -> HandOutcome:
    return HandOutcome(
        number=index + 1,
        points=tuple(points),
        winner=winner,
        placings=tuple(placings),
        teams=teams or solo_teams(len(table.names)),
    )


def _count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _names(names: Sequence[Any]) -> str:
    return ", ".join(map(str, names))
