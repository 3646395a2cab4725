"""The ruleset registry and option validation (docs/rules.md §3)."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest

from switchgame.protocol import InvalidOptions
from switchgame.shedding import SheddingGame, create_game
from switchgame.shedding.options import OPTION_NAMES, value_for_players
from switchgame.shedding.rulesets import (
    RULESETS,
    UnknownRuleset,
    find_ruleset,
)

PRESETS = [
    "switch",
    "jack-change-it",
    "french",
    "black-jack",
    "irish-switch",
    "jacks-twos-eights",
    "take-two",
]


def test_the_seven_presets_are_registered() -> None:
    assert sorted(RULESETS) == sorted(PRESETS)


@pytest.mark.parametrize("name", PRESETS)
def test_preset_metadata_and_json_options(name: str) -> None:
    ruleset = RULESETS[name]
    assert ruleset.name == name
    assert ruleset.title
    assert ruleset.description
    low, high = ruleset.players
    assert 2 <= low <= high <= 10
    options = ruleset.options_json()
    assert set(options) == set(OPTION_NAMES)
    assert json.loads(json.dumps(options)) == options
    options["powers"].clear()  # a fresh copy: the preset is untouched
    assert ruleset.options_json()["powers"]
    for players in range(low, high + 1):
        create_game(name, players).deal(b"every player count deals")


def test_unknown_ruleset() -> None:
    with pytest.raises(UnknownRuleset, match="shedding rulesets are"):
        create_game("poker", 4)
    with pytest.raises(UnknownRuleset):
        find_ruleset("abbott")
    assert issubclass(UnknownRuleset, ValueError)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"colour": 1}, "colour: unknown option"),
        ({"draw_rule": "three"}, "draw_rule: must be one of"),
        ({"multi_card": None}, "multi_card"),
        ({"hand_size": 0}, "hand_size: must be from 2"),
        ({"hand_size": "7"}, "hand_size: must be a whole number"),
        ({"hand_size": {"x": 3}}, "hand_size: keys are player counts"),
        ({"jokers": -1}, "jokers"),
        ({"decks": True}, "decks"),
        ({"players": [5, 3]}, "players: min 5 is above max 3"),
        ({"players": 4}, "players: must be \\[min, max\\]"),
        ({"max_draw": 0}, "max_draw"),
        ({"last_card_penalty": "draw_0"}, "last_card_penalty"),
        ({"finish_on_power": "no"}, "finish_on_power: must be true or false"),
        ({"play_until": "last"}, "play_until"),
        ({"blunder_penalty": 11}, "blunder_penalty"),
        ({"two_player_reverse": "pass"}, "two_player_reverse"),
        ({"powers": []}, "powers: must map"),
        ({"powers": {"2Z": {"draw": 2}}}, "is not a card pattern"),
        ({"powers": {"5": {"fly": True}}}, 'powers.5: unknown effect "fly"'),
        ({"powers": {"5": {"draw": "2"}}}, "powers.5.draw"),
        ({"powers": {"5": {"skip_chain": "pass"}}}, "only a card that skips"),
        ({"powers": {"5": {"stacked_by": ["5"]}}}, "only a pick-up"),
        ({"powers": {"5": {"draw": 1, "cancelled_by": {"6": "some"}}}}, "cancelled_by.6"),
        ({"powers": {"5": {"then": "dance"}}}, "powers.5.then"),
        ({"hand_size": 30}, "hand_size: 2 hands of 30"),
        ("strict", "options: must be an object"),
    ],
)
def test_invalid_options_name_the_option_and_why(options: Any, message: str) -> None:
    with pytest.raises(InvalidOptions, match=message):
        create_game("switch", 2, options)


def test_players_outside_the_preset_range() -> None:
    with pytest.raises(InvalidOptions, match="jack-change-it is for 2 to 7 players, not 8"):
        create_game("jack-change-it", 8)


def test_deals_and_target_are_validated() -> None:
    with pytest.raises(InvalidOptions, match="deals"):
        create_game("switch", 2, deals=0)
    with pytest.raises(InvalidOptions, match="target"):
        create_game("switch", 2, target=0)


def test_house_rules_override_and_merge_powers() -> None:
    """docs/rules.md §3: house rules are overrides on a preset; powers merge pattern by pattern."""
    ruleset = RULESETS["jack-change-it"].with_options(
        {"powers": {"Q": {"reverse": True}, "8": None}, "draw_rule": "two"}
    )
    powers = ruleset.options["powers"]
    assert powers["Q"] == {"reverse": True}
    assert "8" not in powers
    assert "J" in powers
    assert ruleset.options["draw_rule"] == "two"
    assert RULESETS["jack-change-it"].options["draw_rule"] == "one"


def test_jokers_without_a_power_are_wild() -> None:
    """A joker has no suit; a house rule adding jokers without a power makes them wild."""
    ruleset = RULESETS["switch"].with_options({"jokers": 2})
    assert ruleset.options["powers"]["X"] == {"wild": True}
    assert RULESETS["take-two"].with_options({"jokers": 2}).options["powers"]["X"]["draw"] == 5


def test_specific_patterns_beat_general_ones() -> None:
    rules = RULESETS["black-jack"].compile(2)
    from switchgame.cards import parse_card

    assert rules.power[parse_card("JS")].draw == 5  # type: ignore[union-attr]
    assert rules.power[parse_card("JD")] is None
    assert rules.power[parse_card("2D")].pattern == "2"  # type: ignore[union-attr]


def test_values_by_player_count() -> None:
    table = {"2": 12, "4": 10}
    assert [value_for_players(table, n) for n in (2, 3, 4, 7)] == [12, 12, 10, 10]
    assert value_for_players(7, 5) == 7
    assert RULESETS["black-jack"].compile(5).hand_size == 5
    assert RULESETS["black-jack"].compile(6).decks == 2
    assert RULESETS["switch"].compile(8).decks == 2


def test_rules_are_compiled_once_and_shared() -> None:
    """Loading a game must not recompile its ruleset: equal options give the same Rules."""
    switch = RULESETS["switch"]
    assert switch.compile(4) is switch.compile(4)
    assert switch.with_options({"jokers": 0}).compile(4) is switch.compile(4)
    assert switch.with_options({"jokers": 2}).compile(4) is not switch.compile(4)
    assert switch.compile(3) is not switch.compile(4)
    house = {"jokers": 2, "powers": {"Q": {"then": "cover"}}}
    game = create_game("switch", 4, house)
    game.deal(b"shared")
    loaded = SheddingGame.from_dict(json.loads(json.dumps(game.to_dict())))
    assert loaded.rules is game.rules
    assert loaded.to_dict() == game.to_dict()


def test_compiled_rules_cannot_change() -> None:
    rules = RULESETS["switch"].compile(2)
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.hand_size = 3  # type: ignore[misc]


def test_a_saved_game_with_unknown_options_is_validated() -> None:
    data = create_game("switch", 2).to_dict()
    data["options"]["draw_rule"] = "three"
    with pytest.raises(InvalidOptions, match="draw_rule"):
        SheddingGame.from_dict(data)
