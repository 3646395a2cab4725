"""The shedding Switch game: dealing, applying actions, and the turn mechanics (docs/rules.md §2, §3).

:class:`SheddingGame` implements ``protocol.GameState`` for every ruleset of :mod:`rulesets`. Its
fields are declared in :mod:`state`; which actions are legal is :mod:`legal`'s business, the
action codec :mod:`actions`'; what a seat sees (its view) is here, beside the state it shows.
Decisions where the sources are silent are in docs/rules.md §7.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Self

from switchgame.cards import (
    CARD_CODES,
    CARD_IDS,
    RANK_OF,
    SUIT_OF,
    SUITS,
    codes,
)
from switchgame.protocol import (
    Action,
    Event,
    IllegalMove,
    Outcome,
)
from switchgame.shedding import legal as legal_moves
from switchgame.shedding.actions import (
    API_FORMS,
    DRAW,
    DRAW_ACTION,
    END_ACTION,
    PLAY,
    SUIT_IDS,
    TUPLE_FORMS,
    ActionTuple,
    SharedAction,
    action_dict,
    parse_action,
)
from switchgame.shedding.dealing import read_layout, turn_starter
from switchgame.shedding.options import Power, check_int
from switchgame.shedding.public_log import (
    history_entry,
    log_draw,
    log_end_turn,
    log_entry,
    log_play,
    log_reshuffle,
    log_skip,
    log_starter,
)
from switchgame.shedding.rulesets import Rules, find_ruleset
from switchgame.shedding.scoring import (
    deal_placings,
    french_tally,
    hand_order,
    match_outcome,
    winner_points,
)
from switchgame.shedding.state import NEEDS_DEAL, OVER, PLAYING, MatchState
from switchgame.shuffle import DealRng
from switchgame.words import N_


def _code_or_none(card_id: int) -> str | None:
    return CARD_CODES[card_id] if card_id >= 0 else None


def _card_or_none(code: str | None) -> int:
    return -1 if code is None else CARD_IDS[code]


# A dataclass too, with MatchState's fields and none of its own: compiled (mypyc), a subclass takes
# no __init__ that the dataclass decorator wrote for its base.
@dataclass(eq=False, repr=False)
class SheddingGame(MatchState):
    """A match of shedding Switch: one or more deals. Implements ``protocol.GameState``."""

    # ------------------------------------------------------------------ protocol properties

    @property
    def to_move(self) -> int | None:
        return self.current if self.phase == PLAYING else None

    @property
    def needs_deal(self) -> bool:
        return self.phase == NEEDS_DEAL

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    @property
    def players(self) -> int:
        return self.rules.players

    @property
    def turn_id(self) -> tuple[int, int]:
        return (self.deal_number, self.turns)

    # ------------------------------------------------------------------ dealing

    def deal(self, seed: bytes, layout: Mapping[str, Any] | None = None) -> list[Event]:
        """Start the next deal from ``seed`` (or an explicit ``layout``, see docs/rules.md §8.2).

        Raises InvalidLayout for a layout that is not a partition of the deck, IllegalMove when no
        deal is due.
        """
        if self.phase != NEEDS_DEAL:
            raise IllegalMove(
                N_("no deal is due: the match is over")
                if self.is_over
                else N_("no deal is due: a deal is in progress")
            )
        rules = self.rules
        n = rules.players
        rng = DealRng(seed)
        first = self.deal_number % n
        if layout is None:
            deck = list(rules.deck)
            rng.shuffle(deck)
            hands: list[list[int]] = [[] for _ in range(n)]
            position = 0
            for _ in range(rules.hand_size):
                for offset in range(n):
                    hands[(first + offset) % n].append(deck[position])
                    position += 1
            stock_top_first = deck[position:]
            starter = None
        else:
            hands, starter, stock_top_first = read_layout(self.rules, layout, rng)
        stock = stock_top_first[::-1]
        if starter is None:
            starter = turn_starter(self.rules, stock)
        self.hands = hands
        self.stock = stock
        self.discard = [starter]
        self.public_log = [log_starter(starter)]
        self.active_suit = SUIT_OF[starter]
        self.direction = -1 if rules.counter_clockwise else 1
        self.current = first
        self.pending_draw = self.pending_skip = 0
        self.pending_card = self.pending_skip_card = -1
        self.skips_owed = [0] * n
        # A hand dealt with one card (layouts only) has had nothing to announce.
        self.announced = [len(hand) == 1 for hand in hands]
        self.out = [False] * n
        self.active = n
        self.finish_order = []
        self.first_out_points = None
        self.stuck = 0
        self.turns = 0
        self.rng = rng
        self.deal_number += 1
        self.phase = PLAYING
        self.reset_turn()
        self._start_turn()
        events = [
            Event(
                "deal",
                None,
                {
                    "deal": self.deal_number,
                    "first": first,
                    # What anyone needs to re-create the deal from its revealed seed (docs/fair-shuffles.md).
                    "decks": rules.decks,
                    "jokers": rules.jokers,
                    "hand_size": rules.hand_size,
                    "from_layout": layout is not None,
                    "direction": self.direction,
                    "starter": CARD_CODES[starter],
                    "active_suit": SUITS[self.active_suit],
                    "hand_counts": [len(h) for h in hands],
                    "stock_count": len(stock),
                },
            )
        ]
        events.extend(
            Event("hand", seat, {"count": len(hand)}, {"cards": codes(hand)})
            for seat, hand in enumerate(hands)
        )
        return events

    # ------------------------------------------------------------------ legal actions

    def legal_actions(self) -> list[Action]:
        """Every action the seat to move may take now, in the API's JSON form: dicts built once and
        shared by every call, so they refuse changes (:class:`~.actions.SharedAction`)."""
        legal = self.legal_actions_cache
        if legal is None:
            legal = [] if self.phase != PLAYING else legal_moves.compute_legal(self, API_FORMS)
            self.legal_actions_cache = legal
        return list(legal)  # the cached list is never changed: the caller gets its own

    def legal_tuples(self) -> list[ActionTuple]:
        legal = self.legal_tuples_cache
        if legal is None:
            legal = self.legal_tuples_cache = legal_moves.compute_legal(self, TUPLE_FORMS)
        return legal

    def default_action(self) -> Action:
        """The turn clock's choice: end the turn, else take the pick-up / draw, else the first play."""
        legal = self.legal_tuples() if self.phase == PLAYING else []
        if not legal:
            raise IllegalMove(N_("nobody is to move"))
        for choice in (END_ACTION, DRAW_ACTION):
            if choice in legal:
                return action_dict(choice)
        return action_dict(legal[0])

    # ------------------------------------------------------------------ applying

    def apply(self, action: Mapping[str, Any]) -> list[Event]:
        """Apply the action of the seat to move (docs/rules.md §2).

        Raises InvalidAction (malformed) or IllegalMove (against the rules; ``reason`` says why) and
        then changes nothing — except that with ``blunder_penalty`` an illegal play makes the player
        draw that many cards instead of raising.
        """
        if type(action) is SharedAction and action in (self.legal_actions_cache or ()):
            return self.apply_tuple(action.move)  # one of this position's legal_actions()
        move = parse_action(action)
        if self.phase != PLAYING:
            raise IllegalMove(N_("no deal is in progress"))
        legal = self.legal_tuples()
        if move not in legal:
            refusal = legal_moves.why_illegal(self, move, legal)
            if move[0] == PLAY and self.rules.blunder_penalty:
                return self._blunder(move, refusal.reason)
            raise refusal
        return self.apply_tuple(move)

    def apply_tuple(self, move: ActionTuple) -> list[Event]:
        """Apply a tuple taken from the current legal actions (for bots and search; not validated)."""
        events: list[Event] = []
        kind = move[0]
        if kind == DRAW:
            # Whichever form of the legal actions is cached says whether drawing was the only one.
            self.turn_forced = len(self.legal_actions_cache or self.legal_tuples()) == 1
        self.legal_tuples_cache = self.legal_actions_cache = None
        if kind == PLAY:
            self._play(move[1], move[2], move[3], events)
        elif kind == DRAW:
            self._draw_action(events)
        else:
            self._end_action(events)
        return events

    def _play(self, card_id: int, suit: int, announce: bool, events: list[Event]) -> None:
        rules = self.rules
        seat = self.current
        hand = self.hands[seat]
        hand.remove(card_id)
        self.discard.append(card_id)
        answering_draw = self.played == 0 and self.pending_draw > 0
        previous = self.last
        self.played += 1
        self.last = card_id
        self.drawn = -1
        self.again = False
        covering, self.must_cover = self.must_cover, False
        data: dict[str, Any] = {"card": CARD_CODES[card_id]}
        if suit >= 0:
            data["suit"] = SUITS[suit]
        if announce:
            data["announce"] = "last_card"
        events.append(Event("play", seat, data))
        self.public_log.append(log_play(seat, card_id, suit, announce))
        if announce:
            self.announced[seat] = True
            events.append(Event("announce", seat, {"cards_left": 1}))
        elif len(hand) == 1 and rules.bars_unannounced_in_turn and not self.announced[seat]:
            self.barred = True  # going out needs an announcement first (docs/rules.md §2, §3)
        if rules.runs and not covering and previous >= 0 and self.run_dir == 0:
            step = RANK_OF[card_id] - RANK_OF[previous]
            if step in (1, -1) and SUIT_OF[card_id] == SUIT_OF[previous] >= 0:
                self.run_dir = step
        p = rules.power[card_id]
        if p is not None and p.names_suit:
            self.active_suit = suit
            events.append(Event("suit", seat, {"suit": SUITS[suit]}))
        elif SUIT_OF[card_id] >= 0:
            self.active_suit = SUIT_OF[card_id]
        if answering_draw:
            self._answer_draw(card_id, p, events)
        elif p is not None and p.draw:
            self._add_draw(card_id, p)
        if p is not None:
            self._apply_power(seat, card_id, p, events)
        if not hand and not self.must_cover:
            self._finish(seat, events)
            return
        if self.must_cover:
            return
        if (
            rules.multi_card == "none"
            and not self.again
            and self.suit_mode < 0
            and (p is None or p.then != "same_rank")
        ) or self.legal_tuples() == [END_ACTION]:
            self._end_turn(events)

    def _add_draw(self, card_id: int, p: Power) -> None:
        self.pending_draw += p.stack_draw if self.pending_draw else p.draw
        self.pending_card = card_id

    def _answer_draw(self, card_id: int, p: Power | None, events: list[Event]) -> None:
        """Stack on or cancel the pending pick-up; answering it also lifts a pending skip."""
        chain = self.rules.power[self.pending_card]
        assert chain is not None
        self.pending_skip = 0
        self.pending_skip_card = -1
        if card_id in chain.stacked_by and p is not None and p.draw:
            self._add_draw(card_id, p)
            events.append(
                Event("penalty", self.current, {"kind": "stack", "draw": self.pending_draw})
            )
            return
        before = self.pending_draw
        self.pending_draw = max(0, before - chain.cancelled_by.get(card_id, 0))
        if not self.pending_draw:
            self.pending_card = -1
        events.append(
            Event(
                "penalty",
                self.current,
                {
                    "kind": "cancel",
                    "cancelled": before - self.pending_draw,
                    "draw": self.pending_draw,
                },
            )
        )
        if p is not None and p.draw:
            self._add_draw(card_id, p)

    def _apply_power(self, seat: int, card_id: int, p: Power, events: list[Event]) -> None:
        if p.skip:
            if p.skip_chain:
                self.pending_skip = self.pending_skip + p.skip if p.skip_chain == "add" else p.skip
                self.pending_skip_card = card_id
            else:
                self.turn_skip += p.skip
        if p.reverse:
            if self.active == 2 and self.rules.two_player_reverse_skips:
                self.turn_skip += 1
                events.append(
                    Event("reverse", seat, {"direction": self.direction, "as_skip": True})
                )
            else:
                self.direction = -self.direction
                events.append(Event("reverse", seat, {"direction": self.direction}))
        then = p.then
        if then == "cover":
            self.must_cover = True
        elif then == "again":
            self.again = True
        elif then == "suit":
            self.suit_mode = self.active_suit

    def _give(self, seat: int, count: int, events: list[Event], reason: str) -> list[int]:
        """Draw up to ``count`` cards for ``seat``, reshuffling the discard pile when needed."""
        drawn: list[int] = []
        stock = self.stock
        for _ in range(count):
            if not stock:
                self._reshuffle(events)
                if not stock:
                    break
            drawn.append(stock.pop())
        self._receive(seat, drawn, events, reason)
        return drawn

    def _receive(self, seat: int, drawn: list[int], events: list[Event], reason: str) -> None:
        hand = self.hands[seat]
        hand.extend(drawn)
        if len(hand) != 1:
            self.announced[seat] = False
            if seat == self.current:
                self.barred = False
        self.turn_drew += len(drawn)
        self.public_log.append(log_draw(seat, len(drawn), reason))
        events.append(
            Event("draw", seat, {"count": len(drawn), "reason": reason}, {"cards": codes(drawn)})
        )

    def _reshuffle(self, events: list[Event]) -> None:
        """Stock exhausted (docs/rules.md §2): the discard pile but its top card becomes the new stock."""
        if len(self.discard) < 2:
            return
        assert self.rng is not None
        # In place: callers hold references to both lists.
        self.stock.extend(self.discard[:-1])
        del self.discard[:-1]
        self.rng.shuffle(self.stock)
        events.append(Event("reshuffle", None, {"count": len(self.stock)}))
        self.public_log.append(log_reshuffle(len(self.stock)))

    def _draw_action(self, events: list[Event]) -> None:
        rules = self.rules
        seat = self.current
        if self.must_cover:
            self._give(seat, 1, events, "cover")
            self.must_cover = False
            self._end_turn(events)
            return
        if self.played == 0 and self.pending_draw:
            amount = self.pending_draw
            if rules.max_draw:
                amount = min(amount, rules.max_draw)
            self.pending_draw = self.pending_skip = 0
            self.pending_card = self.pending_skip_card = -1
            self._give(seat, amount, events, "pick_up")
            self._end_turn(events)
            return
        if self.barred and rules.penalty_draw:
            self._give(seat, rules.penalty_draw, events, "last_card")
            self._end_turn(events)
            return
        rule = rules.draw_rule
        if rule in ("one", "two"):
            self._give(seat, 1 if rule == "one" else 2, events, "draw")
            self._end_turn(events)
            return
        if rule == "one_then_play":
            drawn = self._give(seat, 1, events, "draw")
        else:  # until_playable: one draw event for the whole run of cards
            drawn = []
            stock = self.stock
            while not drawn or not legal_moves.matches(self, drawn[-1]):
                if not stock:
                    self._reshuffle(events)
                    if not stock:
                        break
                drawn.append(stock.pop())
            self._receive(seat, drawn, events, "draw")
        if drawn and legal_moves.matches(self, drawn[-1]):
            self.drawn = drawn[-1]
        else:
            self._end_turn(events)

    def _end_action(self, events: list[Event]) -> None:
        seat = self.current
        events.append(Event("end_turn", seat))  # logged so that the event log replays every action
        self.public_log.append(log_end_turn(seat))
        if self.played == 0 and self.pending_skip and self.drawn < 0:
            # Accepting a chained skip: this turn is the first one missed.
            self.skips_owed[seat] += self.pending_skip - 1
            events.append(Event("skip", seat, {"turns": self.pending_skip}))
            self.public_log.append(log_skip(seat, self.pending_skip))
            self.pending_skip = 0
            self.pending_skip_card = -1
        self._end_turn(events)

    def _end_turn(self, events: list[Event]) -> None:
        seat = self.current
        hand = self.hands[seat]
        if self.played and len(hand) == 1 and not self.announced[seat]:
            self._last_card_penalty(seat, events)
        if self.played or self.turn_drew or not self.turn_forced:
            self.stuck = 0
        else:
            self.stuck += 1
            if self.stuck >= self.active:
                self._end_deal(events, blocked=True)
                return
        turn_skip = self.turn_skip
        self.reset_turn()
        nxt = self._next_seat(seat)
        skips_owed = self.skips_owed
        skips_owed[nxt] += turn_skip
        while skips_owed[nxt]:
            skips_owed[nxt] -= 1
            events.append(Event("skip", nxt, {"turns": 1}))
            self.public_log.append(log_skip(nxt, 1))
            nxt = self._next_seat(nxt)
        self.current = nxt
        self._start_turn()

    def _start_turn(self) -> None:
        seat = self.current
        self.turns += 1
        self.barred = (
            self.rules.penalty_kind == "no_finish"
            and len(self.hands[seat]) == 1
            and not self.announced[seat]
        )

    def _last_card_penalty(self, seat: int, events: list[Event]) -> None:
        """docs/rules.md §2 Last card: the play left one card and the player did not announce it."""
        kind = self.rules.penalty_kind
        if kind == "draw":
            count = self.rules.penalty_draw
            events.append(Event("penalty", seat, {"kind": "last_card", "draw": count}))
            self._give(seat, count, events, "last_card")
        elif kind == "skip_and_draw":
            events.append(Event("penalty", seat, {"kind": "last_card", "draw": 1, "skip": 1}))
            self._give(seat, 1, events, "last_card")
            self.skips_owed[seat] += 1
        # no_finish: the card is barred at the start of the player's next turn (_start_turn).

    def _next_seat(self, seat: int) -> int:
        n = self.rules.players
        nxt = (seat + self.direction) % n
        while self.out[nxt]:
            nxt = (nxt + self.direction) % n
        return nxt

    def _blunder(self, move: ActionTuple, reason: str) -> list[Event]:
        """docs/rules.md §2 Illegal moves with ``blunder_penalty``: the play is taken back, the
        player draws. The play refused is logged, privately (the log names no other action: the
        replay finds a legal one by its events, but an illegal play is not among those it tries)."""
        seat = self.current
        count = self.rules.blunder_penalty
        data = {"kind": "blunder", "draw": count, "reason": reason}
        events = [Event("penalty", seat, data, {"play": action_dict(move)})]
        self._give(seat, count, events, "blunder")
        self.legal_tuples_cache = self.legal_actions_cache = None
        return events

    # ------------------------------------------------------------------ finishing

    def _finish(self, seat: int, events: list[Event]) -> None:
        """``seat`` has no cards left (docs/rules.md §2 Finishing)."""
        self.finish_order.append(seat)
        events.append(Event("finish", seat, {"place": len(self.finish_order)}))
        if self.first_out_points is None:
            self.first_out_points = winner_points(self.hands, seat)
        if not self.rules.one_left:
            self._end_deal(events, blocked=False)
            return
        self.out[seat] = True
        self.active -= 1
        if self.active == 1:
            self._end_deal(events, blocked=False)
        else:
            self._end_turn(events)

    def _holding_seats_in_turn_order(self) -> list[int]:
        """Seats still holding cards, in turn order from the seat to move."""
        seats = []
        seat = self.current if not self.out[self.current] else self._next_seat(self.current)
        for _ in range(self.active):
            if self.hands[seat]:
                seats.append(seat)
            seat = self._next_seat(seat)
        return seats

    def _end_deal(self, events: list[Event], blocked: bool) -> None:
        remaining = self._holding_seats_in_turn_order()
        if self.finish_order:
            winner = self.finish_order[0]
        else:  # blocked before anyone went out: the best hand wins, scored as if it had gone out
            winner = hand_order(self.hands, remaining)[0]
            self.first_out_points = winner_points(self.hands, winner)
        points = [0] * self.rules.players
        points[winner] = self.first_out_points or 0
        summary = {
            "deal": self.deal_number,
            "winner": winner,
            "blocked": blocked,
            "tallies": [french_tally(hand) for hand in self.hands],
            "points": points,
            "placings": deal_placings(self.finish_order, self.hands, remaining),
        }
        self.history.append(summary)
        self.scores[winner] += points[winner]
        self.deals_won[winner] += 1
        self.reset_turn()
        self.pending_draw = self.pending_skip = 0
        self.pending_card = self.pending_skip_card = -1
        self.current = -1
        events.append(Event("deal_end", None, dict(summary)))
        if self.target is not None:
            over = max(self.scores) >= self.target
        else:
            over = self.deal_number >= self.deals
        self.phase = OVER if over else NEEDS_DEAL
        if over:
            outcome = match_outcome(self.rules.players, self.history, self.scores, self.deals_won)
            events.append(Event("match_end", None, outcome.to_json()))

    def outcome(self) -> Outcome | None:
        """Once the match is over: every deal's points, winner and placings, the totals, the ranking."""
        if self.phase != OVER:
            return None
        return match_outcome(self.rules.players, self.history, self.scores, self.deals_won)

    # ------------------------------------------------------------------ views

    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may know (``None``: a spectator): never another seat's cards or the stock.
        The only thing serializers and bots read."""
        n = self.rules.players
        if seat is not None and (
            isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n
        ):
            raise ValueError(f"there is no seat {seat!r}")
        playing = self.phase == PLAYING
        places = {s: i + 1 for i, s in enumerate(self.finish_order)}
        outcome = self.outcome()
        return {
            "game": self.game,
            "ruleset": self.rules.ruleset.name,
            "deal": self.deal_number,
            "to_move": self.to_move,
            "direction": self.direction,
            "top_card": CARD_CODES[self.discard[-1]] if self.discard else None,
            "active_suit": SUITS[self.active_suit] if self.active_suit >= 0 else None,
            # The cards whose powers the pending pick-up and skip answer to decide what answers them.
            "pending": {
                "draw": self.pending_draw,
                "skip": self.pending_skip,
                "draw_card": _code_or_none(self.pending_card),
                "skip_card": _code_or_none(self.pending_skip_card),
            },
            "stock_count": len(self.stock),
            "discard_count": len(self.discard),
            # Public: every card in it was played face up (or turned as the starter) at this table.
            "discard_pile": codes(self.discard),
            "seats": [
                {
                    "seat": s,
                    "hand_count": len(self.hands[s]),
                    "announced": self.announced[s],
                    "finished": places.get(s),
                    "score": self.scores[s],
                    "skips_owed": self.skips_owed[s],
                }
                for s in range(n)
            ],
            "you": None
            if seat is None
            else {
                "seat": seat,
                "hand": codes(self.hands[seat]),
                # A card just drawn that may be played now (one_then_play, until_playable).
                "drawn": _code_or_none(self.drawn) if seat == self.current else None,
            },
            "legal_moves": self.legal_actions() if playing and seat == self.current else [],
            "turn": {
                "played": self.played,
                "last_card": _code_or_none(self.last),
                "must_cover": self.must_cover,
                "suit_mode": SUITS[self.suit_mode] if self.suit_mode >= 0 else None,
                "drew": self.turn_drew,
                "run": self.run_dir,  # a run's direction once it has one: 1 up, -1 down
                "again": self.again,  # "play again": the next card only has to match
                "skips": self.turn_skip,  # turns the next player will miss when this turn ends
                "last_card_barred": self.barred,  # unannounced: the last card may not go now
            },
            "finish_order": list(self.finish_order),
            "history": [history_entry(entry) for entry in self.public_log],  # public_log.py
            "last_deal": dict(self.history[-1]) if self.history else None,
            "result": None if outcome is None else outcome.to_json(),
        }

    @classmethod
    def from_view(
        cls,
        view: Mapping[str, Any],
        rules: Rules,
        hands: list[list[int]],
        stock: list[int],
        seed: bytes,
    ) -> Self:
        """A complete game agreeing with ``view``, the hidden cards filled in by the caller.

        For search over hidden information (ISMCTS): a bot samples the cards it cannot see and plays on
        from here. ``view`` is the view of the seat to move; ``hands`` holds one list of card ids per
        seat (that seat's own as in the view, the others of the viewed sizes) and ``stock`` the stock,
        top card last. Everything else is copied from the view: the discard pile, the pending pick-up
        or skip, the turn so far, the public history. The game holds this deal only — it is the last
        of the match, so a play-out ends with it — and reshuffles with a fresh ``DealRng(seed)``. What
        a view cannot say is reset: the blocked-deal counter, the points of a player already out in
        ``one_left``, past deals. Raises ValueError when the cards are not a partition of the deck that
        fits the view.
        """
        seat = view["to_move"]
        if seat is None or view["you"] is None or view["you"]["seat"] != seat:
            raise ValueError("a game can only be rebuilt from the view of the seat to move")
        n = rules.players
        seats = view["seats"]
        discard = [CARD_IDS[code] for code in view["discard_pile"]]
        if len(hands) != n or any(
            len(hand) != info["hand_count"] for hand, info in zip(hands, seats, strict=True)
        ):
            raise ValueError("the hands do not have the sizes the view shows")
        if sorted(hands[seat]) != sorted(CARD_IDS[code] for code in view["you"]["hand"]):
            raise ValueError("the seat to move must hold the hand its view shows")
        if len(stock) != view["stock_count"]:
            raise ValueError("the stock does not have the size the view shows")
        dealt = Counter([c for hand in hands for c in hand])  # a list: mypyc makes one anyway
        if dealt + Counter(stock) + Counter(discard) != Counter(rules.deck):
            raise ValueError("the hands, stock and discard pile are not the deck")
        game = cls(rules, deals=view["deal"])
        game.phase = PLAYING
        game.deal_number = view["deal"]
        game.hands = [list(hand) for hand in hands]
        game.stock = list(stock)
        game.discard = discard
        game.active_suit = SUIT_IDS[view["active_suit"]]
        game.direction = view["direction"]
        game.current = seat
        game.scores = [info["score"] for info in seats]
        game.skips_owed = [info["skips_owed"] for info in seats]
        game.announced = [info["announced"] for info in seats]
        game.out = [info["finished"] is not None for info in seats]
        game.active = n - sum(game.out)
        game.finish_order = list(view["finish_order"])
        game.public_log = [log_entry(item) for item in view["history"]]
        game.first_out_points = 0 if game.finish_order else None
        game.rng = DealRng(seed)
        pending = view["pending"]
        game.pending_draw = pending["draw"]
        game.pending_skip = pending["skip"]
        game.pending_card = _card_or_none(pending["draw_card"])
        game.pending_skip_card = _card_or_none(pending["skip_card"])
        turn = view["turn"]
        game.played = turn["played"]
        game.last = _card_or_none(turn["last_card"])
        game.must_cover = turn["must_cover"]
        game.suit_mode = -1 if turn["suit_mode"] is None else SUIT_IDS[turn["suit_mode"]]
        game.turn_drew = turn["drew"]
        game.run_dir = turn["run"]
        game.again = turn["again"]
        game.turn_skip = turn["skips"]
        game.barred = turn["last_card_barred"]
        game.drawn = _card_or_none(view["you"]["drawn"])
        return game


# The highest points target a match may be played to.
MAX_TARGET = 100_000


def create_game(
    ruleset: str,
    players: int,
    options: Mapping[str, Any] | None = None,
    deals: int = 1,
    target: int | None = None,
) -> SheddingGame:
    """A new match waiting for its first deal; raises UnknownRuleset or InvalidOptions."""
    rules = find_ruleset(ruleset).with_options(options).compile(players)
    if target is None:
        check_int("deals", deals, 1, 1000)
    else:
        check_int("target", target, 1, MAX_TARGET)
    return SheddingGame(rules, deals=deals, target=target)
