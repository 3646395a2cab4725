"""The state of a game of Abbott's Switch: what is stored, what follows from it, and its saved form.

Cards are ints (switchgame.cards); squares are flat indices ``row * size + col`` inside the engine
and ``[row, col]`` at the edges (actions, views, events). :class:`AbbottState` holds the stored
fields and the caches derived from them (never stored); the rules that change it are
:class:`switchgame.abbott.game.AbbottGame`'s.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self

from switchgame.abbott.poker import HandRank, Key, evaluate
from switchgame.abbott.scoring import Alliance, control_threshold, controls
from switchgame.cards import card_code, parse_card

FORMAT = 1
EMPTY = -1  # a grid square without a card; also "no piece" in the occupancy array

GRID_SIZE = {4: 6, 2: 5}
# Each piece starts on the card at the left end of the row or column nearest its owner (docs/rules.md §4.2).
START_SQUARES: dict[int, tuple[tuple[int, int], ...]] = {
    4: ((5, 0), (0, 0), (0, 5), (5, 5)),
    2: ((4, 0), (0, 4)),
}

DEAL, PLAY, OVER = "deal", "play", "over"
GRID_EMPTY, UNREACHABLE, UNBEATABLE, AGREED = "grid_empty", "unreachable", "unbeatable", "agreed"

_RAYS: dict[int, list[tuple[tuple[int, ...], ...]]] = {}


def _rays(size: int) -> list[tuple[tuple[int, ...], ...]]:
    """For each square, the four lines of squares leading away from it (north, south, west, east)."""
    if size not in _RAYS:
        rays: list[tuple[tuple[int, ...], ...]] = []
        for sq in range(size * size):
            r, c = divmod(sq, size)
            rays.append(
                (
                    tuple(rr * size + c for rr in range(r - 1, -1, -1)),
                    tuple(rr * size + c for rr in range(r + 1, size)),
                    tuple(r * size + cc for cc in range(c - 1, -1, -1)),
                    tuple(r * size + cc for cc in range(c + 1, size)),
                )
            )
        _RAYS[size] = rays
    return _RAYS[size]


class AbbottState:
    """The stored state of one game of Abbott's Switch, and the caches that follow from it.

    ``to_move`` is the seat that must act now; under the 16-or-more rule that is the controlling
    partner, while ``piece_to_move`` names whose piece (and whose hand) the move is for. While a seat
    whose piece its partner moves is asked to agree to end the hand (``asked``), it is that seat.
    """

    game = "abbott"

    __slots__ = (
        "_best",
        "_controls",
        "_left",
        "_occ",
        "_potential",
        "_rays",
        "alliance",
        "asked",
        "captured",
        "control_threshold",
        "first_mover",
        "grid",
        "hand",
        "history",
        "phase",
        "pieces",
        "players",
        "proposed",
        "ruleset",
        "size",
        "target",
        "totals",
        "turn",
        "turns_begun",
        "turns_taken",
        "unused",
        "winner",
    )

    def __init__(self, ruleset: str, players: int, target: int) -> None:
        if players not in GRID_SIZE:
            raise ValueError(f"Abbott's Switch is played by 2 or 4 players, not {players}")
        self.ruleset = ruleset
        self.players = players
        self.size = GRID_SIZE[players]
        self.target = target
        self.control_threshold = control_threshold(target)
        self.totals = [0] * players
        self.history: list[dict[str, Any]] = []
        self.hand = 0
        self.phase = DEAL
        self.winner: int | None = None
        self.grid = [EMPTY] * (self.size * self.size)
        self.pieces = [r * self.size + c for r, c in START_SQUARES[players]]
        self.captured: list[list[int]] = [[] for _ in range(players)]
        self.unused: list[int] = []
        self.first_mover = 0
        self.turn = 0
        self.turns_taken = 0  # turns completed in this hand: the blocked dealer's rule counts them
        self.turns_begun = 0  # turns begun, questions to agree included: the turn clock's count
        self.alliance: Alliance | None = None
        self.proposed = [False] * players
        self.asked: int | None = None
        self._rebuild()

    # ----------------------------------------------------------------- derived state (never stored)

    def _rebuild(self) -> None:
        """Recompute the caches that follow from the stored state."""
        self._rays = _rays(self.size)
        self._occ = [EMPTY] * (self.size * self.size)
        for seat, sq in enumerate(self.pieces):
            self._occ[sq] = seat
        self._left = sum(1 for c in self.grid if c != EMPTY)
        self._best: list[tuple[Key, list[int]]] = [evaluate(cards) for cards in self.captured]
        # Each seat's best possible hand (its cards plus the whole grid), computed when needed.
        self._potential: list[tuple[Key, list[int]] | None] = [None] * self.players
        self._set_controls()

    def _set_controls(self) -> None:
        # An alliance lasts for its hand only; between hands every seat moves its own piece.
        alliance = self.alliance if self.phase == PLAY else None
        self._controls = controls(self.totals, alliance, self.control_threshold)

    # ------------------------------------------------------------------------------- the protocol

    @property
    def to_move(self) -> int | None:
        if self.phase != PLAY:
            return None
        return self.asked if self.asked is not None else self._controls[self.turn]

    @property
    def turn_id(self) -> tuple[int, int]:
        return (self.hand, self.turns_begun)

    @property
    def piece_to_move(self) -> int | None:
        """Whose piece moves now (its owner takes the card), or ``None`` outside a hand."""
        return self.turn if self.phase == PLAY else None

    @property
    def needs_deal(self) -> bool:
        return self.phase == DEAL

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    @property
    def dealer(self) -> int:
        """The last seat of the first round of the current hand (docs/rules.md §4.3)."""
        return (self.first_mover - 1) % self.players

    def copy(self) -> Self:
        other = object.__new__(type(self))
        for name in AbbottState.__slots__:  # a subclass adds no slots of its own
            setattr(other, name, getattr(self, name))
        # Lists that change in place get their own copies; tuples, the history's records and the
        # caches' entries are never mutated, so they are shared.
        for name in ("totals", "history", "grid", "pieces", "unused", "proposed"):
            setattr(other, name, list(getattr(self, name)))
        other.captured = [list(cards) for cards in self.captured]
        other._occ = list(self._occ)
        other._best = list(self._best)
        other._potential = list(self._potential)
        other._controls = list(self._controls)
        return other

    def to_dict(self) -> dict[str, Any]:
        """The whole state, JSON-ready and versioned (``"format": 1``); the unused cards included."""
        return {
            "format": FORMAT,
            "game": self.game,
            "ruleset": self.ruleset,
            "players": self.players,
            "target": self.target,
            "phase": self.phase,
            "hand": self.hand,
            "totals": list(self.totals),
            "history": [dict(record) for record in self.history],
            "winner": self.winner,
            "grid": self.grid_rows(),
            "pieces": self.piece_squares(),
            "captured": [[card_code(c) for c in cards] for cards in self.captured],
            "unused": [card_code(c) for c in self.unused],
            "first_mover": self.first_mover,
            "turn": self.turn,
            "turns_taken": self.turns_taken,
            "turns_begun": self.turns_begun,
            "alliance": list(self.alliance) if self.alliance else None,
            "proposed": list(self.proposed),
            "asked": self.asked,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        if data.get("format") != FORMAT or data.get("game") != cls.game:
            raise ValueError(f"not an Abbott's Switch state of format {FORMAT}")
        game = cls(data["ruleset"], data["players"], data["target"])
        game.phase = data["phase"]
        game.hand = data["hand"]
        game.totals = list(data["totals"])
        game.history = [dict(record) for record in data["history"]]
        game.winner = data["winner"]
        game.grid = [
            EMPTY if code is None else parse_card(code) for row in data["grid"] for code in row
        ]
        game.pieces = [r * game.size + c for r, c in data["pieces"]]
        game.captured = [[parse_card(code) for code in cards] for cards in data["captured"]]
        game.unused = [parse_card(code) for code in data["unused"]]
        game.first_mover = data["first_mover"]
        game.turn = data["turn"]
        game.turns_taken = data["turns_taken"]
        # States saved before questions to agree existed: no question, one turn begun per turn.
        game.turns_begun = data.get("turns_begun", game.turns_taken)
        alliance = data["alliance"]
        game.alliance = (alliance[0], alliance[1]) if alliance else None
        game.proposed = list(data["proposed"])
        game.asked = data.get("asked")
        game._rebuild()
        return game

    # ------------------------------------------------------------------- what follows from it

    def best_hand_json(self, seat: int) -> dict[str, Any]:
        """The seat's current best hand as the view shows it: category name and cards."""
        best = HandRank(*self._best[seat])
        return {"category": best.category, "cards": [card_code(c) for c in best.cards]}

    def targets(self, seat: int) -> list[int]:
        occ = self._occ
        targets = []
        for ray in self._rays[self.pieces[seat]]:
            for sq in ray:
                if occ[sq] != EMPTY:
                    break
                targets.append(sq)
        return targets

    def card_reachable(self) -> bool:
        """Can some piece still reach some card on the grid?

        Only pieces block, so every group of connected empty-of-pieces squares borders some piece,
        which can step into it and then go anywhere in it: a card no piece stands on is always
        reachable. A card under a piece is reachable when that piece can move (it steps off; then it
        or another piece can come back), so the hand can only end this way when every card left lies
        under a piece that is completely blocked (docs/rules.md §4.8).
        """
        under = [seat for seat, sq in enumerate(self.pieces) if self.grid[sq] != EMPTY]
        if self._left > len(under):
            return True
        return any(self.targets(seat) for seat in under)

    def outcome_settled(self) -> bool:
        """Can the leading hand no longer be beaten (docs/rules.md §4.8)?

        A seat's best possible hand is its cards plus every card on the grid. The hand is settled
        when no other player's best possible hand *beats* the best current hand, as the rule says:
        a rival who can at most tie it does not keep the hand going, and a single leader then wins
        it. With several seats sharing the best hand, each of them is "another player" to the
        others: while one of them can still improve, the tie can still be broken and play goes on;
        once none can, and nobody else can beat it, the tie (which scores nothing) is certain.
        """
        top, leaders = self.leaders()
        sole_leader = leaders[0] if len(leaders) == 1 else None
        return all(self.potential_key(s) <= top for s in range(self.players) if s != sole_leader)

    def potential_key(self, seat: int) -> Key:
        potential = self._potential[seat]
        if potential is None:
            grid_cards = [c for c in self.grid if c != EMPTY]
            potential = evaluate(self.captured[seat] + grid_cards)
            self._potential[seat] = potential
        return potential[0]

    def leaders(self) -> tuple[Key, list[int]]:
        """The best current hand and the seats that hold it."""
        top = max(best[0] for best in self._best)
        return top, [s for s, best in enumerate(self._best) if best[0] == top]

    # ------------------------------------------------------------------------------ coordinates

    def coordinates(self, sq: int) -> list[int]:
        return list(divmod(sq, self.size))

    def grid_rows(self) -> list[list[str | None]]:
        size = self.size
        return [
            [card_code(c) if c != EMPTY else None for c in self.grid[r * size : (r + 1) * size]]
            for r in range(size)
        ]

    def piece_squares(self) -> list[list[int]]:
        return [self.coordinates(sq) for sq in self.pieces]
