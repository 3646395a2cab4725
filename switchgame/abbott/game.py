"""The rules engine of Abbott's Switch (Robert Abbott, 1963; docs/rules.md §4 and §5.4).

A game is a sequence of hands played to a target total. In each hand the cards lie face up on a
square grid, the pieces move like rooks (never onto or over another piece, across empty squares
freely) and take the card they land on; a player may form one alliance per hand; the hand ends when
the grid is empty, when no piece can reach a card, when the outcome is settled, or by agreement; the
best five-card poker hand wins it. The decisions where the source is silent are in docs/rules.md §7.7.

Everything is perfect information except the cards left out of the layout, which no view shows.
The package is split as the shedding game is: the stored state (``state``), the shapes of actions
and layouts (``actions``), what may be done now (``legal``), and here the rules that change the
state and what a seat sees of it (its view).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self

from switchgame.abbott import legal
from switchgame.abbott.actions import action_name, layout_grid
from switchgame.abbott.poker import evaluate
from switchgame.abbott.scoring import game_winner, hand_scores
from switchgame.abbott.state import (
    AGREED,
    DEAL,
    EMPTY,
    GRID_EMPTY,
    OVER,
    PLAY,
    START_SQUARES,
    UNBEATABLE,
    UNREACHABLE,
    AbbottState,
)
from switchgame.cards import card_code, make_deck, parse_card
from switchgame.protocol import Action, Event, HandOutcome, IllegalMove, Outcome, solo_teams
from switchgame.shuffle import DealRng
from switchgame.words import N_


class AbbottGame(AbbottState):
    """One game of Abbott's Switch; implements switchgame.protocol.GameState.

    ``to_move`` is the seat that must act now; under the 16-or-more rule that is the controlling
    partner, while ``piece_to_move`` names whose piece (and whose hand) the move is for. While a seat
    whose piece its partner moves is asked to agree to end the hand (``asked``), it is that seat.
    """

    __slots__ = ()

    def deal(self, seed: bytes, layout: Mapping[str, Any] | None = None) -> list[Event]:
        """Deal the next hand: the first 36 (25) cards of the shuffled deck row by row, or ``layout``.

        ``layout`` is ``{"grid": [[code or None, ...], ...]}`` with one row per grid row; squares
        given as ``None`` are empty, and cards not on the grid are left out of the hand.
        """
        if self.phase != DEAL:
            raise IllegalMove(
                N_("the game is over") if self.phase == OVER else N_("a hand is in play")
            )
        cells = self.size * self.size
        if layout is None:
            deck = make_deck()
            DealRng(seed).shuffle(deck)
            grid, unused = deck[:cells], deck[cells:]
        else:
            grid = layout_grid(layout, self.size)
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
            "grid": self.grid_rows(),
            "pieces": self.piece_squares(),
            # A fixed layout is not a shuffle: there is nothing for a checker to re-create.
            "from_layout": layout is not None,
        }
        events = [Event("deal", None, data)]
        self._check_end(events)
        return events

    def legal_actions(self) -> list[Action]:
        return legal.legal_actions(self)

    def apply(self, action: Mapping[str, Any]) -> list[Event]:
        """Apply the action of the seat to move (``to_move``).

        Raises InvalidAction for a malformed action and IllegalMove (with a reason for the player)
        for one the rules do not allow now; either way nothing changes.
        """
        name = action_name(action)
        if self.phase != PLAY:
            raise IllegalMove(
                N_("the game is over")
                if self.phase == OVER
                else N_("the hand is over: no hand is in play")
            )
        if self.asked is not None:
            if name == "decline_end":
                return self._decline_end()
            if name != "propose_end":
                raise IllegalMove(
                    N_(
                        "seat {seat} is asked to agree to end the hand: "
                        "propose_end agrees, decline_end refuses"
                    ),
                    seat=self.asked,
                )
        elif name == "decline_end":
            raise IllegalMove(N_("nobody has been asked to agree to end the hand"))
        if name == "move":
            return self._move(action["to"])
        if name == "pass":
            return self._pass()
        if name == "ally":
            return self._ally(action["partner"])
        return self._propose_end()

    def default_action(self) -> Action:
        """The move that most improves the hand of the piece's owner; ``pass`` when blocked;
        ``decline_end`` for a seat asked to agree to end the hand (:func:`legal.default_action`)."""
        return legal.default_action(self)

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
            "grid": self.grid_rows(),
            "pieces": self.piece_squares(),
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

    @classmethod
    def from_view(cls, view: Mapping[str, Any], ruleset: str | None = None) -> Self:
        """A state that plays exactly like the one ``view`` was taken from, for search bots;
        ``ruleset`` defaults to the view's own.

        The game is perfect information except the unused cards, which no action can reach, so
        they are filled with every card not in sight. ``history`` is left empty: a view does not
        show past hands, so ``outcome()`` of the rebuilt state lists only the hands it goes on to
        play. ``turns_taken`` is not in the view, and it only matters for the blocked dealer's
        first turn: a card under the dealer's piece means that turn is still to come (moving off
        leaves the card behind, landing takes it, and the blocked dealer takes it), so the count
        is exact then, and any count past the first round is equivalent.
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

    # ------------------------------------------------------------------------------- the actions

    def _move(self, to: list[int]) -> list[Event]:
        row, col = to
        size = self.size
        if not (0 <= row < size and 0 <= col < size):
            raise IllegalMove(
                N_("({row},{col}) is not on the {size}×{size} grid"), row=row, col=col, size=size
            )
        seat = self.turn
        src = self.pieces[seat]
        dst = row * size + col
        src_row, src_col = divmod(src, size)
        if dst == src:
            raise IllegalMove(N_("a piece must move at least one square"))
        if src_row != row and src_col != col:
            raise IllegalMove(
                N_("({from_row},{from_col}) to ({row},{col}) is not along a row or a column"),
                from_row=src_row,
                from_col=src_col,
                row=row,
                col=col,
            )
        if self._occ[dst] != EMPTY:
            raise IllegalMove(
                N_("the piece of seat {seat} stands on ({row},{col})"),
                seat=self._occ[dst],
                row=row,
                col=col,
            )
        if any(self._occ[sq] != EMPTY for sq in _between(src, dst, size)):
            raise IllegalMove(
                N_("a piece stands between ({from_row},{from_col}) and ({row},{col})"),
                from_row=src_row,
                from_col=src_col,
                row=row,
                col=col,
            )

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
        if self.targets(seat):
            raise IllegalMove(N_("only a piece that cannot move passes; this one can move"))
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

    def _ally(self, partner: int) -> list[Event]:
        chooser = self.turn
        if self.players != 4:
            raise IllegalMove(N_("there are no alliances in the two-player game"))
        if self.alliance is not None:
            raise IllegalMove(N_("an alliance has already been formed this hand"))
        if not 0 <= partner < self.players:
            raise IllegalMove(N_("there is no seat {seat}"), seat=partner)
        if partner == chooser:
            raise IllegalMove(N_("you cannot choose yourself as a partner"))
        self.alliance = (chooser, partner)
        self._set_controls()
        self._withdraw_proposals()
        data = {"chooser": chooser, "chosen": partner, "controls": list(self._controls)}
        return [Event("ally", chooser, data)]

    def _propose_end(self) -> list[Event]:
        actor = self.to_move
        assert actor is not None
        if self.proposed[actor]:
            raise IllegalMove(N_("you have already proposed to end this hand"))
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

    # ------------------------------------------------------------------------------ the mechanics

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
        elif not self.card_reachable():
            self._finish_hand(UNREACHABLE, events)
        elif self.outcome_settled():
            self._finish_hand(UNBEATABLE, events)

    def _finish_hand(self, reason: str, events: list[Event]) -> None:
        _, leaders = self.leaders()
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


def _between(src: int, dst: int, size: int) -> range:
    """The squares strictly between two squares of one row or column."""
    step = 1 if abs(dst - src) < size and src // size == dst // size else size
    if dst < src:
        step = -step
    return range(src + step, dst, step)
