"""The fields of a shedding match are declared once, each with its type and its codec in its
metadata (switchgame/shedding/state.py); copying and saving follow from the codecs, so no field
can be forgotten by one of them, and a codec must suit its field's type."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest

from switchgame.shedding import SheddingGame, create_game
from switchgame.shedding.state import FIELDS, VALUE
from tests.engine.test_shedding_helpers import choose

# The rules are saved as ruleset, options and players; the caches are rebuilt on demand.
CACHES = {"legal_tuples_cache", "legal_actions_cache"}
NOT_SAVED = {"rules", *CACHES}


def played(ruleset: str = "black-jack", actions: int = 30) -> SheddingGame:
    game = create_game(ruleset, 3, deals=2)
    game.deal(b"state")
    rng = random.Random(5)
    for _ in range(actions):
        if game.to_move is None:
            break
        game.apply(choose(rng, game.legal_actions(), prefer_play=0.8))
    return game


STATE_SOURCE = Path(__file__).parents[2] / "switchgame" / "shedding" / "state.py"
# Annotations of fields that copies may share: immutable scalars.
VALUE_TYPES = {"int", "bool", "str", "int | None"}


def declared_types() -> dict[str, str]:
    """MatchState's annotations as written (read from the source: compiled, the class keeps them
    only as far as the dataclass decorator needs them)."""
    (state,) = (
        node
        for node in ast.parse(STATE_SOURCE.read_text()).body
        if isinstance(node, ast.ClassDef) and node.name == "MatchState"
    )
    return {
        node.target.id: ast.unparse(node.annotation)
        for node in state.body
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)
    }


def test_every_annotated_field_has_a_codec_in_the_same_order() -> None:
    assert list(declared_types()) == list(FIELDS)


def test_a_new_copied_or_loaded_match_has_every_field_set() -> None:
    """A new match takes the fields with no declared initial value from __post_init__; a copy and
    a loaded match are made without __init__ and set every field themselves."""
    new = create_game("switch", 3)
    assert {name: getattr(new, name) for name in FIELDS}["scores"] == [0, 0, 0]
    game = played()
    for twin in (new.copy(), game.copy(), SheddingGame.from_dict(game.to_dict())):
        for name in FIELDS:
            getattr(twin, name)  # AttributeError when a field was left unset


def test_only_immutable_scalars_are_shared_values() -> None:
    """A list field copied as a VALUE would be shared by copies: it needs a codec of its own."""
    for name, annotation in declared_types().items():
        assert (FIELDS[name] is VALUE) == (annotation in VALUE_TYPES), name


def test_a_copy_shares_no_list_with_the_original() -> None:
    game = played()
    twin = game.copy()
    for name in FIELDS:
        value = getattr(game, name)
        if isinstance(value, list) and name not in CACHES:  # the caches are never changed
            assert getattr(twin, name) is not value, name
            assert getattr(twin, name) == value, name
            for inner, twin_inner in zip(value, getattr(twin, name), strict=True):
                if isinstance(inner, list):
                    assert twin_inner is not inner, name
    assert twin.rng is not game.rng
    assert twin.to_dict() == game.to_dict()


def test_every_field_but_the_rules_and_the_cache_is_saved() -> None:
    data = played().to_dict()
    assert set(FIELDS) - NOT_SAVED <= set(data)
    assert not NOT_SAVED & set(data)


def test_a_state_missing_a_required_field_is_refused() -> None:
    data = played().to_dict()
    del data["hands"]
    with pytest.raises(ValueError, match="hands is missing"):
        SheddingGame.from_dict(data)
