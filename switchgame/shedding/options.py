"""The options of shedding Switch's rulesets (docs/rules.md §3): their values, their validation,
and power cards as data.

Card patterns: a rank (``"2"``: every 2), a card (``"AH"``), a rank and a colour (``"J-black"``,
``"J-red"``), or ``"X"`` (the jokers). A card takes the effect of its most specific pattern.

Effects (every key optional):

``draw`` (int)
    the next player picks up this many unless they answer; ``stack_draw`` (int, default ``draw``) is
    what the card adds when played onto a pick-up that is already pending (French 2s: 2, 3, 4, 5).
``stacked_by`` (patterns)
    cards that may answer this pick-up by adding their own ``stack_draw`` and passing it on.
``cancelled_by`` ({pattern: int or "all"})
    cards that may answer this pick-up by taking that much off it (whatever is left passes on).
``skip`` (int)
    the next player misses this many turns; with ``skip_chain`` ``"pass"`` they may answer with the
    same card to pass the skip on, with ``"add"`` answering adds to it (J28 8s).
``reverse`` (bool)
    reverses the direction (with two players in the deal: see ``two_player_reverse``).
``names_suit`` (bool)
    the player names the active suit. ``anywhere`` (bool): playable on any card (not on a pending
    pick-up). ``wild`` (bool): both — the card stands for any card.
``then`` (``"same_rank"``, ``"suit"``, ``"again"``, ``"cover"``)
    what the same player may play next in the turn: more cards of the same rank (Irish jacks), any
    card of the active suit for the rest of the turn (Black Jack 7, J28 jack), one more card that
    matches (play again), or a card that *must* cover this one (Black Jack queen).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from switchgame.cards import (
    BLACK_SUITS,
    JOKER_1,
    JOKER_2,
    JOKER_RANK,
    RANK_OF,
    RANKS,
    STANDARD_CARDS,
    SUIT_OF,
    SUITS,
)
from switchgame.protocol import InvalidOptions
from switchgame.words import N_, Sentence, quoted

if TYPE_CHECKING:
    pass

DRAW_RULES = ("one", "one_then_play", "until_playable", "two")
MULTI_CARD = ("none", "same_rank", "runs", "same_rank_and_runs")
PLAY_UNTIL = ("first_out", "one_left")
TWO_PLAYER_REVERSE = ("skip", "reverse")
THEN = ("same_rank", "suit", "again", "cover")
SKIP_CHAIN = ("pass", "add")
CANCEL_ALL = 1 << 30  # a cancel amount larger than any pick-up
MAX_PLAYERS = 10
MAX_DECKS = 3

LAST_CARD_PENALTY = re.compile(
    r"^(none|no_finish|skip_and_draw_1|draw_([1-9])|no_finish_draw_([1-9]))$"
)
_PATTERN = re.compile(r"^(?:X|([A2-9TJQK])(?:([CDHS])|-(black|red))?)$")

# Rank order for the `must_not_be_lower` option, by rank: the article ranks ace high.
ACE_HIGH = 13
HEIGHT: tuple[int, ...] = tuple(ACE_HIGH if r == 0 else r for r in range(JOKER_RANK + 1))

_EFFECT_KEYS = frozenset(
    {
        "draw",
        "stack_draw",
        "stacked_by",
        "cancelled_by",
        "skip",
        "skip_chain",
        "reverse",
        "names_suit",
        "anywhere",
        "wild",
        "then",
    }
)

OPTION_NAMES = (
    "decks",
    "jokers",
    "hand_size",
    "players",
    "starter_may_be_power",
    "draw_rule",
    "may_draw_voluntarily",
    "multi_card",
    "powers",
    "max_draw",
    "last_card_penalty",
    "finish_unannounced_in_one_turn",
    "finish_on_power",
    "play_until",
    "blunder_penalty",
    "two_player_reverse",
    "must_not_be_lower",
    "counter_clockwise",
)


# --------------------------------------------------------------------------- patterns and powers


def pattern_cards(pattern: str) -> frozenset[int]:
    """The cards a pattern names (``"J-black"`` → {JC, JS}); raises ValueError for a bad pattern."""
    match = _PATTERN.match(pattern) if isinstance(pattern, str) else None
    if match is None:
        raise ValueError(
            f'{quoted(pattern)} is not a card pattern (e.g. "2", "AH", "J-black", "X")'
        )
    if pattern == "X":
        return frozenset({JOKER_1, JOKER_2})
    rank_letter, suit_letter, colour = match.groups()
    rank = RANKS.index(rank_letter)
    cards = [c for c in STANDARD_CARDS if RANK_OF[c] == rank]
    if suit_letter:
        cards = [c for c in cards if SUIT_OF[c] == SUITS.index(suit_letter)]
    elif colour:
        black = colour == "black"
        cards = [c for c in cards if (SUIT_OF[c] in BLACK_SUITS) == black]
    return frozenset(cards)


def specificity(pattern: str) -> int:
    """Exact card beats rank-and-colour beats rank (the jokers' ``X`` is exact)."""
    if pattern == "X" or len(pattern) == 2:
        return 2
    return 1 if "-" in pattern else 0


@dataclass(frozen=True, slots=True)
class Power:
    """A compiled effect (see the module docstring); ``stacked_by``/``cancelled_by`` hold card ids."""

    pattern: str
    draw: int
    stack_draw: int
    stacked_by: frozenset[int]
    cancelled_by: Mapping[int, int]
    answered_by: frozenset[int]  # the cards of stacked_by and cancelled_by: a pick-up's answers
    skip: int
    skip_chain: str
    reverse: bool
    names_suit: bool
    anywhere: bool
    then: str


def invalid_option(option: str, why: str, **values: object) -> InvalidOptions:
    """The refusal of ``option``: ``why`` is a marked template (``N_``) of ``values``, so that the
    service says it in the reader's language (``switchgame.words.Sentence``)."""
    return InvalidOptions(
        Sentence(N_("{option}: {why}"), option=option, why=Sentence(why, **values))
    )


def check_int(option: str, value: Any, low: int, high: int | None = None) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise invalid_option(option, N_("must be a whole number, not {value}"), value=quoted(value))
    if low <= value and (high is None or value <= high):
        return value
    if high is None:
        raise invalid_option(
            option, N_("must be at least {low}, not {value}"), low=low, value=value
        )
    raise invalid_option(
        option, N_("must be from {low} to {high}, not {value}"), low=low, high=high, value=value
    )


def _check_bool(option: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise invalid_option(option, N_("must be true or false, not {value}"), value=quoted(value))
    return value


def _check_choice(option: str, value: Any, choices: tuple[str, ...]) -> str:
    if value not in choices:
        raise invalid_option(
            option,
            N_("must be one of {choices}, not {value}"),
            choices=", ".join(choices),
            value=quoted(value),
        )
    return str(value)


def _normalise_effect(pattern: str, effect: Any) -> dict[str, Any]:
    where = f"powers.{pattern}"
    if not isinstance(effect, Mapping):
        raise invalid_option(
            where,
            N_("an effect is an object such as {example}"),
            example='{"draw": 2, "stacked_by": ["2"]}',
        )
    unknown = set(effect) - _EFFECT_KEYS
    if unknown:
        names = ", ".join(sorted(_EFFECT_KEYS))
        raise invalid_option(
            where,
            N_("unknown effect {effect}; effects are {effects}"),
            effect=quoted(sorted(unknown)[0]),
            effects=names,
        )
    out: dict[str, Any] = {}
    for key in ("draw", "stack_draw", "skip"):
        if key in effect:
            out[key] = check_int(f"{where}.{key}", effect[key], 0 if key == "stack_draw" else 1, 20)
    for key in ("reverse", "names_suit", "anywhere", "wild"):
        if key in effect and _check_bool(f"{where}.{key}", effect[key]):
            out[key] = True
    if "skip_chain" in effect:
        if "skip" not in out:
            raise invalid_option(
                f"{where}.skip_chain", N_("only a card that skips can chain its skip")
            )
        out["skip_chain"] = _check_choice(f"{where}.skip_chain", effect["skip_chain"], SKIP_CHAIN)
    if "then" in effect:
        out["then"] = _check_choice(f"{where}.then", effect["then"], THEN)
    if "stack_draw" in out and "draw" not in out:
        raise invalid_option(
            f"{where}.stack_draw", N_("only a card that makes the next player draw can stack")
        )
    for key in ("stacked_by", "cancelled_by"):
        if key in effect and "draw" not in out:
            raise invalid_option(
                f"{where}.{key}", N_("only a pick-up (draw) can be stacked on or cancelled")
            )
    if "stacked_by" in effect:
        answers = effect["stacked_by"]
        if not isinstance(answers, list | tuple):
            raise invalid_option(f"{where}.stacked_by", N_("must be a list of card patterns"))
        for answer in answers:
            _check_pattern(f"{where}.stacked_by", answer)
        out["stacked_by"] = sorted(set(answers))
    if "cancelled_by" in effect:
        cancels = effect["cancelled_by"]
        if not isinstance(cancels, Mapping):
            raise invalid_option(
                f"{where}.cancelled_by", N_('must map card patterns to an amount or "all"')
            )
        out["cancelled_by"] = {}
        for answer, amount in sorted(cancels.items()):
            _check_pattern(f"{where}.cancelled_by", answer)
            if amount != "all":
                check_int(f"{where}.cancelled_by.{answer}", amount, 1, 40)
            out["cancelled_by"][answer] = amount
    return out


def _check_pattern(option: str, pattern: Any) -> None:
    try:
        pattern_cards(pattern)
    except ValueError as error:
        raise invalid_option(option, "{error}", error=str(error)) from None


def compile_power(pattern: str, effect: Mapping[str, Any]) -> Power:
    draw = effect.get("draw", 0)
    wild = effect.get("wild", False)
    stacked_by: set[int] = set()
    for answer in effect.get("stacked_by", ()):
        stacked_by |= pattern_cards(answer)
    cancelled_by: dict[int, int] = {}
    for answer, amount in effect.get("cancelled_by", {}).items():
        for card_id in pattern_cards(answer):
            cancelled_by[card_id] = CANCEL_ALL if amount == "all" else amount
    return Power(
        pattern=pattern,
        draw=draw,
        stack_draw=effect.get("stack_draw", draw),
        stacked_by=frozenset(stacked_by),
        cancelled_by=MappingProxyType(cancelled_by),
        answered_by=frozenset(stacked_by | cancelled_by.keys()),
        skip=effect.get("skip", 0),
        skip_chain=effect.get("skip_chain", ""),
        reverse=effect.get("reverse", False),
        names_suit=effect.get("names_suit", False) or wild,
        anywhere=effect.get("anywhere", False) or wild,
        then=effect.get("then", ""),
    )


# --------------------------------------------------------------------------- per-player-count values


def _check_by_players(option: str, value: Any, low: int, high: int) -> int | dict[str, int]:
    """An int, or {"min players": value} steps such as {"2": 12, "4": 10} (French hand sizes)."""
    if isinstance(value, Mapping):
        if not value:
            raise invalid_option(option, N_("the table by number of players is empty"))
        steps: dict[str, int] = {}
        for key, item in value.items():
            if not (isinstance(key, str) and key.isdigit() and 1 <= int(key) <= MAX_PLAYERS):
                raise invalid_option(
                    option,
                    N_("keys are player counts from 1 to {most}, not {key}"),
                    most=MAX_PLAYERS,
                    key=quoted(key),
                )
            steps[str(int(key))] = check_int(f"{option}.{key}", item, low, high)
        return dict(sorted(steps.items(), key=lambda kv: int(kv[0])))
    return check_int(option, value, low, high)


def value_for_players(value: int | Mapping[str, int], players: int) -> int:
    """Resolve an option given by player count: the step with the largest key not above ``players``."""
    if isinstance(value, int):
        return value
    steps = sorted((int(k), v) for k, v in value.items())
    chosen = steps[0][1]
    for minimum, item in steps:
        if minimum <= players:
            chosen = item
    return chosen


# --------------------------------------------------------------------------- the ruleset


def normalise_options(options: Mapping[str, Any]) -> dict[str, Any]:
    unknown = [key for key in options if key not in OPTION_NAMES]
    if unknown:
        raise invalid_option(
            unknown[0], N_("unknown option; options are {names}"), names=", ".join(OPTION_NAMES)
        )
    missing = [key for key in OPTION_NAMES if key not in options]
    if missing:
        raise invalid_option(missing[0], N_("missing"))
    o = options
    out: dict[str, Any] = {
        "decks": _check_by_players("decks", o["decks"], 1, MAX_DECKS),
        "jokers": check_int("jokers", o["jokers"], 0, 2 * MAX_DECKS),
        "hand_size": _check_by_players("hand_size", o["hand_size"], 2, 30),
        "starter_may_be_power": _check_bool("starter_may_be_power", o["starter_may_be_power"]),
        "draw_rule": _check_choice("draw_rule", o["draw_rule"], DRAW_RULES),
        "may_draw_voluntarily": _check_bool("may_draw_voluntarily", o["may_draw_voluntarily"]),
        "multi_card": _check_choice("multi_card", o["multi_card"], MULTI_CARD),
        "finish_unannounced_in_one_turn": _check_bool(
            "finish_unannounced_in_one_turn", o["finish_unannounced_in_one_turn"]
        ),
        "finish_on_power": _check_bool("finish_on_power", o["finish_on_power"]),
        "play_until": _check_choice("play_until", o["play_until"], PLAY_UNTIL),
        "blunder_penalty": check_int("blunder_penalty", o["blunder_penalty"], 0, 10),
        "two_player_reverse": _check_choice(
            "two_player_reverse", o["two_player_reverse"], TWO_PLAYER_REVERSE
        ),
        "must_not_be_lower": _check_bool("must_not_be_lower", o["must_not_be_lower"]),
        "counter_clockwise": _check_bool("counter_clockwise", o["counter_clockwise"]),
    }
    players = o["players"]
    if not isinstance(players, list | tuple) or len(players) != 2:
        raise invalid_option("players", N_("must be [min, max]"))
    low = check_int("players", players[0], 2, MAX_PLAYERS)
    high = check_int("players", players[1], 2, MAX_PLAYERS)
    if low > high:
        raise invalid_option("players", N_("min {low} is above max {high}"), low=low, high=high)
    out["players"] = [low, high]
    max_draw = o["max_draw"]
    out["max_draw"] = None if max_draw is None else check_int("max_draw", max_draw, 1, 60)
    penalty = o["last_card_penalty"]
    if not isinstance(penalty, str) or not LAST_CARD_PENALTY.match(penalty):
        raise invalid_option(
            "last_card_penalty",
            N_(
                "must be none, draw_N, no_finish, no_finish_draw_N or skip_and_draw_1 "
                "(N from 1 to 9), not {value}"
            ),
            value=quoted(penalty),
        )
    out["last_card_penalty"] = penalty
    powers = o["powers"]
    if not isinstance(powers, Mapping):
        raise invalid_option("powers", N_("must map card patterns to effects"))
    normalised: dict[str, dict[str, Any]] = {}
    for pattern, effect in powers.items():
        _check_pattern("powers", pattern)
        normalised[pattern] = _normalise_effect(pattern, effect)
    if out["jokers"] and "X" not in normalised:
        # A joker has no suit, so without a power it could only ever be played on a joker.
        normalised["X"] = {"wild": True}
    out["powers"] = dict(sorted(normalised.items()))
    return out
