"""The game-independent outcome (docs/rules.md §5): the same shape from both engines, and what it
says agrees with each engine's own account of the match."""

from __future__ import annotations

import random

import pytest

from games import catalog
from games.engine.protocol import Outcome


def played_to_the_end(ruleset: str, players: int, seed: int, deals: int = 1):
    game = catalog.new_game(ruleset, players, deals=deals)
    rng = random.Random(seed)
    assert game.outcome() is None
    while not game.is_over:
        if game.needs_deal:
            game.deal(rng.randbytes(32))
        else:
            game.apply(rng.choice(game.legal_actions()))
    return game


@pytest.mark.parametrize("ruleset", ["switch", "french", "take-two", "black-jack"])
@pytest.mark.parametrize("seed", range(3))
def test_shedding_outcome_adds_up_its_deals(ruleset, seed):
    game = played_to_the_end(ruleset, 4, seed, deals=3)
    outcome = game.outcome()
    result = game.result()

    assert [hand.number for hand in outcome.hands] == [1, 2, 3]
    assert list(outcome.totals) == result["scores"]
    assert [sum(h.points[s] for h in outcome.hands) for s in range(4)] == list(outcome.totals)
    assert outcome.winner == result["winner"]
    for hand, deal in zip(outcome.hands, result["deals"], strict=True):
        assert hand.winner == deal["winner"] == hand.placings[0]
        assert sorted(hand.placings) == [0, 1, 2, 3]
        assert hand.teams == ((0,), (1,), (2,), (3,))
    assert Outcome.from_json(outcome.to_json()) == outcome


@pytest.mark.parametrize(("ruleset", "players"), [("abbott", 4), ("abbott-2", 2)])
@pytest.mark.parametrize("seed", range(3))
def test_abbott_outcome_adds_up_its_hands_and_keeps_the_alliances(ruleset, players, seed):
    game = played_to_the_end(ruleset, players, seed)
    outcome = game.outcome()

    assert outcome.winner == game.winner
    assert list(outcome.totals) == game.totals
    assert game.view(None)["result"] == outcome.to_json()
    assert [sum(h.points[s] for h in outcome.hands) for s in range(players)] == list(outcome.totals)
    for hand in outcome.hands:
        assert sorted(seat for team in hand.teams for seat in team) == list(range(players))
        assert sorted(hand.placings) == list(range(players))
        if hand.winner is not None:
            assert hand.placings[0] == hand.winner
    assert Outcome.from_json(outcome.to_json()) == outcome
