"""Actions of shedding Switch: the API's dicts, the engine's tuples, and parsing one into the other.

Internally an action is a compact tuple ``(kind, card, suit, announce)``: ``kind`` is PLAY, DRAW or
END, ``card`` a card id (or -1), ``suit`` a suit index (or -1), ``announce`` a bool. Dicts in the
API's JSON shape (``{"action": "play", "card": "JS", "suit": "H"}``) exist only at the boundary;
those that ``legal_actions()`` hands out are built once per action (:class:`SharedAction`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Generic, NoReturn, Self, TypeVar

from switchgame.cards import CARD_CODES, CARD_IDS, SUITS, InvalidCard, parse_card, parse_suit
from switchgame.protocol import Action, InvalidAction
from switchgame.words import quoted

PLAY, DRAW, END = 0, 1, 2
ActionTuple = tuple[int, int, int, bool]
DRAW_ACTION: ActionTuple = (DRAW, -1, -1, False)
END_ACTION: ActionTuple = (END, -1, -1, False)
PLAIN_PLAYS: tuple[ActionTuple, ...] = tuple((PLAY, c, -1, False) for c in range(len(CARD_CODES)))
ALL_SUITS = (0, 1, 2, 3)

SUIT_IDS: dict[str, int] = {letter: suit for suit, letter in enumerate(SUITS)}

_ACTION_FIELDS = frozenset({"action", "card", "suit", "announce"})


class SharedDict(dict[str, Any]):
    """A dict in the API's JSON shape built once and handed to every caller (a legal action, an
    entry of the public log). Handed out as read-only (``protocol.Action`` is a ``Mapping``): a dict
    still, for the JSON encoders, and one that refuses changes at run time too, for the views, whose
    entries are typed ``Any`` (``dict(shared)`` is a copy that may be changed). Copying returns it;
    pickle and JSON see the plain dict it reads as."""

    __slots__ = ()

    def _refuse(self) -> NoReturn:
        raise TypeError(f"{type(self).__name__} is shared: change a copy, dict(...)")

    # Every method that changes a dict, one by one: a compiled class (mypyc) takes no method aliases.
    def __setitem__(self, key: str, value: Any) -> NoReturn:
        self._refuse()

    def __delitem__(self, key: str) -> NoReturn:
        self._refuse()

    def __ior__(self, other: Any) -> NoReturn:  # type: ignore[misc]
        self._refuse()

    def clear(self) -> NoReturn:
        self._refuse()

    def pop(self, *args: Any) -> NoReturn:
        self._refuse()

    def popitem(self) -> NoReturn:
        self._refuse()

    def setdefault(self, *args: Any) -> NoReturn:
        self._refuse()

    def update(self, *args: Any, **kwargs: Any) -> NoReturn:
        self._refuse()

    def __copy__(self) -> Self:
        return self  # it never changes

    def __deepcopy__(self, memo: dict[int, Any]) -> Self:
        return self

    def __reduce__(self) -> tuple[type[dict[str, Any]], tuple[dict[str, Any]]]:
        return dict, (dict(self),)


class SharedAction(SharedDict):
    """A legal action, handed out by every ``legal_actions()``; it carries its tuple, ``move``,
    so that ``apply`` takes it back without parsing it."""

    __slots__ = ("move",)

    def __init__(self, move: ActionTuple) -> None:
        kind, card_id, suit, announce = move
        if kind == DRAW:
            fields = {"action": "draw"}
        elif kind == END:
            fields = {"action": "end_turn"}
        else:
            fields = {"action": "play", "card": CARD_CODES[card_id]}
            if suit >= 0:
                fields["suit"] = SUITS[suit]
            if announce:
                fields["announce"] = "last_card"
        super().__init__(fields)
        self.move = move


# The plays of each card, canonical tuples: PLAY_VARIANTS[announcing][names a suit][card] (a variant
# per named suit, and with or without announcing last card).
PLAY_VARIANTS: tuple[tuple[tuple[tuple[ActionTuple, ...], ...], ...], ...] = tuple(
    tuple(
        tuple(
            (PLAIN_PLAYS[card_id],)
            if not names_suit and not announcing
            else tuple(
                (PLAY, card_id, suit, announce)
                for suit in (ALL_SUITS if names_suit else (-1,))
                for announce in ((False, True) if announcing else (False,))
            )
            for card_id in range(len(CARD_CODES))
        )
        for names_suit in (False, True)
    )
    for announcing in (False, True)
)

# Every action tuple's dict, built once. Keyed by the very tuples legal moves are made of
# (PLAY_VARIANTS), so that a parsed action is found among the legal ones by identity.
ACTION_DICTS: dict[ActionTuple, SharedAction] = {
    action: SharedAction(action)
    for action in [
        DRAW_ACTION,
        END_ACTION,
        *[
            play
            for by_names_suit in PLAY_VARIANTS
            for by_card in by_names_suit
            for plays in by_card
            for play in plays
        ],
    ]
}

Form = TypeVar("Form", ActionTuple, SharedAction)


class ActionForms(Generic[Form]):
    """What a list of legal actions is built from, in one form: the engine's tuples or the API's
    shared dicts. Each list is built in the form its caller asked for, so that neither form has to
    be translated from the other action by action. (Not a dataclass: mypyc compiles no generic
    dataclass.)"""

    plays: tuple[tuple[tuple[tuple[Form, ...], ...], ...], ...]  # shaped like PLAY_VARIANTS
    draw: Form
    end: Form

    __slots__ = ("draw", "end", "plays")

    def __init__(
        self, plays: tuple[tuple[tuple[tuple[Form, ...], ...], ...], ...], draw: Form, end: Form
    ) -> None:
        self.plays = plays
        self.draw = draw
        self.end = end


TUPLE_FORMS = ActionForms(PLAY_VARIANTS, DRAW_ACTION, END_ACTION)
API_FORMS = ActionForms(
    tuple(
        tuple(
            tuple(tuple(ACTION_DICTS[play] for play in plays) for plays in by_card)
            for by_card in by_names_suit
        )
        for by_names_suit in PLAY_VARIANTS
    ),
    ACTION_DICTS[DRAW_ACTION],
    ACTION_DICTS[END_ACTION],
)

# Parsing's fast path for plain dicts shaped like those legal_actions gives (a request's JSON): by
# their (action, card, suit, announce) fields, the action tuple and the dict's number of fields.
_CANONICAL: dict[tuple[Any, ...], tuple[ActionTuple, int]] = {
    (d["action"], d.get("card"), d.get("suit"), d.get("announce")): (action, len(d))
    for action, d in ACTION_DICTS.items()
}


def action_dict(action: ActionTuple) -> Action:
    """The API form of an internal action tuple (a fresh dict)."""
    return ACTION_DICTS[action].copy()


def parse_action(action: Any) -> ActionTuple:
    """The internal tuple of an API action; raises InvalidAction when it is malformed."""
    if type(action) is SharedAction:
        return action.move
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
        # Only these fields, so no unknown field to check.
        if canonical is not None and len(action) == canonical[1]:
            return canonical[0]
    if not isinstance(action, Mapping):
        raise InvalidAction('an action is an object such as {"action": "draw"}')
    if not action.keys() <= _ACTION_FIELDS:
        unknown = sorted(str(key) for key in action.keys() - _ACTION_FIELDS)
        raise InvalidAction(f"unknown field {quoted(unknown[0])} in the action")
    name = action.get("action")
    if name == "play":
        card_code = action.get("card")
        if not isinstance(card_code, str):
            raise InvalidAction('a play needs a card code, e.g. {"action": "play", "card": "7H"}')
        suit_text = action.get("suit")
        # Canonical codes (what legal_actions gives) take the dict look-ups; aliases parse.
        card_id = CARD_IDS.get(card_code)
        if suit_text is None:
            suit = -1
        else:
            suit = SUIT_IDS.get(suit_text, -2) if isinstance(suit_text, str) else -2
        try:
            if card_id is None:
                card_id = parse_card(card_code)
            if suit == -2:
                suit = parse_suit(suit_text)
        except InvalidCard as error:
            raise InvalidAction(str(error)) from None
        announce = action.get("announce")
        if announce is not None and announce != "last_card":
            raise InvalidAction(f'announce must be "last_card", not {quoted(announce)}')
        return (PLAY, card_id, suit, announce is not None)
    if name in ("draw", "end_turn"):
        for key in ("card", "suit", "announce"):
            if action.get(key) is not None:
                raise InvalidAction(f"{name} takes no {key}")
        return DRAW_ACTION if name == "draw" else END_ACTION
    raise InvalidAction(f"unknown action {quoted(name)}; actions are play, draw and end_turn")
