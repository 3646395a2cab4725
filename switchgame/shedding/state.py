"""The fields of a shedding match, each declared once, with its type, its initial value and its
:class:`Codec`, and copying and saving, which follow from the codecs.

:class:`MatchState` is a dataclass whose every field carries its codec in its metadata
(``field(metadata=VALUE)``); :meth:`~MatchState.copy`, :meth:`~MatchState.to_dict` and
:meth:`~MatchState.from_dict` go through :data:`FIELDS`, read from those fields, each field the
way its codec says. A plain value (``int``, ``bool``, ``str``, ``int | None``) is :data:`VALUE`,
which copies share; anything else names the codec that copies, saves and loads it, so two copies
can never share a list by accident (tests/engine/test_shedding_state.py). Compiled (mypyc, see
docs/architecture.md), the class keeps its fields and their metadata, as the dataclass decorator
runs on it at import.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from operator import itemgetter
from types import MappingProxyType
from typing import Any, Final, Self

from switchgame.cards import CARD_IDS, codes
from switchgame.shedding.actions import ActionTuple, SharedAction
from switchgame.shedding.rulesets import Rules, saved_rules
from switchgame.shuffle import DealRng

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


def codec(of: Codec) -> Mapping[str, Codec]:
    """A field's metadata: the codec that copies, saves and loads it."""
    return MappingProxyType({"codec": of})


@dataclass(eq=False, repr=False)  # a match is itself, not its fields' values: equal by identity
class MatchState:
    """Everything a shedding match is at one moment (the behaviour is :class:`SheddingGame`'s).

    ``MatchState(rules, deals, target)`` is a new match waiting for its first deal. A field's
    initial value is its declared default (a keyword of the constructor: compiled, the dataclass
    decorator's ``__init__`` sets only what it takes, ``init=False`` defaults stay unset), else
    follows from the number of players (:meth:`__post_init__`) or is the turn's first
    (:meth:`reset_turn`)."""

    # ------------------------------------------------------------ the match
    rules: Rules = field(metadata=codec(RULES))
    deals: int = field(default=1, metadata=codec(VALUE))
    target: int | None = field(default=None, metadata=codec(VALUE))
    phase: str = field(default=NEEDS_DEAL, kw_only=True, metadata=codec(VALUE))  # or PLAYING, OVER
    deal_number: int = field(default=0, kw_only=True, metadata=codec(VALUE))
    scores: list[int] = field(init=False, metadata=codec(INTS))
    deals_won: list[int] = field(init=False, metadata=codec(INTS))
    # One summary per finished deal, unchanged.
    history: list[dict[str, Any]] = field(
        default_factory=list, init=False, metadata=codec(SUMMARIES)
    )
    # ------------------------------------------------------------ the deal
    hands: list[list[int]] = field(init=False, metadata=codec(HANDS))
    stock: list[int] = field(default_factory=list, kw_only=True, metadata=codec(CARDS))  # top: last
    discard: list[int] = field(
        default_factory=list, kw_only=True, metadata=codec(CARDS)
    )  # top: last
    # What the whole table saw of this deal (public_log.py).
    public_log: list[int] = field(default_factory=list, kw_only=True, metadata=codec(LOG))
    rng: DealRng | None = field(default=None, kw_only=True, metadata=codec(RNG))
    active_suit: int = field(default=-1, kw_only=True, metadata=codec(VALUE))
    direction: int = field(default=1, kw_only=True, metadata=codec(VALUE))
    current: int = field(default=-1, kw_only=True, metadata=codec(VALUE))
    pending_draw: int = field(default=0, kw_only=True, metadata=codec(VALUE))
    # The card whose power the pending pick-up answers to.
    pending_card: int = field(default=-1, kw_only=True, metadata=codec(VALUE))
    pending_skip: int = field(default=0, kw_only=True, metadata=codec(VALUE))
    pending_skip_card: int = field(default=-1, kw_only=True, metadata=codec(VALUE))
    skips_owed: list[int] = field(init=False, metadata=codec(INTS))
    announced: list[bool] = field(init=False, metadata=codec(INTS))
    out: list[bool] = field(init=False, metadata=codec(INTS))
    active: int = field(init=False, metadata=codec(VALUE))  # seats still in the deal
    finish_order: list[int] = field(default_factory=list, kw_only=True, metadata=codec(INTS))
    first_out_points: int | None = field(default=None, kw_only=True, metadata=codec(VALUE))
    # Consecutive turns in which nobody could play or draw.
    stuck: int = field(default=0, kw_only=True, metadata=codec(VALUE))
    turns: int = field(default=0, kw_only=True, metadata=codec(VALUE))  # turns begun in this deal
    # ------------------------------------------------------------ the turn (see reset_turn)
    played: int = field(init=False, metadata=codec(VALUE))
    last: int = field(init=False, metadata=codec(VALUE))
    run_dir: int = field(init=False, metadata=codec(VALUE))
    suit_mode: int = field(init=False, metadata=codec(VALUE))
    again: bool = field(init=False, metadata=codec(VALUE))
    must_cover: bool = field(init=False, metadata=codec(VALUE))
    drawn: int = field(init=False, metadata=codec(VALUE))
    turn_skip: int = field(init=False, metadata=codec(VALUE))
    turn_drew: int = field(init=False, metadata=codec(VALUE))
    turn_forced: bool = field(init=False, metadata=codec(VALUE))
    barred: bool = field(init=False, metadata=codec(VALUE))
    # The legal actions of the position, once asked for, in the engine's and the API's form.
    legal_tuples_cache: list[ActionTuple] | None = field(init=False, metadata=codec(CACHE))
    legal_actions_cache: list[SharedAction] | None = field(init=False, metadata=codec(CACHE))

    @property
    def game(self) -> str:
        # A property, not a class attribute: compiled, the dataclass would take that for a field.
        return GAME

    def __post_init__(self) -> None:
        """The fields one per seat, and the turn's."""
        n = self.rules.players
        self.scores = [0] * n
        self.deals_won = [0] * n
        self.hands = [[] for _ in range(n)]
        self.skips_owed = [0] * n
        self.announced = [False] * n
        self.out = [False] * n
        self.active = n
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
        # Not through __init__: every field is set here, from this match.
        cls = type(self)
        other = cls.__new__(cls)
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
        if data.get("format") != FORMAT or data.get("game") != GAME:
            raise ValueError(f"not a format-{FORMAT} shedding game")
        # Not through __init__ (a game is loaded on every move and view): every field is set here.
        game = cls.__new__(cls)
        game.rules = saved_rules(data["ruleset"], data["options"], data["players"])
        for name in _CACHES:
            setattr(game, name, None)
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


# How each field of MatchState is copied, saved and loaded, in its order.
FIELDS: Final[Mapping[str, Codec]] = MappingProxyType(
    {each.name: each.metadata["codec"] for each in fields(MatchState)}
)
_SHARED = tuple(name for name, codec in FIELDS.items() if codec.copy is _same)
_COPIED = tuple((name, codec.copy) for name, codec in FIELDS.items() if codec.copy is not _same)
_CACHES = tuple(name for name, codec in FIELDS.items() if codec is CACHE)
_SAVED = tuple((name, codec) for name, codec in FIELDS.items() if codec.saved)
# Loading takes the plain values in one step: a game is loaded on every move and view.
_SAVED_VALUES = tuple(name for name, codec in _SAVED if codec is VALUE)
_saved_values = itemgetter(*_SAVED_VALUES)
_SAVED_CONVERTED = tuple((name, codec) for name, codec in _SAVED if codec is not VALUE)
