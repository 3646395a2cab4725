"""The shedding Switch bots: ``SheddingGame.from_view`` rebuilds the position a view shows, both
strategies always answer with a legal move and reproducibly, the heuristic makes the obvious choices
in hand-built positions, and the Monte Carlo bot sees only what its seat sees and keeps to its budget."""

from __future__ import annotations

import math
import random
import time
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

from switchgame.bots import STRATEGIES, MatchFacts
from switchgame.bots.shedding_heuristic import rules_for
from switchgame.bots.shedding_montecarlo import Determiniser, make_montecarlo_bot
from switchgame.shedding import SheddingGame, create_game
from switchgame.shedding.rulesets import RULESETS
from tests.engine.test_shedding_helpers import assert_conserved, choose, layout_game

HEURISTIC = STRATEGIES["shedding"]["heuristic"]
HOUSE_RULES: list[dict[str, Any]] = [
    {"jokers": 2},
    {"multi_card": "same_rank_and_runs", "draw_rule": "until_playable"},
    {"powers": {"Q": {"then": "cover"}, "8": {"skip": 1, "then": "again"}}},
    {"play_until": "one_left", "finish_on_power": False, "last_card_penalty": "no_finish"},
    {"blunder_penalty": 1, "two_player_reverse": "reverse", "powers": {"K": {"reverse": True}}},
]
CASES = [(name, players, None) for name in RULESETS for players in (2, 4)] + [
    ("switch", 3, options) for options in HOUSE_RULES
]


def random_positions(
    ruleset: str, players: int, options: dict[str, Any] | None, seed: int, every: int = 3
) -> Iterator[SheddingGame]:
    """Positions of one deal of mostly purposeful random play, every ``every``-th action."""
    rng = random.Random(seed)
    game = create_game(ruleset, players, options)
    game.deal(rng.randbytes(8))
    for count in range(600):
        if game.is_over:
            return
        if count % every == 0:
            yield game
        game.apply(choose(rng, game.legal_actions(), prefer_play=0.9))


def table_of(game: SheddingGame, options: dict[str, Any] | None = None) -> MatchFacts:
    return MatchFacts(game.rules.ruleset.name, game.players, game.to_move or 0, options or {})


@pytest.mark.parametrize(("ruleset", "players", "options"), CASES)
def test_from_view_with_the_true_cards_rebuilds_the_position(
    ruleset: str, players: int, options: dict[str, Any] | None
) -> None:
    for seed in range(3):
        for game in random_positions(ruleset, players, options, seed):
            seat = game.to_move
            view = game.view(seat)
            rebuilt = SheddingGame.from_view(
                view, game.rules, [list(h) for h in game.hands], list(game.stock), b"seed"
            )
            assert rebuilt.view(seat) == view
            for other in range(players):
                assert rebuilt.view(other) == game.view(other)


@pytest.mark.parametrize(("ruleset", "players", "options"), CASES)
def test_determinisations_conserve_cards_and_agree_with_the_view(
    ruleset: str, players: int, options: dict[str, Any] | None
) -> None:
    rng = random.Random(7)
    for game in random_positions(ruleset, players, options, seed=11, every=5):
        seat = game.to_move
        view = game.view(seat)
        sampled = Determiniser(view, rules_for(table_of(game, options))).deal(rng)
        assert_conserved(sampled)
        # The rebuilt game leaves out the history, which play-outs never read.
        assert sampled.view(seat) == {**view, "history": []}
        assert sampled.discard == game.discard


def test_from_view_refuses_cards_that_do_not_fit() -> None:
    game = layout_game("switch", [["5H", "9C"], ["KD", "3S"]], "7H")
    view = game.view(0)
    hands = [list(h) for h in game.hands]
    with pytest.raises(ValueError, match="sizes"):
        SheddingGame.from_view(view, game.rules, [hands[0], hands[1][:1]], game.stock, b"s")
    with pytest.raises(ValueError, match="deck"):
        SheddingGame.from_view(view, game.rules, [hands[0], [0, 0]], game.stock, b"s")
    with pytest.raises(ValueError, match="seat to move"):
        SheddingGame.from_view(game.view(1), game.rules, hands, game.stock, b"s")


@pytest.mark.parametrize(("ruleset", "players", "options"), CASES)
def test_the_heuristic_always_plays_a_legal_move(
    ruleset: str, players: int, options: dict[str, Any] | None
) -> None:
    for seed in range(4):
        for game in random_positions(ruleset, players, options, seed, every=1):
            view = game.view(game.to_move)
            assert (
                HEURISTIC(view, table_of(game, options), random.Random(seed))
                in (view["legal_moves"])
            )


@pytest.mark.parametrize(("ruleset", "players", "options"), CASES)
def test_montecarlo_always_plays_a_legal_move(
    ruleset: str, players: int, options: dict[str, Any] | None
) -> None:
    bot = make_montecarlo_bot(iterations=6, time_cap=None)
    for game in random_positions(ruleset, players, options, seed=3, every=7):
        view = game.view(game.to_move)
        assert bot(view, table_of(game, options), random.Random(1)) in view["legal_moves"]


def test_whole_games_between_the_bots_end() -> None:
    bots = [HEURISTIC, make_montecarlo_bot(iterations=10, time_cap=None)]
    for ruleset in RULESETS:
        rng = random.Random(ruleset)
        game = create_game(ruleset, 2)
        game.deal(rng.randbytes(8))
        for _ in range(1000):
            if game.is_over:
                break
            seat = game.to_move
            assert seat is not None
            game.apply(bots[seat](game.view(seat), table_of(game), rng))
        assert game.is_over


@pytest.mark.parametrize("strategy", ["heuristic", "montecarlo"])
def test_a_fixed_seed_gives_the_same_choices(strategy: str) -> None:
    bot = (
        HEURISTIC if strategy == "heuristic" else make_montecarlo_bot(iterations=40, time_cap=None)
    )
    for game in random_positions("switch", 3, None, seed=5, every=4):
        view = game.view(game.to_move)
        table = table_of(game)
        assert bot(view, table, random.Random(9)) == bot(view, table, random.Random(9))


def test_the_registered_montecarlo_bot_searches_a_fixed_number_of_iterations() -> None:
    """Its budget is iterations (the time cap is a safety net), so a seed reproduces its move
    however loaded the machine is."""
    bot = STRATEGIES["shedding"]["montecarlo"]
    game = create_game("switch", 4)
    game.deal(b"reproducible")
    view = game.view(game.to_move)
    table = table_of(game)
    assert bot(view, table, random.Random(3)) == bot(view, table, random.Random(3))


def test_montecarlo_falls_back_on_the_heuristic() -> None:
    """The search only overrules the heuristic's move by a margin: with an infinite one, it plays
    the heuristic's move (drawn with the same random numbers)."""
    bot = make_montecarlo_bot(iterations=20, time_cap=None, margin=math.inf)
    for game in random_positions("switch", 4, None, seed=6, every=3):
        view = game.view(game.to_move)
        table = table_of(game)
        assert bot(view, table, random.Random(2)) == HEURISTIC(view, table, random.Random(2))


def heuristic_move(hands: list[list[str]], starter: str, ruleset: str = "switch") -> dict[str, Any]:
    game = layout_game(ruleset, hands, starter)
    return HEURISTIC(game.view(0), table_of(game), random.Random(0))


def test_the_heuristic_answers_a_pending_two_with_a_two() -> None:
    game = layout_game("switch", [["2H", "5C", "9D"], ["2S", "7C", "KD", "4H"]], "3H")
    game.apply({"action": "play", "card": "2H"})
    assert HEURISTIC(game.view(1), table_of(game), random.Random(0)) == {
        "action": "play",
        "card": "2S",
    }


def test_the_heuristic_names_its_longest_suit_with_a_jack() -> None:
    move = heuristic_move([["JC", "3S", "5S", "9S", "4D"], ["KD", "3C"]], "7H")
    assert move == {"action": "play", "card": "JC", "suit": "S"}


def test_the_heuristic_announces_its_last_card() -> None:
    move = heuristic_move([["5H", "9C"], ["KD", "3C"]], "7H")
    assert move == {"action": "play", "card": "5H", "announce": "last_card"}


def test_the_heuristic_keeps_its_only_jack_when_a_plain_card_matches() -> None:
    assert heuristic_move([["JD", "5H", "9C", "KS"], ["KD", "3C"]], "7H")["card"] == "5H"


def test_the_heuristic_sheds_high_scoring_cards_first() -> None:
    assert heuristic_move([["KH", "3H", "9C"], ["KD", "3C"]], "7H")["card"] == "KH"


def test_the_heuristic_plays_rather_than_draws_voluntarily() -> None:
    assert heuristic_move([["9H", "3C", "4C"], ["KD", "3S"]], "7H") == {
        "action": "play",
        "card": "9H",
    }


def test_montecarlo_sees_nothing_of_the_other_hands() -> None:
    """Two deals that differ only in which unseen cards the opponent holds look the same to seat 0,
    so the bot, with the same seed, must choose the same."""
    own = ["5H", "9C", "KS", "4D", "8D"]
    first = layout_game("switch", [own, ["QH", "6C", "3S"]], "7H", ["TD", "2C", "AS"])
    second = layout_game("switch", [own, ["TD", "2C", "AS"]], "7H", ["QH", "6C", "3S"])
    assert Counter(first.hands[1]) != Counter(second.hands[1])
    view = first.view(0)
    assert second.view(0) == view
    bot = make_montecarlo_bot(iterations=150, time_cap=None)
    assert bot(view, table_of(first), random.Random(4)) == bot(
        second.view(0), table_of(second), random.Random(4)
    )


def test_montecarlo_stops_at_its_time_cap() -> None:
    """Speed is the benchmarks' business; the bound is loose because test machines are shared."""
    game = create_game("french", 4)
    game.deal(b"budget")
    view = game.view(game.to_move)
    bot = make_montecarlo_bot(iterations=10**9, time_cap=0.05)
    start = time.perf_counter()
    move = bot(view, table_of(game), random.Random(0))
    assert time.perf_counter() - start < 5.0
    assert move in view["legal_moves"]
