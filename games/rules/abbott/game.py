"""The rules engine of Abbott's Switch (Robert Abbott, 1963; docs/rules.md §4 and §5.4).

A game is a sequence of hands played to a target total. In each hand the cards lie face up on a
square grid, the pieces move like rooks (never onto or over another piece, across empty squares
freely) and take the card they land on; a player may form one alliance per hand; the hand ends when
the grid is empty, when no piece can reach a card, when the outcome is settled, or by agreement; the
best five-card poker hand wins it. The decisions where the source is silent are in docs/rules.md §7.7.

Cards are ints (games.rules.cards); squares are flat indices ``row * size + col`` inside the engine
and ``[row, col]`` at the edges (actions, views, events). Everything here is perfect information except
the cards left out of the layout, which no view shows.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self

from games.rules.abbott.poker import VALUE_OF, HandRank, Key, evaluate
from games.rules.abbott.scoring import (
    Alliance,
    control_threshold,
    controls,
    game_winner,
    hand_scores,
)
from games.rules.cards import InvalidCard, card_code, make_deck, parse_card
from games.rules.protocol import (
    Action,
    Event,
    HandOutcome,
    IllegalMove,
    InvalidAction,
    InvalidLayout,
    Outcome,
    solo_teams,
)
from games.rules.shuffle import DealRng

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

_ACTION_FIELDS = {
    "move": frozenset({"action", "to"}),
    "ally": frozenset({"action", "partner"}),
    "pass": frozenset({"action"}),
    "propose_end": frozenset({"action"}),
    "decline_end": frozenset({"action"}),
}
_IGNORED_FIELDS = frozenset({"expected_version"})  # checked by the service, not the rules

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


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class AbbottGame:
    """The state of one game of Abbott's Switch; implements games.rules.protocol.GameState.

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

    def deal(self, seed: bytes, layout: Mapping[str, Any] | None = None) -> list[Event]:
        """Deal the next hand: the first 36 (25) cards of the shuffled deck row by row, or ``layout``.

        ``layout`` is ``{"grid": [[code or None, ...], ...]}`` with one row per grid row; squares
        given as ``None`` are empty, and cards not on the grid are left out of the hand.
        """
        if self.phase != DEAL:
            raise IllegalMove("the game is over" if self.phase == OVER else "a hand is in play")
        cells = self.size * self.size
        if layout is None:
            deck = make_deck()
            DealRng(seed).shuffle(deck)
            grid, unused = deck[:cells], deck[cells:]
        else:
            grid = self._parse_layout(layout)
            placed = set(grid)
            unused = [c for c in make_deck() if c not in placed]
        self.hand += 1
        self.first_mover = (self.hand - 1) % self.players
        self.grid = grid
        self.unused = unused
        self.pieces = [r * self.size + c for r, c in START_SQUARES[self.players]]
        self.captured = [[] for _ in range(self.players)]
        self.turn = self.first_mover
        self.turns_taken = 0
        self.turns_begun = 0
        self.alliance = None
        self.proposed = [False] * self.players
        self.asked = None
        self.phase = PLAY
        self._rebuild()
        data = {
            "hand": self.hand,
            "first_mover": self.first_mover,
            "dealer": self.dealer,
            "grid": self._grid_rows(),
            "pieces": self._piece_squares(),
            # A fixed layout is not a shuffle: there is nothing for a checker to re-create.
            "from_layout": layout is not None,
        }
        events = [Event("deal", None, data)]
        self._check_end(events)
        return events

    def legal_actions(self) -> list[Action]:
        if self.phase != PLAY:
            return []
        if self.asked is not None:
            return [{"action": "propose_end"}, {"action": "decline_end"}]
        targets = self._moves(self.turn)
        actions: list[Action] = [{"action": "move", "to": self._square(t)} for t in targets]
        if not targets:
            actions.append({"action": "pass"})
        if self._can_ally():
            chooser = self.turn
            actions.extend(
                {"action": "ally", "partner": p} for p in range(self.players) if p != chooser
            )
        if not self.proposed[self._controls[self.turn]]:
            actions.append({"action": "propose_end"})
        return actions

    def apply(self, action: Mapping[str, Any]) -> list[Event]:
        """Apply the action of the seat to move (``to_move``).

        Raises InvalidAction for a malformed action and IllegalMove (with a reason for the player)
        for one the rules do not allow now; either way nothing changes.
        """
        name = self._check_shape(action)
        if self.phase != PLAY:
            raise IllegalMove(
                "the game is over" if self.phase == OVER else "the hand is over: no hand is in play"
            )
        if self.asked is not None:
            if name == "decline_end":
                return self._decline_end()
            if name != "propose_end":
                raise IllegalMove(
                    f"seat {self.asked} is asked to agree to end the hand: "
                    "propose_end agrees, decline_end refuses"
                )
        elif name == "decline_end":
            raise IllegalMove("nobody has been asked to agree to end the hand")
        if name == "move":
            return self._move(action["to"])
        if name == "pass":
            return self._pass()
        if name == "ally":
            return self._ally(action["partner"])
        return self._propose_end()

    def default_action(self) -> Action:
        """The move that most improves the hand of the piece's owner (ties: the highest card
        taken, then the first such square); ``pass`` when blocked; ``decline_end`` for a seat asked
        to agree to end the hand (a clock never agrees for a player)."""
        if self.phase != PLAY:
            raise IllegalMove("nobody is to move")
        if self.asked is not None:
            return {"action": "decline_end"}
        seat = self.turn
        current = self._best[seat][0]
        cards = self.captured[seat]
        best_target = -1
        best_score: tuple[Key, int] | None = None
        for t in self._moves(seat):
            taken = self.grid[t]
            if taken == EMPTY:
                score = (current, 0)
            else:
                score = (evaluate([*cards, taken])[0], VALUE_OF[taken])
            if best_score is None or score > best_score:
                best_target, best_score = t, score
        if best_target < 0:
            return {"action": "pass"}
        return {"action": "move", "to": self._square(best_target)}

    def view(self, seat: int | None) -> dict[str, Any]:
        """Everything about the game, JSON-ready; only ``legal_moves`` depends on ``seat``.
        ``result`` is the outcome (``Outcome.to_json()``) once the game is won, else ``None``."""
        in_play = self.phase == PLAY
        outcome = self.outcome()
        return {
            "game": self.game,
            "ruleset": self.ruleset,
            "players": self.players,
            "size": self.size,
            "target": self.target,
            "control_threshold": self.control_threshold,
            "hand": self.hand,
            "first_mover": self.first_mover if self.hand else None,
            "dealer": self.dealer if self.hand else None,
            "grid": self._grid_rows(),
            "pieces": self._piece_squares(),
            "seats": [
                {
                    "seat": s,
                    "cards": [card_code(c) for c in self.captured[s]],
                    "best_hand": self.best_hand_json(s),
                    "total": self.totals[s],
                    "proposed_end": self.proposed[s],
                }
                for s in range(self.players)
            ],
            "consent_asked": self.asked,
            "alliance": (
                {"chooser": self.alliance[0], "chosen": self.alliance[1]} if self.alliance else None
            ),
            "totals": list(self.totals),
            "controls": list(self._controls),
            "to_move": self.to_move,
            "piece_to_move": self.piece_to_move,
            "legal_moves": self.legal_actions() if in_play and seat == self.to_move else [],
            "result": outcome.to_json() if outcome else None,
        }

    def outcome(self) -> Outcome | None:
        """Once the game is won: every hand's scores, winner, placings and sides, and the totals."""
        if self.phase != OVER:
            return None
        hands_won = [0] * self.players
        hands = []
        for record in self.history:
            if record["winner"] is not None:
                hands_won[record["winner"]] += 1
            alliance = record["alliance"]
            teams = solo_teams(self.players)
            if alliance:
                others = tuple((s,) for s in range(self.players) if s not in alliance)
                teams = (tuple(alliance), *others)
            hands.append(
                HandOutcome(
                    number=record["hand"],
                    points=tuple(record["scores"]),
                    winner=record["winner"],
                    placings=tuple(record["placings"]),
                    teams=teams,
                )
            )
        ranking = sorted(range(self.players), key=lambda s: (-self.totals[s], -hands_won[s], s))
        return Outcome(hands=tuple(hands), totals=tuple(self.totals), ranking=tuple(ranking))

    def copy(self) -> Self:
        other = object.__new__(type(self))
        for name in self.__slots__:
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
            "grid": self._grid_rows(),
            "pieces": self._piece_squares(),
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

    @classmethod
    def from_view(cls, view: Mapping[str, Any], ruleset: str | None = None) -> Self:
        """A state that plays exactly like the one ``view`` was taken from, for search bots.

        The game is perfect information except the unused cards, which no action can reach, so
        they are filled with every card not in sight. ``history`` is left empty: a view does not show
        past hands, so ``outcome()`` of the rebuilt state lists only the hands it goes on to play. ``turns_taken`` is not in the view, and it only matters
        for the blocked dealer's first turn: a card under the dealer's piece means that turn is
        still to come (moving off leaves the card behind, landing takes it, and the blocked dealer
        takes it), so the count is exact then, and any count past the first round is equivalent.
        ``ruleset`` defaults to the view's own.
        """
        game = cls(ruleset or view["ruleset"], view["players"], view["target"])
        players = game.players
        game.hand = view["hand"]
        game.totals = list(view["totals"])
        result = view["result"]
        if result is not None:
            game.phase, game.winner = OVER, result["winner"]
        elif view["to_move"] is None:
            game.phase = DEAL
        else:
            game.phase = PLAY
        game.grid = [
            EMPTY if code is None else parse_card(code) for row in view["grid"] for code in row
        ]
        game.pieces = [r * game.size + c for r, c in view["pieces"]]
        game.captured = [[parse_card(code) for code in seat["cards"]] for seat in view["seats"]]
        in_sight = {c for c in game.grid if c != EMPTY}.union(*game.captured)
        game.unused = [c for c in make_deck() if c not in in_sight]
        game.first_mover = view["first_mover"] or 0
        game.turn = view["piece_to_move"] if view["piece_to_move"] is not None else game.first_mover
        into_round = (game.turn - game.first_mover) % players
        dealer_waits = game.grid[game.pieces[(game.first_mover - 1) % players]] != EMPTY
        game.turns_taken = into_round if dealer_waits else players + into_round
        game.turns_begun = game.turns_taken
        alliance = view["alliance"]
        game.alliance = (alliance["chooser"], alliance["chosen"]) if alliance else None
        game.proposed = [seat["proposed_end"] for seat in view["seats"]]
        game.asked = view["consent_asked"]
        game._rebuild()
        return game

    # ----------------------------------------------------------------------------- public helpers

    def best_hand_json(self, seat: int) -> dict[str, Any]:
        """The seat's current best hand as the view shows it: category name and cards."""
        best = HandRank(*self._best[seat])
        return {"category": best.category, "cards": [card_code(c) for c in best.cards]}

    # ------------------------------------------------------------------------------- the actions

    def _check_shape(self, action: Mapping[str, Any]) -> str:
        if not isinstance(action, Mapping):
            raise InvalidAction("an action is a JSON object")
        name = action.get("action")
        if not isinstance(name, str) or name not in _ACTION_FIELDS:
            raise InvalidAction(
                f"unknown action {name!r}; Abbott's Switch has {', '.join(_ACTION_FIELDS)}"
            )
        extra = set(action) - _ACTION_FIELDS[name] - _IGNORED_FIELDS
        if extra:
            raise InvalidAction(f"unexpected field {sorted(extra)[0]!r} in a {name} action")
        if name == "move":
            to = action.get("to")
            if not (isinstance(to, list | tuple) and len(to) == 2 and all(map(_is_int, to))):
                raise InvalidAction('a move needs "to": [row, column] (two integers)')
        elif name == "ally" and not _is_int(action.get("partner")):
            raise InvalidAction('an alliance needs "partner": a seat number')
        return name

    def _move(self, to: list[int]) -> list[Event]:
        row, col = to
        size = self.size
        if not (0 <= row < size and 0 <= col < size):
            raise IllegalMove(f"({row},{col}) is not on the {size}×{size} grid")
        seat = self.turn
        src = self.pieces[seat]
        dst = row * size + col
        src_row, src_col = divmod(src, size)
        if dst == src:
            raise IllegalMove("a piece must move at least one square")
        if src_row != row and src_col != col:
            raise IllegalMove(
                f"({src_row},{src_col}) to ({row},{col}) is not along a row or a column"
            )
        if self._occ[dst] != EMPTY:
            raise IllegalMove(f"the piece of seat {self._occ[dst]} stands on ({row},{col})")
        if any(self._occ[sq] != EMPTY for sq in _between(src, dst, size)):
            raise IllegalMove(f"a piece stands between ({src_row},{src_col}) and ({row},{col})")

        actor = self._controls[seat]
        taken = self.grid[dst]
        self._occ[src] = EMPTY
        self._occ[dst] = seat
        self.pieces[seat] = dst
        if taken != EMPTY:
            self._take(seat, dst)
        data = {
            "seat": actor,
            "piece": seat,
            "from": [src_row, src_col],
            "to": [row, col],
            "card": card_code(taken) if taken != EMPTY else None,
        }
        events = [Event("move", actor, data)]
        self._end_turn(events)
        return events

    def _pass(self) -> list[Event]:
        seat = self.turn
        if self._moves(seat):
            raise IllegalMove("only a piece that cannot move passes; this one can move")
        actor = self._controls[seat]
        square = self.pieces[seat]
        taken = self.grid[square]
        # Turns go round from the first mover, so turn n-1 of the hand is the dealer's first turn;
        # a dealer completely blocked then takes the card he stands on (docs/rules.md §4.5).
        dealer_exception = self.turns_taken == self.players - 1 and taken != EMPTY
        if dealer_exception:
            self._take(seat, square)
        data = {
            "seat": actor,
            "piece": seat,
            "card": card_code(taken) if dealer_exception else None,
        }
        events = [Event("pass", actor, data)]
        self._end_turn(events)
        return events

    def _can_ally(self) -> bool:
        return self.players == 4 and self.alliance is None

    def _ally(self, partner: int) -> list[Event]:
        chooser = self.turn
        if self.players != 4:
            raise IllegalMove("there are no alliances in the two-player game")
        if self.alliance is not None:
            raise IllegalMove("an alliance has already been formed this hand")
        if not 0 <= partner < self.players:
            raise IllegalMove(f"there is no seat {partner}")
        if partner == chooser:
            raise IllegalMove("you cannot choose yourself as a partner")
        self.alliance = (chooser, partner)
        self._set_controls()
        self._withdraw_proposals()
        data = {"chooser": chooser, "chosen": partner, "controls": list(self._controls)}
        return [Event("ally", chooser, data)]

    def _propose_end(self) -> list[Event]:
        actor = self.to_move
        assert actor is not None
        if self.proposed[actor]:
            raise IllegalMove("you have already proposed to end this hand")
        self.proposed[actor] = True
        self.asked = None
        events = [Event("propose_end", actor, {"seat": actor, "proposed": list(self.proposed)})]
        # Ending by agreement needs every player (docs/rules.md §4.8), also one whose piece his 16+
        # partner moves. Such a seat is never to move in the hand, so it cannot propose on a turn of
        # its own: once every seat that acts has proposed, the engine asks it (a new turn for the
        # turn clock), and it agrees with propose_end or refuses with decline_end.
        waiting = [s for s in range(self.players) if not self.proposed[s]]
        if not waiting:
            self._finish_hand(AGREED, events)
        elif all(self.proposed[s] for s in set(self._controls)):
            self.asked = waiting[0]
            self.turns_begun += 1
            events.append(Event("consent_asked", self.asked, {"seat": self.asked}))
        return events

    def _decline_end(self) -> list[Event]:
        """The asked seat refuses: the attempt to agree fails, every proposal lapses, and the turn
        that was interrupted goes on (as a new turn for the turn clock)."""
        seat = self.asked
        self.asked = None
        self._withdraw_proposals()
        self.turns_begun += 1
        return [Event("decline_end", seat, {"seat": seat, "proposed": list(self.proposed)})]

    # ------------------------------------------------------------------------------ the mechanics

    def _moves(self, seat: int) -> list[int]:
        occ = self._occ
        targets = []
        for ray in self._rays[self.pieces[seat]]:
            for sq in ray:
                if occ[sq] != EMPTY:
                    break
                targets.append(sq)
        return targets

    def _take(self, seat: int, square: int) -> None:
        """Move the card on ``square`` into the seat's hand and keep the caches true."""
        card = self.grid[square]
        self.grid[square] = EMPTY
        self._left -= 1
        self.captured[seat].append(card)
        before = self._best[seat][0]
        self._best[seat] = evaluate(self.captured[seat])
        if self._best[seat][0] != before:
            self._withdraw_proposals()
        # The taker's cards plus the grid are unchanged; anyone else's best possible hand only
        # changes if it was built with this card.
        for other, potential in enumerate(self._potential):
            if other != seat and potential is not None and card in potential[1]:
                self._potential[other] = None

    def _withdraw_proposals(self) -> None:
        """An agreement to end is about the standing it was made in: a new best hand or an
        alliance changes that, so every proposal lapses."""
        if any(self.proposed):
            self.proposed = [False] * self.players

    def _end_turn(self, events: list[Event]) -> None:
        self.turns_taken += 1
        self.turns_begun += 1
        self.turn = (self.turn + 1) % self.players
        self._check_end(events)

    def _check_end(self, events: list[Event]) -> None:
        if self._left == 0:
            self._finish_hand(GRID_EMPTY, events)
        elif not self._card_reachable():
            self._finish_hand(UNREACHABLE, events)
        elif self._outcome_settled():
            self._finish_hand(UNBEATABLE, events)

    def _card_reachable(self) -> bool:
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
        return any(self._moves(seat) for seat in under)

    def _outcome_settled(self) -> bool:
        """Can the leading hand no longer be beaten (docs/rules.md §4.8)?

        A seat's best possible hand is its cards plus every card on the grid. The hand is settled
        when no other player's best possible hand *beats* the best current hand, as the rule says:
        a rival who can at most tie it does not keep the hand going, and a single leader then wins
        it. With several seats sharing the best hand, each of them is "another player" to the
        others: while one of them can still improve, the tie can still be broken and play goes on;
        once none can, and nobody else can beat it, the tie (which scores nothing) is certain.
        """
        top, leaders = self._leaders()
        sole_leader = leaders[0] if len(leaders) == 1 else None
        return all(self._potential_key(s) <= top for s in range(self.players) if s != sole_leader)

    def _potential_key(self, seat: int) -> Key:
        potential = self._potential[seat]
        if potential is None:
            grid_cards = [c for c in self.grid if c != EMPTY]
            potential = evaluate(self.captured[seat] + grid_cards)
            self._potential[seat] = potential
        return potential[0]

    def _leaders(self) -> tuple[Key, list[int]]:
        """The best current hand and the seats that hold it."""
        top = max(best[0] for best in self._best)
        return top, [s for s, best in enumerate(self._best) if best[0] == top]

    def _finish_hand(self, reason: str, events: list[Event]) -> None:
        _, leaders = self._leaders()
        hand_winner = leaders[0] if len(leaders) == 1 else None
        scores = hand_scores(self.players, hand_winner, self.alliance)
        self.totals = [t + s for t, s in zip(self.totals, scores, strict=True)]
        alliance = list(self.alliance) if self.alliance else None
        placings = sorted(range(self.players), key=lambda s: self._best[s][0], reverse=True)
        self.history.append(
            {
                "hand": self.hand,
                "winner": hand_winner,
                "alliance": alliance,
                "scores": scores,
                "placings": placings,
            }
        )
        data = {
            "hand": self.hand,
            "winner": hand_winner,
            "reason": reason,
            "best_hands": [self.best_hand_json(s) for s in range(self.players)],
            "alliance": {"chooser": alliance[0], "chosen": alliance[1]} if alliance else None,
            "scores": scores,
            "totals": list(self.totals),
        }
        events.append(Event("hand_end", None, data))
        self.winner = game_winner(self.totals, self.target)
        if self.winner is None:
            self.phase = DEAL
        else:
            self.phase = OVER
            outcome = self.outcome()
            assert outcome is not None
            events.append(Event("match_end", None, outcome.to_json()))
        self._set_controls()

    # ------------------------------------------------------------------------------------ helpers

    def _square(self, sq: int) -> list[int]:
        return list(divmod(sq, self.size))

    def _grid_rows(self) -> list[list[str | None]]:
        size = self.size
        return [
            [card_code(c) if c != EMPTY else None for c in self.grid[r * size : (r + 1) * size]]
            for r in range(size)
        ]

    def _piece_squares(self) -> list[list[int]]:
        return [self._square(sq) for sq in self.pieces]

    def _parse_layout(self, layout: Mapping[str, Any]) -> list[int]:
        size = self.size
        if not isinstance(layout, Mapping) or set(layout) != {"grid"}:
            raise InvalidLayout('an Abbott layout is {"grid": [[code or null, ...], ...]}')
        rows = layout["grid"]
        if (
            not isinstance(rows, list | tuple)
            or len(rows) != size
            or not all(isinstance(row, list | tuple) and len(row) == size for row in rows)
        ):
            raise InvalidLayout(f"the grid must be {size} rows of {size} squares")
        grid = []
        for row in rows:
            for code in row:
                if code is None:
                    grid.append(EMPTY)
                    continue
                try:
                    card = parse_card(code)
                except InvalidCard as exc:
                    raise InvalidLayout(str(exc)) from None
                if card >= 52:
                    raise InvalidLayout("Abbott's Switch is played without jokers")
                if card in grid:
                    raise InvalidLayout(f"{card_code(card)} is on the grid twice")
                grid.append(card)
        return grid


def _between(src: int, dst: int, size: int) -> range:
    """The squares strictly between two squares of one row or column."""
    step = 1 if abs(dst - src) < size and src // size == dst // size else size
    if dst < src:
        step = -step
    return range(src + step, dst, step)
