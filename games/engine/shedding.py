"""The state of a shedding Switch match (RULES.md §2), for every ruleset of :mod:`rulesets`.

Internally an action is a compact tuple ``(kind, card, suit, announce)``: ``kind`` is PLAY, DRAW or
END, ``card`` a card id (or -1), ``suit`` a suit index (or -1), ``announce`` a bool. The legal
tuples of the current position are computed once and cached; :meth:`SheddingGame.apply` accepts an
action exactly when its tuple is among them, so ``legal_actions()`` and ``apply`` cannot disagree.
Dicts in the API's JSON shape exist only at the boundary.

Decisions where RULES.md is silent are in ``docs/rules-shedding.md``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Set
from typing import Any, Self

from games.engine.cards import (
    CARD_CODES,
    JOKER_1,
    KING,
    RANK_OF,
    SAME_RANK,
    SUIT_OF,
    SUITS,
    InvalidCard,
    codes,
    parse_card,
    parse_suit,
)
from games.engine.protocol import (
    Action,
    Event,
    HandOutcome,
    IllegalMove,
    InvalidAction,
    InvalidLayout,
    Outcome,
    solo_teams,
)
from games.engine.rng import DealRng
from games.engine.rulesets import Power, Rules, find_ruleset
from games.engine.scoring import (
    deal_placings,
    french_tally,
    hand_order,
    match_ranking,
    winner_points,
)

FORMAT = 1

PLAY, DRAW, END = 0, 1, 2
ActionTuple = tuple[int, int, int, bool]
DRAW_ACTION: ActionTuple = (DRAW, -1, -1, False)
END_ACTION: ActionTuple = (END, -1, -1, False)
_PLAIN_PLAYS: tuple[ActionTuple, ...] = tuple((PLAY, c, -1, False) for c in range(len(CARD_CODES)))
_ALL_SUITS = (0, 1, 2, 3)
_NO_SUIT = (-1,)

_NEEDS_DEAL, _PLAYING, _OVER = "needs_deal", "playing", "over"
_ACTION_FIELDS = frozenset({"action", "card", "suit", "announce", "expected_version"})


def _build_action_dict(action: ActionTuple) -> Action:
    kind, card_id, suit, announce = action
    if kind == DRAW:
        return {"action": "draw"}
    if kind == END:
        return {"action": "end_turn"}
    out: Action = {"action": "play", "card": CARD_CODES[card_id]}
    if suit >= 0:
        out["suit"] = SUITS[suit]
    if announce:
        out["announce"] = "last_card"
    return out


# Every action tuple's dict, built once; callers get copies so they may keep or change them.
_ACTION_DICTS: dict[ActionTuple, Action] = {
    action: _build_action_dict(action)
    for action in [DRAW_ACTION, END_ACTION]
    + [
        (PLAY, card_id, suit, announce)
        for card_id in range(len(CARD_CODES))
        for suit in (-1, *_ALL_SUITS)
        for announce in (False, True)
    ]
}
_CARD_IDS: dict[str, int] = {code: card_id for card_id, code in enumerate(CARD_CODES)}
_SUIT_IDS: dict[str, int] = {letter: suit for suit, letter in enumerate(SUITS)}
# Parsing's fast path for the dicts legal_actions gives: by their (action, card, suit, announce)
# fields, the action tuple and the dict's number of fields.
_CANONICAL: dict[tuple[Any, ...], tuple[ActionTuple, int]] = {
    (d["action"], d.get("card"), d.get("suit"), d.get("announce")): (action, len(d))
    for action, d in _ACTION_DICTS.items()
}


def action_dict(action: ActionTuple) -> Action:
    """The API form of an internal action tuple (a fresh dict)."""
    return _ACTION_DICTS[action].copy()


def parse_action(action: Any) -> ActionTuple:
    """The internal tuple of an API action; raises InvalidAction when it is malformed."""
    if type(action) is dict:
        fields = (
            action.get("action"),
            action.get("card"),
            action.get("suit"),
            action.get("announce"),
        )
        try:
            canonical = _CANONICAL.get(fields)
        except TypeError:  # an unhashable field: not canonical; the checks below say what is wrong
            canonical = None
        # Only these fields, so no unknown field or expected_version to check.
        if canonical is not None and len(action) == canonical[1]:
            return canonical[0]
    if not isinstance(action, Mapping):
        raise InvalidAction('an action is an object such as {"action": "draw"}')
    if not action.keys() <= _ACTION_FIELDS:
        unknown = sorted(str(key) for key in action.keys() - _ACTION_FIELDS)
        raise InvalidAction(f"unknown field {unknown[0]!r} in the action")
    version = action.get("expected_version")
    if version is not None and (isinstance(version, bool) or not isinstance(version, int)):
        raise InvalidAction("expected_version must be a whole number")
    name = action.get("action")
    if name == "play":
        card_code = action.get("card")
        if not isinstance(card_code, str):
            raise InvalidAction('a play needs a card code, e.g. {"action": "play", "card": "7H"}')
        suit_text = action.get("suit")
        # Canonical codes (what legal_actions gives) take the dict look-ups; aliases parse.
        card_id = _CARD_IDS.get(card_code)
        suit = -1 if suit_text is None else _SUIT_IDS.get(suit_text, -2)  # type: ignore[arg-type]
        try:
            if card_id is None:
                card_id = parse_card(card_code)
            if suit == -2:
                suit = parse_suit(suit_text)  # type: ignore[arg-type]
        except InvalidCard as error:
            raise InvalidAction(str(error)) from None
        announce = action.get("announce")
        if announce is not None and announce != "last_card":
            raise InvalidAction(f'announce must be "last_card", not {announce!r}')
        return (PLAY, card_id, suit, announce is not None)
    if name in ("draw", "end_turn"):
        for key in ("card", "suit", "announce"):
            if action.get(key) is not None:
                raise InvalidAction(f"{name} takes no {key}")
        return DRAW_ACTION if name == "draw" else END_ACTION
    raise InvalidAction(f"unknown action {name!r}; actions are play, draw and end_turn")


# ---------------------------------------------------------------------- the public history

# What the whole table has seen of the current deal, oldest first: the view's "history". Only what
# every player at the table sees — never a drawn card:
#   {"type": "starter", "card": "9C"}                   the card turned up to start the pile
#   {"type": "play", "seat": 0, "card": "JC", "suit": "H", "announce": "last_card"}
#                                                        a card played face up ("suit" when it
#                                                        named one, "announce" when announced)
#   {"type": "draw", "seat": 1, "count": 2, "reason": "pick_up"}
#       reason "draw": by the draw rule (where voluntary draws are not allowed, the seat could not
#       play); "pick_up": a pending pick-up taken; "last_card", "cover", "blunder": penalties
#   {"type": "end_turn", "seat": 1}                     the seat ended its turn itself
#   {"type": "skip", "seat": 2, "turns": 1}             the seat misses turns
#   {"type": "reshuffle", "count": 30}                  the pile under the top card became the stock
# Inside the state (and its saved form) each entry is one int, cheap to append, copy and store:
# bits 0–2 the type, 3–6 the seat, 7 and up the details (see the log_* functions).
_LOG_TYPES = ("starter", "play", "draw", "end_turn", "skip", "reshuffle")
_STARTER, _PLAYED, _DREW, _ENDED, _SKIPPED, _RESHUFFLED = range(len(_LOG_TYPES))
DRAW_REASONS = ("draw", "pick_up", "last_card", "cover", "blunder")
_REASON_INDEX = {reason: index for index, reason in enumerate(DRAW_REASONS)}


def log_starter(card_id: int) -> int:
    return _STARTER | card_id << 7


def log_play(seat: int, card_id: int, suit: int, announce: bool) -> int:
    return _PLAYED | seat << 3 | (card_id | (suit + 1) << 6 | announce << 9) << 7


def log_draw(seat: int, count: int, reason: str) -> int:
    return _DREW | seat << 3 | (_REASON_INDEX[reason] | count << 3) << 7


def log_end_turn(seat: int) -> int:
    return _ENDED | seat << 3


def log_skip(seat: int, turns: int) -> int:
    return _SKIPPED | seat << 3 | turns << 7


def log_reshuffle(count: int) -> int:
    return _RESHUFFLED | count << 7


def history_entry(entry: int) -> dict[str, Any]:
    """The view's form of one entry of the public log."""
    kind, seat, details = entry & 7, entry >> 3 & 15, entry >> 7
    name = _LOG_TYPES[kind]
    if kind == _PLAYED:
        out: dict[str, Any] = {"type": name, "seat": seat, "card": CARD_CODES[details & 63]}
        if details >> 6 & 7:
            out["suit"] = SUITS[(details >> 6 & 7) - 1]
        if details >> 9:
            out["announce"] = "last_card"
        return out
    if kind == _DREW:
        return {
            "type": name,
            "seat": seat,
            "count": details >> 3,
            "reason": DRAW_REASONS[details & 7],
        }
    if kind == _ENDED:
        return {"type": name, "seat": seat}
    if kind == _SKIPPED:
        return {"type": name, "seat": seat, "turns": details}
    if kind == _RESHUFFLED:
        return {"type": name, "count": details}
    return {"type": name, "card": CARD_CODES[details]}


def log_entry(item: Mapping[str, Any]) -> int:
    """The public log's form of one entry of a view's history (the inverse of history_entry)."""
    kind = item["type"]
    if kind == "play":
        suit = item.get("suit")
        return log_play(
            item["seat"],
            _CARD_IDS[item["card"]],
            -1 if suit is None else _SUIT_IDS[suit],
            "announce" in item,
        )
    if kind == "draw":
        return log_draw(item["seat"], item["count"], item["reason"])
    if kind == "end_turn":
        return log_end_turn(item["seat"])
    if kind == "skip":
        return log_skip(item["seat"], item["turns"])
    if kind == "reshuffle":
        return log_reshuffle(item["count"])
    return log_starter(_CARD_IDS[item["card"]])


def _card_or_none(code: str | None) -> int:
    return -1 if code is None else _CARD_IDS[code]


class SheddingGame:
    """A match of shedding Switch: one or more deals. Implements ``protocol.GameState``."""

    game = "shedding"

    __slots__ = (
        "_legal",
        "active",
        "active_suit",
        "again",
        "announced",
        "barred",
        "current",
        "deal_number",
        "deals",
        "deals_won",
        "direction",
        "discard",
        "drawn",
        "finish_order",
        "first_out_points",
        "hands",
        "history",
        "last",
        "must_cover",
        "out",
        "pending_card",
        "pending_draw",
        "pending_skip",
        "pending_skip_card",
        "phase",
        "played",
        "public_log",
        "rng",
        "rules",
        "run_dir",
        "scores",
        "skips_owed",
        "stock",
        "stuck",
        "suit_mode",
        "target",
        "turn_drew",
        "turn_forced",
        "turn_skip",
        "turns",
    )

    def __init__(self, rules: Rules, deals: int = 1, target: int | None = None) -> None:
        n = rules.players
        self.rules = rules
        self.deals = deals
        self.target = target
        self.phase = _NEEDS_DEAL
        self.deal_number = 0
        self.scores = [0] * n
        self.deals_won = [0] * n
        self.history: list[dict[str, Any]] = []  # one summary per finished deal
        # What the whole table saw of this deal (the view's "history"): see log_play and others.
        self.public_log: list[int] = []
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.stock: list[int] = []  # the top card is the last item
        self.discard: list[int] = []  # the top card is the last item
        self.active_suit = -1
        self.direction = 1
        self.current = -1
        self.pending_draw = 0
        self.pending_card = -1  # the card whose power the pending pick-up answers to
        self.pending_skip = 0
        self.pending_skip_card = -1
        self.skips_owed = [0] * n
        self.announced = [False] * n
        self.out = [False] * n
        self.active = n
        self.finish_order: list[int] = []
        self.first_out_points: int | None = None
        self.rng: DealRng | None = None
        self.stuck = 0
        self.turns = 0  # turns begun in this deal
        self._reset_turn()

    def _reset_turn(self) -> None:
        self.played = 0  # cards played this turn
        self.last = -1  # the last card played this turn
        self.run_dir = 0  # +1 / -1 once a run has a direction
        self.suit_mode = -1  # a suit the player may keep laying (Black Jack 7, J28 jack)
        self.again = False  # "play again": the next card only has to match
        self.must_cover = False
        self.drawn = -1  # after a draw that may be followed by a play: the card that may be played
        self.turn_skip = 0  # skips to apply to the next player at the end of the turn
        self.turn_drew = 0
        self.turn_forced = False  # the turn's draw was the only legal action
        # The un-announced last card may not be played this turn: no_finish, from the turn's start;
        # in a turn that left it, unless the ruleset lets a set or run go out unannounced.
        self.barred = False
        self._legal: list[ActionTuple] | None = None

    # ------------------------------------------------------------------ protocol properties

    @property
    def to_move(self) -> int | None:
        return self.current if self.phase == _PLAYING else None

    @property
    def needs_deal(self) -> bool:
        return self.phase == _NEEDS_DEAL

    @property
    def is_over(self) -> bool:
        return self.phase == _OVER

    @property
    def players(self) -> int:
        return self.rules.players

    @property
    def turn_id(self) -> tuple[int, int]:
        return (self.deal_number, self.turns)

    # ------------------------------------------------------------------ dealing

    def deal(self, seed: bytes, layout: Mapping[str, Any] | None = None) -> list[Event]:
        """Start the next deal from ``seed`` (or an explicit ``layout``, see docs/rules-shedding.md).

        Raises InvalidLayout for a layout that is not a partition of the deck, IllegalMove when no
        deal is due.
        """
        if self.phase != _NEEDS_DEAL:
            raise IllegalMove(
                "no deal is due: "
                + ("the match is over" if self.is_over else "a deal is in progress")
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
            hands, starter, stock_top_first = self._read_layout(layout, rng)
        stock = stock_top_first[::-1]
        if starter is None:
            starter = self._turn_starter(stock)
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
        self.phase = _PLAYING
        self._reset_turn()
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

    def _turn_starter(self, stock: list[int]) -> int:
        """Turn the starter (RULES.md §2): a forbidden power card goes under the stock; never a joker."""
        power = self.rules.power
        for _ in range(len(stock)):
            starter = stock.pop()
            forbidden = power[starter] is not None and not self.rules.starter_may_be_power
            if not forbidden and starter < JOKER_1:
                return starter
            stock.insert(0, starter)
        # Every card left is a power card: take one anyway rather than loop (jokers excepted).
        for index in range(len(stock) - 1, -1, -1):
            if stock[index] < JOKER_1:
                return stock.pop(index)
        raise InvalidLayout("no card in the stock can be the starter")

    def _read_layout(
        self, layout: Mapping[str, Any], rng: DealRng
    ) -> tuple[list[list[int]], int | None, list[int]]:
        rules = self.rules
        if not isinstance(layout, Mapping):
            raise InvalidLayout("a layout is an object with hands, starter and stock")
        unknown = set(layout) - {"hands", "starter", "stock"}
        if unknown:
            raise InvalidLayout(f"unknown layout field {sorted(unknown)[0]!r}")

        def read(cards: Any, where: str) -> list[int]:
            if not isinstance(cards, list):
                raise InvalidLayout(f"{where} must be a list of card codes")
            try:
                return [parse_card(c) for c in cards]
            except InvalidCard as error:
                raise InvalidLayout(f"{where}: {error}") from None

        raw_hands = layout.get("hands")
        if not isinstance(raw_hands, list) or len(raw_hands) != rules.players:
            raise InvalidLayout(f"hands must be a list of {rules.players} hands, one per seat")
        hands = [read(hand, f"hands[{seat}]") for seat, hand in enumerate(raw_hands)]
        for seat, hand in enumerate(hands):
            if not hand:
                raise InvalidLayout(f"hands[{seat}] is empty; every seat needs at least one card")
        starter = None
        if layout.get("starter") is not None:
            (starter,) = read([layout["starter"]], "starter")
            if starter >= JOKER_1:
                raise InvalidLayout("the starter cannot be a joker: it has no suit to follow")
        stock = read(layout.get("stock") or [], "stock")
        named = Counter(c for hand in hands for c in hand) + Counter(stock)
        if starter is not None:
            named[starter] += 1
        deck = Counter(rules.deck)
        for card_id, count in sorted(named.items()):
            if count > deck[card_id]:
                raise InvalidLayout(
                    f"{CARD_CODES[card_id]} is named {count} times but the deck has {deck[card_id]}"
                )
        rest = list((deck - named).elements())
        rng.shuffle(rest)
        if starter is None and not stock and not rest:
            raise InvalidLayout("no card is left for the starter")
        return hands, starter, stock + rest

    # ------------------------------------------------------------------ legal actions

    def legal_actions(self) -> list[Action]:
        """Every action the seat to move may take now, in the API's JSON form."""
        if self.phase != _PLAYING:
            return []
        dicts = _ACTION_DICTS
        return [dicts[a].copy() for a in self.legal_tuples()]

    def legal_tuples(self) -> list[ActionTuple]:
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        return legal

    def _matches(self, card_id: int) -> bool:
        """May ``card_id`` be played on the top card as a turn's first card (RULES.md §2 Matching)?"""
        return card_id in self.rules.playable_on[RANK_OF[self.discard[-1]]][self.active_suit]

    def _continuations(self, held: set[int]) -> set[int]:
        """The held cards that may follow the turn's last card (multi-card turns, RULES.md §2/§3)."""
        rules = self.rules
        last = self.last
        out = (
            held & rules.playable_on[RANK_OF[self.discard[-1]]][self.active_suit]
            if self.again
            else set()
        )
        p = rules.power[last]
        if rules.same_rank or (p is not None and p.then == "same_rank"):
            out |= held & SAME_RANK[last]
        suit = SUIT_OF[last]
        if rules.runs and suit >= 0:
            for step in (self.run_dir,) if self.run_dir else (1, -1):
                rank = RANK_OF[last] + step
                if 0 <= rank <= KING and rank * 4 + suit in held:
                    out.add(rank * 4 + suit)
        if self.suit_mode >= 0:
            out.update(c for c in held if SUIT_OF[c] == self.suit_mode)
        return out

    def _compute_legal(self) -> list[ActionTuple]:
        hand = self.hands[self.current]
        power = self.rules.power
        if self.played == 0 and not (self.pending_draw or self.pending_skip or self.drawn >= 0):
            return self._first_plays(hand)
        held = set(hand)
        if self.must_cover:
            plays = self._plays(held, len(hand))
            return plays or [DRAW_ACTION]
        if self.played == 0 and self.pending_draw:
            chain = power[self.pending_card]
            assert chain is not None
            answers = {c for c in held if c in chain.stacked_by or c in chain.cancelled_by}
            return [*self._plays(answers, len(hand)), DRAW_ACTION]
        if self.played == 0 and self.pending_skip:
            chain = power[self.pending_skip_card]
            return [*self._plays({c for c in held if power[c] is chain}, len(hand)), END_ACTION]
        if self.drawn >= 0:
            return [*self._plays({self.drawn}, len(hand)), END_ACTION]
        return [*self._plays(self._continuations(held), len(hand)), END_ACTION]

    def _first_plays(self, hand: list[int]) -> list[ActionTuple]:
        """A turn's first card, or a draw (RULES.md §2 Matching and Drawing)."""
        playable = self.rules.playable_on[RANK_OF[self.discard[-1]]][self.active_suit]
        plays = self._plays(playable.intersection(hand), len(hand))
        if not plays or (
            self.rules.may_draw_voluntarily and len(self.stock) + len(self.discard) > 1
        ):
            plays.append(DRAW_ACTION)
        return plays

    def _plays(self, candidates: Set[int], hand_size: int) -> list[ActionTuple]:
        """Play tuples for ``candidates``: a variant per named suit, and with/without announcing."""
        rules = self.rules
        if hand_size == 1 and (self.barred or not rules.finish_on_power):
            if self.barred:
                return []
            candidates = {c for c in candidates if rules.power[c] is None}
        names_suit = rules.names_suit
        if hand_size != 2 and names_suit.isdisjoint(candidates):
            return [_PLAIN_PLAYS[c] for c in sorted(candidates)]
        announces = (False, True) if hand_size == 2 else (False,)
        return [
            (PLAY, c, suit, announce)
            for c in sorted(candidates)
            for suit in (_ALL_SUITS if c in names_suit else _NO_SUIT)
            for announce in announces
        ]

    def default_action(self) -> Action:
        """The turn clock's choice: end the turn, else take the pick-up / draw, else the first play."""
        legal = self.legal_tuples() if self.phase == _PLAYING else []
        if not legal:
            raise IllegalMove("nobody is to move")
        for choice in (END_ACTION, DRAW_ACTION):
            if choice in legal:
                return action_dict(choice)
        return action_dict(legal[0])

    # ------------------------------------------------------------------ applying

    def apply(self, action: Mapping[str, Any]) -> list[Event]:
        """Apply the action of the seat to move (RULES.md §2).

        Raises InvalidAction (malformed) or IllegalMove (against the rules; ``reason`` says why) and
        then changes nothing — except that with ``blunder_penalty`` an illegal play makes the player
        draw that many cards instead of raising.
        """
        move = parse_action(action)
        if self.phase != _PLAYING:
            raise IllegalMove("no deal is in progress")
        legal = self.legal_tuples()
        if move not in legal:
            reason = self._why_illegal(move, legal)
            if move[0] == PLAY and self.rules.blunder_penalty:
                return self._blunder(reason)
            raise IllegalMove(reason)
        return self.apply_tuple(move)

    def apply_tuple(self, move: ActionTuple) -> list[Event]:
        """Apply a tuple taken from the current legal actions (for bots and search; not validated)."""
        events: list[Event] = []
        kind = move[0]
        if kind == PLAY:
            self._play(move[1], move[2], move[3], events)
        elif kind == DRAW:
            self.turn_forced = len(self.legal_tuples()) == 1
            self._legal = None
            self._draw_action(events)
        else:
            self._legal = None
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
        self._legal = None
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
        """Stock exhausted (RULES.md §2): the discard pile but its top card becomes the new stock."""
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
            while not drawn or not self._matches(drawn[-1]):
                if not stock:
                    self._reshuffle(events)
                    if not stock:
                        break
                drawn.append(stock.pop())
            self._receive(seat, drawn, events, "draw")
        if drawn and self._matches(drawn[-1]):
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
        self._reset_turn()
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
        """RULES.md §2 Last card: the play left one card and the player did not announce it."""
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

    def _blunder(self, reason: str) -> list[Event]:
        """RULES.md §2 Illegal moves with ``blunder_penalty``: the play is taken back, the player draws."""
        seat = self.current
        count = self.rules.blunder_penalty
        events = [Event("penalty", seat, {"kind": "blunder", "draw": count, "reason": reason})]
        self._give(seat, count, events, "blunder")
        self._legal = None
        return events

    # ------------------------------------------------------------------ finishing

    def _finish(self, seat: int, events: list[Event]) -> None:
        """``seat`` has no cards left (RULES.md §2 Finishing)."""
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
        self._reset_turn()
        self.pending_draw = self.pending_skip = 0
        self.pending_card = self.pending_skip_card = -1
        self.current = -1
        events.append(Event("deal_end", None, dict(summary)))
        if self.target is not None:
            over = max(self.scores) >= self.target
        else:
            over = self.deal_number >= self.deals
        self.phase = _OVER if over else _NEEDS_DEAL
        if over:
            events.append(Event("match_end", None, self._match_outcome().to_json()))

    def outcome(self) -> Outcome | None:
        """Once the match is over: every deal's points, winner and placings, the totals, the ranking."""
        return self._match_outcome() if self.phase == _OVER else None

    def _match_outcome(self) -> Outcome:
        teams = solo_teams(self.rules.players)
        return Outcome(
            hands=tuple(
                HandOutcome(
                    number=summary["deal"],
                    points=tuple(summary["points"]),
                    winner=summary["winner"],
                    placings=tuple(summary["placings"]),
                    teams=teams,
                )
                for summary in self.history
            ),
            totals=tuple(self.scores),
            ranking=tuple(match_ranking(self.scores, self.deals_won)),
        )

    # ------------------------------------------------------------------ why a move is illegal

    def _why_illegal(self, move: ActionTuple, legal: list[ActionTuple]) -> str:
        kind, card_id, suit, announce = move
        hand = self.hands[self.current]
        top = CARD_CODES[self.discard[-1]]
        if kind == DRAW:
            if self.must_cover:
                return "you must cover the queen with another card"
            if self.played:
                return "you have played this turn: play on or end your turn"
            if self.drawn >= 0:
                return f"you have drawn: play {CARD_CODES[self.drawn]} or end your turn"
            if self.pending_skip:
                return "you must answer the skip or end your turn (missing it)"
            return "you have a card you can play, and this ruleset does not let you draw instead"
        if kind == END:
            if self.must_cover:
                return "you must cover the queen before your turn can end"
            if self.pending_draw:
                return f"you must answer the pick-up of {self.pending_draw} or draw it"
            return "you must play or draw before ending your turn"
        code = CARD_CODES[card_id]
        if card_id not in hand:
            return f"you do not hold {code}"
        same_card = [a for a in legal if a[0] == PLAY and a[1] == card_id]
        if same_card:
            p = self.rules.power[card_id]
            if p is not None and p.names_suit and suit < 0:
                return f"{code} names a suit: say which (C, D, H or S)"
            if suit >= 0 and not (p is not None and p.names_suit):
                return f"{code} does not name a suit"
            if announce:
                return "you may announce last card only when the play leaves you one card"
            return "that play is not allowed now"
        if self.must_cover:
            return f"you may not finish on {code}: the queen must be covered"
        if self.played == 0 and self.pending_draw:
            return f"you must answer the pick-up of {self.pending_draw} or draw it; {code} cannot answer it"
        if self.played == 0 and self.pending_skip:
            return f"you must answer the skip or end your turn; {code} cannot answer it"
        if self.drawn >= 0:
            return f"after drawing you may only play the card you drew ({CARD_CODES[self.drawn]})"
        if len(hand) == 1 and self.barred:
            return "you did not announce last card, so you may not play your last card this turn"
        if (
            len(hand) == 1
            and not self.rules.finish_on_power
            and self.rules.power[card_id] is not None
        ):
            return f"you may not finish on a power card ({code})"
        if self.played:
            return f"{code} does not continue your turn after {CARD_CODES[self.last]}"
        if self.rules.must_not_be_lower and self._matches_ignoring_height(card_id):
            return f"{code} is lower than {top}"
        return f"{code} does not match {top} or the active suit {SUITS[self.active_suit]}"

    def _matches_ignoring_height(self, card_id: int) -> bool:
        return SUIT_OF[card_id] == self.active_suit or RANK_OF[card_id] == RANK_OF[self.discard[-1]]

    # ------------------------------------------------------------------ views

    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may know (``None``: a spectator): never another seat's cards or the stock."""
        n = self.rules.players
        if seat is not None and (
            isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n
        ):
            raise ValueError(f"there is no seat {seat!r}")
        playing = self.phase == _PLAYING
        places = {s: i + 1 for i, s in enumerate(self.finish_order)}
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
                "draw_card": CARD_CODES[self.pending_card] if self.pending_card >= 0 else None,
                "skip_card": (
                    CARD_CODES[self.pending_skip_card] if self.pending_skip_card >= 0 else None
                ),
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
                "drawn": CARD_CODES[self.drawn]
                if self.drawn >= 0 and seat == self.current
                else None,
            },
            "legal_moves": self.legal_actions() if playing and seat == self.current else [],
            "turn": {
                "played": self.played,
                "last_card": CARD_CODES[self.last] if self.last >= 0 else None,
                "must_cover": self.must_cover,
                "suit_mode": SUITS[self.suit_mode] if self.suit_mode >= 0 else None,
                "drew": self.turn_drew,
                "run": self.run_dir,  # a run's direction once it has one: 1 up, -1 down
                "again": self.again,  # "play again": the next card only has to match
                "skips": self.turn_skip,  # turns the next player will miss when this turn ends
                "last_card_barred": self.barred,  # unannounced: the last card may not go now
            },
            "finish_order": list(self.finish_order),
            "history": [history_entry(entry) for entry in self.public_log],
            "last_deal": dict(self.history[-1]) if self.history else None,
            "result": self._match_outcome().to_json() if self.phase == _OVER else None,
        }

    # ------------------------------------------------------------------ determinisation (search)

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

        For search over hidden information (ISMCTS): a bot samples the cards it cannot see and
        plays on from here. ``view`` is the view of the seat to move; ``hands`` holds one list of
        card ids per seat (that seat's own as in the view, the others of the viewed sizes) and
        ``stock`` the stock, top card last. Everything else is copied from the view: the discard
        pile, the pending pick-up or skip, the turn so far, the public history. The game holds this
        deal only — it is the last of the match, so a play-out ends with it — and reshuffles with
        a fresh ``DealRng(seed)``. What a view cannot say is reset: the blocked-deal counter, the
        points of a player already out in ``one_left``, past deals. Raises ValueError when the
        cards are not a partition of the deck that fits the view.
        """
        seat = view["to_move"]
        if seat is None or view["you"] is None or view["you"]["seat"] != seat:
            raise ValueError("a game can only be rebuilt from the view of the seat to move")
        n = rules.players
        seats = view["seats"]
        discard = [_CARD_IDS[code] for code in view["discard_pile"]]
        if len(hands) != n or any(
            len(hand) != info["hand_count"] for hand, info in zip(hands, seats, strict=True)
        ):
            raise ValueError("the hands do not have the sizes the view shows")
        if sorted(hands[seat]) != sorted(_CARD_IDS[code] for code in view["you"]["hand"]):
            raise ValueError("the seat to move must hold the hand its view shows")
        if len(stock) != view["stock_count"]:
            raise ValueError("the stock does not have the size the view shows")
        if Counter(c for hand in hands for c in hand) + Counter(stock) + Counter(
            discard
        ) != Counter(rules.deck):
            raise ValueError("the hands, stock and discard pile are not the deck")
        game = cls(rules, deals=view["deal"])
        game.phase = _PLAYING
        game.deal_number = view["deal"]
        game.hands = [list(hand) for hand in hands]
        game.stock = list(stock)
        game.discard = discard
        game.active_suit = _SUIT_IDS[view["active_suit"]]
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
        game.suit_mode = _SUIT_IDS[turn["suit_mode"]] if turn["suit_mode"] else -1
        game.turn_drew = turn["drew"]
        game.run_dir = turn["run"]
        game.again = turn["again"]
        game.turn_skip = turn["skips"]
        game.barred = turn["last_card_barred"]
        game.drawn = _card_or_none(view["you"]["drawn"])
        return game

    # ------------------------------------------------------------------ copying and persistence

    def copy(self) -> Self:
        """An independent copy (cheap: lists of ints are copied, the compiled rules are shared)."""
        other = object.__new__(type(self))
        for name in self.__slots__:
            setattr(other, name, getattr(self, name))
        other.hands = [list(hand) for hand in self.hands]
        other.stock = list(self.stock)
        other.discard = list(self.discard)
        other.scores = list(self.scores)
        other.deals_won = list(self.deals_won)
        other.history = list(self.history)  # summaries are never mutated
        other.public_log = list(self.public_log)
        other.skips_owed = list(self.skips_owed)
        other.announced = list(self.announced)
        other.out = list(self.out)
        other.finish_order = list(self.finish_order)
        other.rng = self.rng.copy() if self.rng is not None else None
        return other

    _SCALARS = (
        "deals",
        "target",
        "phase",
        "deal_number",
        "active_suit",
        "direction",
        "current",
        "pending_draw",
        "pending_card",
        "pending_skip",
        "pending_skip_card",
        "active",
        "first_out_points",
        "played",
        "last",
        "run_dir",
        "suit_mode",
        "again",
        "must_cover",
        "drawn",
        "turn_skip",
        "turn_drew",
        "turn_forced",
        "barred",
        "stuck",
        "turns",
    )
    _INT_LISTS = ("scores", "deals_won", "skips_owed", "announced", "out", "finish_order")

    def to_dict(self) -> dict[str, Any]:
        """The whole state, hidden parts included (server-side only), JSON-ready and versioned."""
        data: dict[str, Any] = {
            "format": FORMAT,
            "game": self.game,
            "ruleset": self.rules.ruleset.name,
            "options": self.rules.ruleset.options_json(),
            "players": self.rules.players,
            "hands": [codes(hand) for hand in self.hands],
            "stock": codes(self.stock),
            "discard": codes(self.discard),
            "history": [dict(summary) for summary in self.history],
            "public_log": list(self.public_log),
            "rng": self.rng.to_dict() if self.rng is not None else None,
        }
        for name in self._SCALARS:
            data[name] = getattr(self, name)
        for name in self._INT_LISTS:
            data[name] = list(getattr(self, name))
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        """Rebuild a game from :meth:`to_dict`; raises ValueError for an unknown format."""
        if data.get("format") != FORMAT or data.get("game") != cls.game:
            raise ValueError(f"not a format-{FORMAT} shedding game")
        preset = find_ruleset(data["ruleset"])
        # A state saved before an option existed takes the preset's value for it.
        ruleset = preset.with_all_options({**preset.options, **data["options"]})
        rules = ruleset.compile(data["players"])
        game = cls(rules)
        game.hands = [[parse_card(c) for c in hand] for hand in data["hands"]]
        game.stock = [parse_card(c) for c in data["stock"]]
        game.discard = [parse_card(c) for c in data["discard"]]
        game.history = [dict(summary) for summary in data["history"]]
        # States saved before the log existed have none: their view's history starts empty.
        game.public_log = list(data.get("public_log", ()))
        game.rng = DealRng.from_dict(data["rng"]) if data["rng"] is not None else None
        for name in cls._SCALARS:
            setattr(game, name, data[name])
        for name in cls._INT_LISTS:
            setattr(game, name, list(data[name]))
        game._legal = None
        return game
