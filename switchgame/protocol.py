"""The interface both rules engines share, so the service, the bots and tournaments treat them alike.

Modelled on python-chess and OpenSpiel: a small state object that knows whose turn it is, lists the
legal actions, applies one, and produces a per-seat *view* — what that seat may know, never the state
itself. Actions are plain dicts in exactly the JSON shape of the public API
(``{"action": "play", "card": "JS", "suit": "H"}``), so a legal action can be posted back as it is.

Randomness only enters through :meth:`GameState.deal`, which is handed the deal's secret seed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol, Self

# An action in the API's JSON shape, read-only: the legal actions a game hands out are shared.
Action = Mapping[str, Any]


class InvalidAction(ValueError):
    """The action is malformed: unknown action name, unknown card code, wrong field types."""


class IllegalMove(ValueError):
    """A well-formed action the rules do not allow now; ``reason`` is a sentence for the player.

    ``template`` is that sentence as the catalogue knows it (marked with ``words.N_``), with
    ``{name}`` placeholders for the ``values`` (card codes, numbers), so that the service can say it
    in the player's language: ``gettext(template).format(**values)``.
    """

    def __init__(self, template: str, **values: object) -> None:
        reason = template.format(**values) if values else template
        super().__init__(reason)
        self.reason = reason
        self.template = template
        self.values = values


class InvalidLayout(ValueError):
    """An explicit layout that is not a valid partition of the deck (or grid) for this game."""


class InvalidOptions(ValueError):
    """House-rule options that are unknown or out of range; the message names the option and why."""


class Event:
    """Something that happened. ``data`` is public; ``private`` is seen only by ``seat`` (drawn cards).

    A plain slotted class rather than a frozen dataclass: engines create one or two per action, and a
    frozen dataclass's ``__init__`` costs three times as much. Treat events as immutable all the same.
    """

    __slots__ = ("data", "private", "seat", "type")

    def __init__(
        self,
        type: str,
        seat: int | None = None,
        data: dict[str, Any] | None = None,
        private: dict[str, Any] | None = None,
    ) -> None:
        self.type = type
        self.seat = seat
        self.data = {} if data is None else data
        self.private = private

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Event):
            return NotImplemented
        return (self.type, self.seat, self.data, self.private) == (
            other.type,
            other.seat,
            other.data,
            other.private,
        )

    __hash__ = None  # type: ignore[assignment]  # events hold dicts: equal by value, not hashable

    def __repr__(self) -> str:
        return f"Event({self.type!r}, {self.seat!r}, {self.data!r}, {self.private!r})"

    def for_viewer(self, viewer: int | None) -> dict[str, Any]:
        """The event as ``viewer`` (a seat, or ``None`` for a spectator) may see it."""
        data = dict(self.data)
        if self.private and viewer is not None and viewer == self.seat:
            data.update(self.private)
        return {"type": self.type, "seat": self.seat, "data": data}

    def with_data(self, **extra: Any) -> Event:
        """The same event with ``extra`` added to its public part (a new event; this one is kept)."""
        return Event(self.type, self.seat, {**self.data, **extra}, self.private)

    def to_dict(self) -> dict[str, Any]:
        """The whole event, private part included, for the server-side log."""
        return {"type": self.type, "seat": self.seat, "data": self.data, "private": self.private}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Event:
        return cls(
            data["type"], data.get("seat"), dict(data.get("data") or {}), data.get("private")
        )


@dataclass(frozen=True, slots=True)
class HandOutcome:
    """One scored deal (shedding) or hand (Abbott): what tournaments and ratings are computed from.

    ``points`` is what each seat scored in it; ``winner`` is ``None`` when nobody won (an Abbott tie);
    ``placings`` lists every seat, best first; ``teams`` are the sides that played it — an Abbott
    alliance is one side, every other seat plays alone. ``tallies`` (shedding) are each seat's
    French tally of the cards it held at the deal's end, so that people can see where the winner's
    points came from; empty where the game has none.
    """

    number: int
    points: tuple[int, ...]
    winner: int | None
    placings: tuple[int, ...]
    teams: tuple[tuple[int, ...], ...]
    tallies: tuple[int, ...] = ()

    def conceded(self) -> tuple[int, ...]:
        """The tallies the seats other than the winner were left holding (the winner's 0)."""
        return tuple(0 if seat == self.winner else tally for seat, tally in enumerate(self.tallies))

    def to_json(self) -> dict[str, Any]:
        data = {
            "number": self.number,
            "points": list(self.points),
            "winner": self.winner,
            "placings": list(self.placings),
            "teams": [list(team) for team in self.teams],
        }
        if self.tallies:
            data["tallies"] = list(self.tallies)
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> HandOutcome:
        return cls(
            number=data["number"],
            points=tuple(data["points"]),
            winner=data["winner"],
            placings=tuple(data["placings"]),
            teams=tuple(tuple(team) for team in data["teams"]),
            tallies=tuple(data.get("tallies", ())),
        )


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a finished match came out, in the same shape for both games.

    ``totals`` are the seats' match totals (French points, Abbott running totals); ``ranking`` lists
    every seat, best first; ``winner`` is its first seat. ``hands`` are the deals or hands in order.
    ``conceded`` (shedding) are the French tallies each seat was left holding in the deals it did
    not win, added up over the match; empty where the game has none.
    """

    hands: tuple[HandOutcome, ...]
    totals: tuple[int, ...]
    ranking: tuple[int, ...]
    conceded: tuple[int, ...] = ()

    @property
    def winner(self) -> int:
        return self.ranking[0]

    def to_json(self) -> dict[str, Any]:
        data = {
            "winner": self.winner,
            "ranking": list(self.ranking),
            "totals": list(self.totals),
            "hands": [hand.to_json() for hand in self.hands],
        }
        if self.conceded:
            data["conceded"] = list(self.conceded)
        return data

    def recorded_as(self, recorded: Any) -> bool:
        """Whether ``recorded`` (a stored result, a logged ``match_end``) is this outcome, as
        written now or, without ``conceded``, as written before (:meth:`earlier_json`)."""
        earlier = isinstance(recorded, Mapping) and "conceded" not in recorded
        return bool(recorded == (self.earlier_json() if earlier else self.to_json()))

    def earlier_json(self) -> dict[str, Any]:
        """This outcome as results were written before they carried tallies (docs/rules.md §7.6):
        no ``conceded``, no deal ``tallies``, equal totals and wins ranked by seat number."""
        won = [sum(hand.winner == seat for hand in self.hands) for seat in range(len(self.totals))]
        return Outcome(
            hands=tuple(
                HandOutcome(hand.number, hand.points, hand.winner, hand.placings, hand.teams)
                for hand in self.hands
            ),
            totals=self.totals,
            ranking=tuple(sorted(self.ranking, key=lambda s: (-self.totals[s], -won[s], s))),
        ).to_json()

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Outcome:
        return cls(
            hands=tuple(HandOutcome.from_json(hand) for hand in data["hands"]),
            totals=tuple(data["totals"]),
            ranking=tuple(data["ranking"]),
            conceded=tuple(data.get("conceded", ())),
        )


def solo_teams(players: int) -> tuple[tuple[int, ...], ...]:
    """Every seat on its own side."""
    return tuple((seat,) for seat in range(players))


class GameState(Protocol):
    """What the service needs from a game. Both engines implement it."""

    @property
    def game(self) -> str:
        """``"shedding"`` or ``"abbott"``."""

    @property
    def to_move(self) -> int | None:
        """The seat whose action is expected now; ``None`` while waiting for a deal or when over."""

    @property
    def turn_id(self) -> tuple[int, int]:
        """(deal or hand number, a count of its turns): changes exactly when a new turn begins, also
        when the same seat moves again (after a skip in a two-player game). The service restarts
        turn clocks on this, not on ``to_move``."""

    @property
    def needs_deal(self) -> bool:
        """True before the first deal and between deals / hands of a match that is not over."""

    @property
    def is_over(self) -> bool:
        """True when the whole match (all deals, or the game to its target) is finished."""

    def deal(self, seed: bytes, layout: Mapping[str, Any] | None = None) -> list[Event]:
        """Start the next deal (or hand) from the secret ``seed``, or from an explicit ``layout``."""

    def legal_actions(self) -> list[Action]:
        """Every action the seat to move may take now (empty when nobody is to move)."""

    def apply(self, action: Mapping[str, Any]) -> list[Event]:
        """Apply the action of the seat to move; raise InvalidAction / IllegalMove and change nothing."""

    def default_action(self) -> Action:
        """The action a turn clock takes for the seat to move when its time runs out."""

    def view(self, seat: int | None) -> dict[str, Any]:
        """Everything ``seat`` may know (``None``: a spectator), JSON-ready."""

    def outcome(self) -> Outcome | None:
        """The game-independent outcome once the match is over, else ``None``."""

    def copy(self) -> Self:
        """An independent copy, cheap enough for search."""

    def to_dict(self) -> dict[str, Any]:
        """A versioned JSON-ready form of the whole state, hidden parts included (server-side only)."""
