"""The fields of a shedding match are declared once (games/engine/shedding/state.py); copying and
saving follow from that declaration, so no field can be forgotten by one of them."""

from __future__ import annotations

import random
from typing import Annotated

import pytest

from games.engine.rulesets import create_game
from games.engine.shedding import SheddingGame
from games.engine.shedding.state import INTS, DealState, _codec
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


def test_the_slots_are_the_declared_fields() -> None:
    assert set(SheddingGame.__slots__) == set()
    assert DealState.__slots__ == tuple(DealState.__annotations__)


def test_a_copy_shares_no_list_with_the_original() -> None:
    game = played()
    twin = game.copy()
    for name in DealState.__slots__:
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
    assert set(DealState.__slots__) - NOT_SAVED <= set(data)
    assert not NOT_SAVED & set(data)


def test_a_field_whose_copy_is_not_declared_is_refused() -> None:
    """A list field without a codec would be shared by copies: declaring one is an error."""
    assert _codec("scores", Annotated[list[int], INTS]) is INTS
    assert _codec("target", int | None).copy(None) is None
    with pytest.raises(TypeError, match="needs Annotated"):
        _codec("extra", list[int])


def test_a_state_missing_a_required_field_is_refused() -> None:
    data = played().to_dict()
    del data["hands"]
    with pytest.raises(ValueError, match="hands is missing"):
        SheddingGame.from_dict(data)
