"""Rulesets of shedding Switch (docs/rules.md §3): the seven presets, house rules on them, and the
rules a game plays by.

A :class:`RuleSet` is a name plus a complete, validated set of option values
(:mod:`switchgame.shedding.options`). House rules are option overrides on a preset
(:meth:`RuleSet.with_options`). Power cards are data, so an eighth ruleset is one more table entry,
not more code.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from switchgame.cards import (
    JOKER_2,
    JOKER_RANK,
    RANK_OF,
    SUIT_OF,
    SUITS,
    make_deck,
)
from switchgame.protocol import InvalidOptions
from switchgame.shedding.options import (
    ACE_HIGH,
    HEIGHT,
    LAST_CARD_PENALTY,
    Power,
    compile_power,
    invalid_option,
    normalise_options,
    pattern_cards,
    specificity,
    value_for_players,
)
from switchgame.words import N_, Sentence, quoted


class UnknownRuleset(ValueError):
    """No shedding ruleset has this name."""


@dataclass(frozen=True)
class RuleSet:
    """A named, validated set of option values (docs/rules.md §3)."""

    name: str
    title: str
    description: str
    options: Mapping[str, Any]

    @classmethod
    def define(cls, name: str, title: str, description: str, **options: Any) -> RuleSet:
        """A ruleset from a complete set of option values (validated)."""
        return cls(name, title, description, MappingProxyType(normalise_options(options)))

    @property
    def players(self) -> tuple[int, int]:
        low, high = self.options["players"]
        return (low, high)

    def options_json(self) -> dict[str, Any]:
        """Every option value, as a fresh JSON-ready dict."""
        return {name: _json_copy(value) for name, value in self.options.items()}

    def with_options(self, overrides: Mapping[str, Any] | None) -> RuleSet:
        """This ruleset with house rules applied; raises InvalidOptions naming the option and why.

        ``powers`` in ``overrides`` is merged pattern by pattern: an effect replaces the preset's
        effect for that pattern, ``null`` removes the pattern.
        """
        if not overrides:
            return self
        if not isinstance(overrides, Mapping):
            raise InvalidOptions(Sentence(N_("options: must be an object of option values")))
        merged = self.options_json()
        for key, value in overrides.items():
            if key == "powers" and isinstance(value, Mapping):
                powers = merged["powers"]
                for pattern, effect in value.items():
                    if effect is None:
                        powers.pop(pattern, None)
                    else:
                        powers[pattern] = effect
            else:
                merged[key] = value
        return self.with_all_options(merged)

    def with_all_options(self, options: Mapping[str, Any]) -> RuleSet:
        """This ruleset's name with exactly ``options`` (a complete set, e.g. from a saved game)."""
        return RuleSet(
            self.name, self.title, self.description, MappingProxyType(normalise_options(options))
        )

    def compile(self, players: int) -> Rules:
        """The rules for ``players`` seats; raises InvalidOptions when they cannot play this ruleset.

        Compiled once per name, options and player count, and shared: :class:`Rules` is immutable.
        """
        compiled = _COMPILED.setdefault((self.name, players), [])
        for rules in compiled:
            if rules.ruleset.options == self.options:
                return rules
        rules = Rules.build(self, players)
        compiled.insert(0, rules)
        del compiled[_COMPILED_PER_KEY:]
        return rules


def _json_copy(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {key: _json_copy(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_json_copy(item) for item in value]
    return value


@dataclass(frozen=True, slots=True, eq=False)
class Rules:
    """A ruleset compiled for a number of players: plain values and per-card tables for speed.

    Immutable, and shared by every game of the same ruleset, options and player count
    (:meth:`RuleSet.compile` compiles each once). Compared by identity.
    """

    ruleset: RuleSet
    players: int
    decks: int
    jokers: int
    hand_size: int
    deck: tuple[int, ...]
    starter_may_be_power: bool
    draw_rule: str
    may_draw_voluntarily: bool
    multi_card: str
    same_rank: bool
    runs: bool
    max_draw: int  # 0: no cap
    # penalty_kind: "none", "draw", "no_finish" or "skip_and_draw"; penalty_draw: its N (0 for a
    # plain no_finish, whose barred player draws by the draw rule).
    penalty_kind: str
    penalty_draw: int
    # Going out requires having announced (docs/rules.md §2 Last card), so a play that leaves one
    # card unannounced bars that card for the rest of the turn — unless the ruleset lets a player
    # go out with several cards in one turn unannounced (J28, docs/rules.md §3).
    bars_unannounced_in_turn: bool
    finish_on_power: bool
    one_left: bool
    blunder_penalty: int
    two_player_reverse_skips: bool
    must_not_be_lower: bool
    counter_clockwise: bool
    power: tuple[Power | None, ...]  # by card id
    anywhere: frozenset[int]
    names_suit: frozenset[int]
    # The cards that may start a turn (docs/rules.md §2 Matching), as playable_on[top card's
    # rank][active suit]; the last entry, so [-1], is for no active suit.
    playable_on: tuple[tuple[frozenset[int], ...], ...]

    @classmethod
    def build(cls, ruleset: RuleSet, players: int) -> Rules:
        """Compile ``ruleset`` for ``players`` seats; raises InvalidOptions when they cannot play it."""
        o = ruleset.options
        low, high = ruleset.players
        if isinstance(players, bool) or not isinstance(players, int) or not low <= players <= high:
            raise invalid_option(
                "players",
                N_("{ruleset} is for {low} to {high} players, not {players}"),
                ruleset=ruleset.name,
                low=low,
                high=high,
                players=quoted(players),
            )
        decks = value_for_players(o["decks"], players)
        hand_size = value_for_players(o["hand_size"], players)
        deck = tuple(make_deck(decks, o["jokers"]))
        needed = players * hand_size + 1
        if needed > len(deck):
            raise invalid_option(
                "hand_size",
                N_(
                    "{players} hands of {size} and a starter need {needed} cards; "
                    "the deck has {deck}"
                ),
                players=players,
                size=hand_size,
                needed=needed,
                deck=len(deck),
            )
        penalty = LAST_CARD_PENALTY.match(o["last_card_penalty"])
        assert penalty is not None  # validated
        kind, draw_n, no_finish_n = penalty.groups()
        if draw_n:
            penalty_kind, penalty_draw = "draw", int(draw_n)
        elif kind.startswith("no_finish"):
            penalty_kind, penalty_draw = "no_finish", int(no_finish_n or 0)
        elif kind == "skip_and_draw_1":
            penalty_kind, penalty_draw = "skip_and_draw", 1
        else:
            penalty_kind, penalty_draw = "none", 0
        power: list[Power | None] = [None] * (JOKER_2 + 1)
        rank_of_power: list[int] = [-1] * (JOKER_2 + 1)
        for pattern, effect in o["powers"].items():
            compiled = compile_power(pattern, effect)
            for card_id in pattern_cards(pattern):
                if specificity(pattern) > rank_of_power[card_id]:
                    power[card_id] = compiled
                    rank_of_power[card_id] = specificity(pattern)
        anywhere = frozenset(c for c, p in enumerate(power) if p is not None and p.anywhere)
        must_not_be_lower = o["must_not_be_lower"]
        return cls(
            ruleset=ruleset,
            players=players,
            decks=decks,
            jokers=o["jokers"],
            hand_size=hand_size,
            deck=deck,
            starter_may_be_power=o["starter_may_be_power"],
            draw_rule=o["draw_rule"],
            may_draw_voluntarily=o["may_draw_voluntarily"],
            multi_card=o["multi_card"],
            same_rank=o["multi_card"] in ("same_rank", "same_rank_and_runs"),
            runs=o["multi_card"] in ("runs", "same_rank_and_runs"),
            max_draw=o["max_draw"] or 0,
            penalty_kind=penalty_kind,
            penalty_draw=penalty_draw,
            bars_unannounced_in_turn=(
                penalty_kind != "none" and not o["finish_unannounced_in_one_turn"]
            ),
            finish_on_power=o["finish_on_power"],
            one_left=o["play_until"] == "one_left",
            blunder_penalty=o["blunder_penalty"],
            two_player_reverse_skips=o["two_player_reverse"] == "skip",
            must_not_be_lower=must_not_be_lower,
            counter_clockwise=o["counter_clockwise"],
            power=tuple(power),
            anywhere=anywhere,
            names_suit=frozenset(c for c, p in enumerate(power) if p is not None and p.names_suit),
            playable_on=tuple(
                tuple(
                    frozenset(
                        c
                        for c in range(JOKER_2 + 1)
                        if _matches(c, suit, rank, anywhere, must_not_be_lower)
                    )
                    for suit in (*range(len(SUITS)), -1)
                )
                for rank in range(JOKER_RANK + 1)
            ),
        )


def _matches(
    card_id: int, suit: int, top_rank: int, anywhere: frozenset[int], must_not_be_lower: bool
) -> bool:
    if card_id in anywhere:
        return True
    if SUIT_OF[card_id] != suit and RANK_OF[card_id] != top_rank:
        return False
    return (
        not must_not_be_lower
        or HEIGHT[RANK_OF[card_id]] >= HEIGHT[top_rank]
        or HEIGHT[top_rank] == ACE_HIGH  # after the highest card the count starts again
    )


# Compiled rules by (ruleset name, players): the most recently compiled option sets first.
_COMPILED: dict[tuple[str, int], list[Rules]] = {}
_COMPILED_PER_KEY = 32


def saved_rules(name: str, options: Mapping[str, Any], players: int) -> Rules:
    """The compiled rules of a saved game whose ``options`` are ``RuleSet.options_json()``'s.

    A saved game's options were complete and validated when it was saved, so options equal to
    those of rules already compiled are recognised without validating them again (loading a game
    must cost about as little as a move). Anything else is validated and compiled; a game saved
    before an option existed takes the preset's value for it. Raises UnknownRuleset or
    InvalidOptions.
    """
    for rules in _COMPILED.get((name, players), ()):
        if rules.ruleset.options == options:
            return rules
    preset = find_ruleset(name)
    return preset.with_all_options({**preset.options, **options}).compile(players)


# --------------------------------------------------------------------------- presets

BASE_OPTIONS: dict[str, Any] = {
    "decks": 1,
    "jokers": 0,
    "hand_size": 7,
    "players": [2, 7],
    "starter_may_be_power": False,
    "draw_rule": "one",
    "may_draw_voluntarily": False,
    "multi_card": "none",
    "powers": {},
    "max_draw": None,
    "last_card_penalty": "draw_2",
    "finish_unannounced_in_one_turn": False,
    "finish_on_power": True,
    "play_until": "first_out",
    "blunder_penalty": 0,
    "two_player_reverse": "skip",
    "must_not_be_lower": False,
    "counter_clockwise": False,
}

_TWO_STACKS = {"draw": 2, "stacked_by": ["2"]}


def _preset(name: str, title: str, description: str, **options: Any) -> RuleSet:
    return RuleSet.define(name, title, description, **{**BASE_OPTIONS, **options})


RULESETS: dict[str, RuleSet] = {
    ruleset.name: ruleset
    for ruleset in (
        _preset(
            "switch",
            N_("Switch"),
            N_(
                "The common British rules: 2s pick up two (and stack), 8s skip, an ace goes on "
                "anything and picks up four, a jack goes on anything and names the suit."
            ),
            players=[2, 10],
            decks={"2": 1, "8": 2},
            may_draw_voluntarily=True,
            powers={
                "2": _TWO_STACKS,
                "8": {"skip": 1},
                "A": {"draw": 4, "anywhere": True},
                "J": {"anywhere": True, "names_suit": True},
            },
        ),
        _preset(
            "jack-change-it",
            N_("Jack Change It"),
            N_(
                "Jacks name the suit, 2s pick up two (stacking to eight), 8s skip, the ace of hearts "
                "picks up five and cannot be answered. Say last card or you may not go out next turn."
            ),
            starter_may_be_power=True,
            max_draw=8,
            last_card_penalty="no_finish",
            powers={
                "2": _TWO_STACKS,
                "8": {"skip": 1},
                "AH": {"draw": 5},
                "J": {"anywhere": True, "names_suit": True},
            },
        ),
        _preset(
            "french",
            N_("Deux-quatre-valet"),
            N_(
                "French Switch: aces are wild, 2s pick up 2, 3, 4, 5 as they stack, 4s pick up 4, 8, "
                "12, 16 (never more than 8 at once), jacks reverse. Draw until you can play. Scored "
                "with the French tally."
            ),
            hand_size={"2": 12, "4": 10},
            decks={"2": 1, "6": 2},
            starter_may_be_power=True,
            draw_rule="until_playable",
            max_draw=8,
            last_card_penalty="skip_and_draw_1",
            powers={
                "A": {"wild": True},
                "2": {"draw": 2, "stack_draw": 1, "stacked_by": ["2"]},
                "4": {"draw": 4, "stack_draw": 4, "stacked_by": ["4"]},
                "J": {"reverse": True},
            },
        ),
        _preset(
            "black-jack",
            N_("Black Jack"),
            N_(
                "Runs in a suit, aces name the suit and block 2s, black jacks pick up five (red jacks "
                "cancel them), 7s let you play the rest of their suit, 8s skip (and pass on), queens "
                "must be covered, kings reverse."
            ),
            players=[2, 10],
            hand_size={"2": 7, "5": 5},
            decks={"2": 1, "6": 2},
            multi_card="runs",
            last_card_penalty="no_finish_draw_2",
            powers={
                "A": {"anywhere": True, "names_suit": True},
                "2": {
                    "draw": 2,
                    "stacked_by": ["2", "J-black"],
                    "cancelled_by": {"A": "all", "J-red": "all"},
                },
                "7": {"then": "suit"},
                "8": {"skip": 1, "skip_chain": "pass"},
                "J-black": {"draw": 5, "stacked_by": ["J-black"], "cancelled_by": {"J-red": 5}},
                "Q": {"then": "cover"},
                "K": {"reverse": True},
            },
        ),
        _preset(
            "irish-switch",
            N_("Irish Switch"),
            N_(
                "2s pick up two and stack, 7s skip and pass on, jacks reverse (several in a turn), the "
                "king of hearts picks up seven (the 2 of hearts adds two), aces on their suit name one."
            ),
            may_draw_voluntarily=True,
            last_card_penalty="draw_1",
            powers={
                "2": _TWO_STACKS,
                "7": {"skip": 1, "skip_chain": "pass"},
                "J": {"reverse": True, "then": "same_rank"},
                "KH": {"draw": 7, "stacked_by": ["2H"]},
                "A": {"names_suit": True},
            },
        ),
        _preset(
            "jacks-twos-eights",
            N_("Jacks, Twos and Eights (J28)"),
            N_(
                "Lay sets and runs; jacks go anywhere, name the suit and let you lay that suit; 2s pick "
                "up two each, 8s make the next player miss a turn per 8; the ace of hearts picks up five "
                "unless answered by the ace of spades. You may not finish on a jack, 2 or 8."
            ),
            players=[2, 10],
            decks={"2": 1, "8": 2},
            counter_clockwise=True,
            draw_rule="one_then_play",
            multi_card="same_rank_and_runs",
            finish_on_power=False,
            last_card_penalty="no_finish",
            finish_unannounced_in_one_turn=True,
            powers={
                "J": {"anywhere": True, "names_suit": True, "then": "suit"},
                "2": _TWO_STACKS,
                "8": {"skip": 1, "skip_chain": "add"},
                "AH": {"draw": 5, "cancelled_by": {"AS": "all"}},
            },
        ),
        _preset(
            "take-two",
            N_("Take Two"),
            N_(
                "Five cards each; if you cannot play, take two. 2s pick up two and stack, 8s skip, "
                "jacks reverse, aces name the suit; you may not finish on a power card. Play goes on "
                "until one player is left: the finishing order is the result."
            ),
            players=[2, 10],
            hand_size=5,
            draw_rule="two",
            finish_on_power=False,
            play_until="one_left",
            powers={
                "2": _TWO_STACKS,
                "8": {"skip": 1},
                "J": {"reverse": True},
                "A": {"anywhere": True, "names_suit": True},
                "X": {"draw": 5, "anywhere": True},
            },
        ),
    )
}


def find_ruleset(name: str) -> RuleSet:
    """The preset called ``name``; raises UnknownRuleset."""
    try:
        return RULESETS[name]
    except (KeyError, TypeError):
        raise UnknownRuleset(
            Sentence(
                N_("unknown ruleset {name}; shedding rulesets are {known}"),
                name=quoted(name),
                known=", ".join(RULESETS),
            )
        ) from None
