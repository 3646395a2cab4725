"""The fields of a shedding match, and copying and saving, which follow from one table of them.

Every field is declared twice, side by side and checked to agree (tests/engine/test_shedding_state.py):
with its type, as an annotation of :class:`MatchState`, and with its :class:`Codec`, in
:data:`FIELDS`. :meth:`~MatchState.copy`, :meth:`~MatchState.to_dict` and
:meth:`~MatchState.from_dict` go through :data:`FIELDS`, each field the way its codec says. A plain
value (``int``, ``bool``, ``str``, ``int | None``) is :data:`VALUE`, which copies share; anything
else names the codec that copies, saves and loads it, so two copies can never share a list by
accident. The table is not read from the annotations because the compiled engine (mypyc, see
docs/architecture.md) keeps no annotations at run time.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from operator import itemgetter
from typing import Any, Final, Self

from games.rules.cards import CARD_IDS, codes
from games.rules.shedding.actions import ActionTuple, SharedAction
from games.rules.shedding.rulesets import Rules, saved_rules
from games.rules.shuffle import DealRng

FORMAT = 1
GAME: Final = "shedding"  # the game's name in saved states and views
NEEDS_DEAL, PLAYING, OVER = "needs_deal", "playing", "over"


def _same(value: Any) -> Any:
    return value


@dataclass(frozen=True, slots=True)
class Codec:
    """How a field is copied, saved (JSON-ready) and loaded; ``missing``: a saved form for states
    saved before the field existed (``None``: the field is required)."""

    copy: Callable[[Any], Any]
    save: Callable[[Any], Any]
    load: Callable[[Any], Any]
    missing: Any = None
    saved: bool = True


VALUE = Codec(_same, _same, _same)
INTS = Codec(list, list, list)
CARDS = Codec(list, codes, lambda saved: [CARD_IDS[code] for code in saved])
HANDS = Codec(
    lambda hands: [list(hand) for hand in hands],
    lambda hands: [codes(hand) for hand in hands],
    lambda saved: [[CARD_IDS[code] for code in hand] for hand in saved],
)
SUMMARIES = Codec(
    list, lambda summaries: [dict(s) for s in summaries], lambda saved: [dict(s) for s in saved]
)
LOG = Codec(list, list, list, missing=[])  # the public log came after the first saved states
RNG = Codec(
    lambda rng: None if rng is None else rng.copy(),
    lambda rng: None if rng is None else rng.to_dict(),
    lambda saved: None if saved is None else DealRng.from_dict(saved),
)
# Not saved: the rules are saved as ruleset, options and players; the caches are rebuilt on demand.
# Copies share them (compiled rules are immutable; a cached list of legal actions is never changed).
RULES = Codec(_same, _same, _same, saved=False)
CACHE = Codec(_same, _same, lambda saved: None, saved=False)


# How each field of MatchState is copied, saved and loaded, in its order.
FIELDS: dict[str, Codec] = {
    # ------------------------------------------------------------ the match
    "rules": RULES,
    "deals": VALUE,
    "target": VALUE,
    "phase": VALUE,
    "deal_number": VALUE,
    "scores": INTS,
    "deals_won": INTS,
    "history": SUMMARIES,
    # ------------------------------------------------------------ the deal
    "hands": HANDS,
    "stock": CARDS,
    "discard": CARDS,
    "public_log": LOG,
    "rng": RNG,
    "active_suit": VALUE,
    "direction": VALUE,
    "current": VALUE,
    "pending_draw": VALUE,
    "pending_card": VALUE,
    "pending_skip": VALUE,
    "pending_skip_card": VALUE,
    "skips_owed": INTS,
    "announced": INTS,
    "out": INTS,
    "active": VALUE,
    "finish_order": INTS,
    "first_out_points": VALUE,
    "stuck": VALUE,
    "turns": VALUE,
    # ------------------------------------------------------------ the turn (see reset_turn)
    "played": VALUE,
    "last": VALUE,
    "run_dir": VALUE,
    "suit_mode": VALUE,
    "again": VALUE,
    "must_cover": VALUE,
    "drawn": VALUE,
    "turn_skip": VALUE,
    "turn_drew": VALUE,
    "turn_forced": VALUE,
    "barred": VALUE,
    "legal_tuples_cache": CACHE,
    "legal_actions_cache": CACHE,
}


class MatchState:
    """Everything a shedding match is at one moment (the behaviour is :class:`SheddingGame`'s)."""

    game = GAME

    # ------------------------------------------------------------ the match
    rules: Rules
    deals: int
    target: int | None
    phase: str  # NEEDS_DEAL, PLAYING or OVER
    deal_number: int
    scores: list[int]
    deals_won: list[int]
    history: list[dict[str, Any]]  # one summary per finished deal, unchanged
    # ------------------------------------------------------------ the deal
    hands: list[list[int]]
    stock: list[int]  # the top card is the last item
    discard: list[int]  # the top card is the last item
    public_log: list[int]  # what the whole table saw of this deal (public_log.py)
    rng: DealRng | None
    active_suit: int
    direction: int
    current: int
    pending_draw: int
    pending_card: int  # the card whose power the pending pick-up answers to
    pending_skip: int
    pending_skip_card: int
    skips_owed: list[int]
    announced: list[bool]
    out: list[bool]
    active: int  # seats still in the deal
    finish_order: list[int]
    first_out_points: int | None
    stuck: int  # consecutive turns in which nobody could play or draw
    turns: int  # turns begun in this deal
    # ------------------------------------------------------------ the turn (see reset_turn)
    played: int
    last: int
    run_dir: int
    suit_mode: int
    again: bool
    must_cover: bool
    drawn: int
    turn_skip: int
    turn_drew: int
    turn_forced: bool
    barred: bool
    # The legal actions of the position, once asked for, in the engine's and the API's form.
    legal_tuples_cache: list[ActionTuple] | None
    legal_actions_cache: list[SharedAction] | None

    __slots__ = tuple(FIELDS)  # the fields above, and only they

    def __init__(self, rules: Rules, deals: int = 1, target: int | None = None) -> None:
        """A new match waiting for its first deal."""
        n = rules.players
        self.rules = rules
        self.deals = deals
        self.target = target
        self.phase = NEEDS_DEAL
        self.deal_number = 0
        self.scores = [0] * n
        self.deals_won = [0] * n
        self.history = []
        self.public_log = []
        self.hands = [[] for _ in range(n)]
        self.stock = []
        self.discard = []
        self.active_suit = -1
        self.direction = 1
        self.current = -1
        self.pending_draw = 0
        self.pending_card = -1
        self.pending_skip = 0
        self.pending_skip_card = -1
        self.skips_owed = [0] * n
        self.announced = [False] * n
        self.out = [False] * n
        self.active = n
        self.finish_order = []
        self.first_out_points = None
        self.rng = None
        self.stuck = 0
        self.turns = 0
        self.reset_turn()

    def reset_turn(self) -> None:
        """The turn's fields as a turn starts."""
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
        self.legal_tuples_cache = self.legal_actions_cache = None

    # ------------------------------------------------------------ copying and persistence

    def copy(self) -> Self:
        """An independent copy (cheap: lists of ints are copied, the compiled rules are shared)."""
        # A new match, every field then replaced: a compiled class cannot be made without __init__.
        other = type(self)(self.rules)
        for name in _SHARED:
            setattr(other, name, getattr(self, name))
        for name, copy in _COPIED:
            setattr(other, name, copy(getattr(self, name)))
        return other

    def to_dict(self) -> dict[str, Any]:
        """The whole state, hidden parts included (server-side only), JSON-ready and versioned."""
        ruleset = self.rules.ruleset
        data: dict[str, Any] = {
            "format": FORMAT,
            "game": self.game,
            "ruleset": ruleset.name,
            "options": ruleset.options_json(),
            "players": self.rules.players,
        }
        for name, codec in _SAVED:
            data[name] = codec.save(getattr(self, name))
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        """Rebuild a game from :meth:`to_dict`; raises ValueError for an unknown format."""
        # Not cls.game: compiled (mypyc), that is an attribute of instances only.
        if data.get("format") != FORMAT or data.get("game") != GAME:
            raise ValueError(f"not a format-{FORMAT} shedding game")
        game = cls(saved_rules(data["ruleset"], data["options"], data["players"]))
        try:
            for name, value in zip(_SAVED_VALUES, _saved_values(data), strict=True):
                setattr(game, name, value)
            for name, codec in _SAVED_CONVERTED:
                saved = data[name] if codec.missing is None else data.get(name, codec.missing)
                setattr(game, name, codec.load(saved))
        except KeyError as missing:
            name = missing.args[0]
            raise ValueError(f"not a format-{FORMAT} shedding game: {name} is missing") from None
        return game


_SHARED = tuple(name for name, codec in FIELDS.items() if codec.copy is _same)
_COPIED = tuple((name, codec.copy) for name, codec in FIELDS.items() if codec.copy is not _same)
_SAVED = tuple((name, codec) for name, codec in FIELDS.items() if codec.saved)
# Loading takes the plain values in one step: a game is loaded on every move and view.
_SAVED_VALUES = tuple(name for name, codec in _SAVED if codec is VALUE)
_saved_values = itemgetter(*_SAVED_VALUES)
_SAVED_CONVERTED = tuple((name, codec) for name, codec in _SAVED if codec is not VALUE)
