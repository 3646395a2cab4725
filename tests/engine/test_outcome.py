"""The game-independent outcome (docs/rules.md §5): the same shape from both engines, and what it
says agrees with each engine's own account of the match."""

from __future__ import annotations

import random

import pytest

from switchgame import catalog
from switchgame.protocol import Outcome
from tests.engine.earlier_results import earlier_form


def played_to_the_end(ruleset: str, players: int, seed: int, deals: int = 1):
    """A match played by random legal moves to its end, and the events it gave."""
    game = catalog.new_game(ruleset, players, deals=deals)
    rng = random.Random(seed)
    events = []
    assert game.outcome() is None
    while not game.is_over:
        if game.needs_deal:
            events.extend(game.deal(rng.randbytes(32)))
        else:
            events.extend(game.apply(rng.choice(game.legal_actions())))
    return game, events


@pytest.mark.parametrize("ruleset", ["switch", "french", "take-two", "black-jack"])
@pytest.mark.parametrize("seed", range(3))
def test_shedding_outcome_adds_up_its_deals(ruleset, seed):
    game, events = played_to_the_end(ruleset, 4, seed, deals=3)
    outcome = game.outcome()
    deal_ends = [e.data for e in events if e.type == "deal_end"]

    assert [hand.number for hand in outcome.hands] == [1, 2, 3]
    assert list(outcome.totals) == game.scores
    assert [sum(h.points[s] for h in outcome.hands) for s in range(4)] == list(outcome.totals)
    assert outcome.ranking[0] == outcome.winner
    assert sorted(outcome.ranking) == [0, 1, 2, 3]
    for hand, deal in zip(outcome.hands, deal_ends, strict=True):
        assert hand.winner == deal["winner"] == hand.placings[0]
        assert list(hand.points) == deal["points"]
        assert sorted(hand.placings) == [0, 1, 2, 3]
        assert hand.teams == ((0,), (1,), (2,), (3,))
    assert Outcome.from_json(outcome.to_json()) == outcome


@pytest.mark.parametrize("ruleset", ["switch", "french", "take-two", "jacks-twos-eights"])
@pytest.mark.parametrize("seed", range(6))
def test_a_one_deal_match_ranks_as_its_deal_placed(ruleset, seed):
    """docs/rules.md §5.2–§5.3: one deal, so the ranking is that deal's placings (the tallies
    conceded, then the places) — the issue's match ranked the losers by seat number instead."""
    game, _ = played_to_the_end(ruleset, 4, seed)
    outcome = game.outcome()

    assert list(outcome.ranking) == list(outcome.hands[0].placings)


@pytest.mark.parametrize("ruleset", ["switch", "french", "black-jack", "take-two"])
@pytest.mark.parametrize("seed", range(3))
def test_the_tallies_explain_the_points(ruleset, seed):
    """docs/rules.md §5.2: each deal's tallies are the deal_end's; a seat concedes the tallies of
    the deals it did not win; where the deal ends with the first out, the winner's points are the
    others' tallies added up."""
    game, events = played_to_the_end(ruleset, 4, seed, deals=3)
    outcome = game.outcome()
    deal_ends = [e.data for e in events if e.type == "deal_end"]

    for hand, deal in zip(outcome.hands, deal_ends, strict=True):
        assert list(hand.tallies) == deal["tallies"]
        if not game.rules.one_left:
            assert hand.points[hand.winner] == sum(hand.conceded())
    assert list(outcome.conceded) == [
        sum(deal["tallies"][s] for deal in deal_ends if deal["winner"] != s) for s in range(4)
    ]


def test_a_result_recorded_before_tallies_is_still_the_result():
    """docs/rules.md §7.6: a result written before the tie-break on tallies (no ``conceded``,
    losers in seat order) is accepted as it was written; changed, it is not."""
    seed = next(
        s for s in range(50) if played_to_the_end("switch", 4, s)[0].outcome().ranking[1] != 0
    )
    outcome = played_to_the_end("switch", 4, seed)[0].outcome()
    earlier = earlier_form(outcome.to_json())

    assert earlier["ranking"] != list(outcome.ranking)
    assert outcome.recorded_as(outcome.to_json())
    assert outcome.recorded_as(earlier)
    assert not outcome.recorded_as({**earlier, "ranking": list(outcome.ranking)})
    assert not outcome.recorded_as({**earlier, "conceded": list(outcome.conceded)})
    assert not outcome.recorded_as({**earlier, "totals": [t + 1 for t in outcome.totals]})
    assert Outcome.from_json(earlier).conceded == ()


@pytest.mark.parametrize("seed", range(2))
def test_shedding_view_and_match_end_carry_the_outcome(seed):
    """The one account of a finished match: the view's ``result`` and the ``match_end`` event are
    ``outcome().to_json()``; before the end the view's ``result`` is ``None``."""
    game, events = played_to_the_end("switch", 3, seed, deals=2)
    outcome = game.outcome().to_json()

    assert [e.data for e in events if e.type == "match_end"] == [outcome]
    assert [e.type for e in events].count("match_end") == 1
    for seat in (None, 0, 1, 2):
        assert game.view(seat)["result"] == outcome
    assert catalog.new_game("switch", 3).view(None)["result"] is None


@pytest.mark.parametrize(("ruleset", "players"), [("abbott", 4), ("abbott-2", 2)])
@pytest.mark.parametrize("seed", range(3))
def test_abbott_outcome_adds_up_its_hands_and_keeps_the_alliances(ruleset, players, seed):
    game, _ = played_to_the_end(ruleset, players, seed)
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
