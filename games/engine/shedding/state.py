"""The fields of a shedding match, declared once; copying and saving follow from the declaration.

Every field is a class annotation of :class:`DealState`, and that is the only place it is named:
``__slots__`` is made from the annotations, and :meth:`~DealState.copy`, :meth:`~DealState.to_dict`
and :meth:`~DealState.from_dict` go through every field, each the way its type says. A plain type
(``int``, ``bool``, ``str``, ``int | None``) is a value that copies share; anything else is
``Annotated`` with the :class:`Codec` that copies, saves and loads it. A new list field must say how
it is copied, so two copies can never share it by accident.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from operator import itemgetter
from types import UnionType
from typing import Annotated, Any, Self, Union, get_args, get_origin, get_type_hints

from games.engine.cards import CARD_IDS, codes
from games.engine.rng import DealRng
from games.engine.rulesets import Rules, saved_rules
from games.engine.shedding.actions import ActionTuple, SharedAction

FORMAT = 1
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


class DealState:
    """Everything a shedding match is at one moment (the behaviour is :class:`SheddingGame`'s)."""

    game = "shedding"

    # ------------------------------------------------------------ the match
    rules: Annotated[Rules, RULES]
    deals: int
    target: int | None
    phase: str  # NEEDS_DEAL, PLAYING or OVER
    deal_number: int
    scores: Annotated[list[int], INTS]
    deals_won: Annotated[list[int], INTS]
    history: Annotated[list[dict[str, Any]], SUMMARIES]  # one summary per finished deal, unchanged
    # ------------------------------------------------------------ the deal
    hands: Annotated[list[list[int]], HANDS]
    stock: Annotated[list[int], CARDS]  # the top card is the last item
    discard: Annotated[list[int], CARDS]  # the top card is the last item
    public_log: Annotated[list[int], LOG]  # what the whole table saw of this deal (public_log.py)
    rng: Annotated[DealRng | None, RNG]
    active_suit: int
    direction: int
    current: int
    pending_draw: int
    pending_card: int  # the card whose power the pending pick-up answers to
    pending_skip: int
    pending_skip_card: int
    skips_owed: Annotated[list[int], INTS]
    announced: Annotated[list[bool], INTS]
    out: Annotated[list[bool], INTS]
    active: int  # seats still in the deal
    finish_order: Annotated[list[int], INTS]
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
    legal_tuples_cache: Annotated[list[ActionTuple] | None, CACHE]
    legal_actions_cache: Annotated[list[SharedAction] | None, CACHE]

    __slots__ = tuple(__annotations__)  # the fields above, and only they

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
        other = object.__new__(type(self))
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
        if data.get("format") != FORMAT or data.get("game") != cls.game:
            raise ValueError(f"not a format-{FORMAT} shedding game")
        game = object.__new__(cls)
        game.rules = saved_rules(data["ruleset"], data["options"], data["players"])
        game.legal_tuples_cache = game.legal_actions_cache = None
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


_VALUE_TYPES = (int, bool, str, type(None))


def _union_parts(hint: Any) -> tuple[Any, ...]:
    return get_args(hint) if get_origin(hint) in (Union, UnionType) else (hint,)


def _codec(name: str, hint: Any) -> Codec:
    """A field's codec: the one its annotation names, or VALUE for an immutable scalar."""
    if get_origin(hint) is Annotated:
        codec = get_args(hint)[1]
        if isinstance(codec, Codec):
            return codec
    elif all(part in _VALUE_TYPES for part in _union_parts(hint)):
        return VALUE
    raise TypeError(f"DealState.{name}: a {hint} field needs Annotated[..., codec]")


_FIELDS: dict[str, Codec] = {
    name: _codec(name, hint)
    for name, hint in get_type_hints(DealState, include_extras=True).items()
}
_SHARED = tuple(name for name, codec in _FIELDS.items() if codec.copy is _same)
_COPIED = tuple((name, codec.copy) for name, codec in _FIELDS.items() if codec.copy is not _same)
_SAVED = tuple((name, codec) for name, codec in _FIELDS.items() if codec.saved)
# Loading takes the plain values in one step: a game is loaded on every move and view.
_SAVED_VALUES = tuple(name for name, codec in _SAVED if codec is VALUE)
_saved_values = itemgetter(*_SAVED_VALUES)
_SAVED_CONVERTED = tuple((name, codec) for name, codec in _SAVED if codec is not VALUE)
