"""Abbott's Switch under random legal play (hypothesis): every hand and game ends, the invariants
hold after every action, legal_actions() is exactly what apply() accepts, and states survive
to_dict/from_dict and copy()."""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from switchgame.abbott.game import AbbottGame
from switchgame.abbott.poker import best_hand
from switchgame.abbott.rulesets import create_game
from switchgame.abbott.state import EMPTY
from switchgame.protocol import IllegalMove

MAX_ACTIONS_PER_HAND = 3000
MAX_HANDS = 200

rulesets = st.sampled_from([("abbott", 4), ("abbott-2", 2)])


def check_invariants(game: AbbottGame) -> None:
    on_grid = [c for c in game.grid if c != EMPTY]
    captured = [c for cards in game.captured for c in cards]
    assert sorted(on_grid + captured + game.unused) == list(range(52)), "cards not conserved"
    assert len(set(game.pieces)) == game.players
    if not game.is_over and not game.needs_deal:
        controls = game.view(None)["controls"]
        asked = game.view(None)["consent_asked"]
        if asked is None:
            assert game.to_move == controls[game.piece_to_move]
        else:  # only a seat whose piece another moves is asked, once every acting seat proposed
            assert game.to_move == asked
            assert asked not in controls
            assert all(game.proposed[s] for s in controls)


def check_move_event(before: AbbottGame, event: dict[str, Any]) -> None:
    """The move went along one line, over no piece and onto no piece."""
    (r0, c0), (r1, c1) = event["from"], event["to"]
    assert (r0 == r1) != (c0 == c1)
    size = before.size
    line = (
        [(r0, c) for c in range(min(c0, c1), max(c0, c1) + 1)]
        if r0 == r1
        else [(r, c0) for r in range(min(r0, r1), max(r0, r1) + 1)]
    )
    others = {divmod(sq, size) for seat, sq in enumerate(before.pieces) if seat != event["piece"]}
    assert not others.intersection(line), "a move passed over or onto a piece"


def check_hand_end(before: AbbottGame, game: AbbottGame, end: dict[str, Any]) -> None:
    keys = [best_hand(cards) for cards in game.captured]
    top = max(keys)
    leaders = [s for s, k in enumerate(keys) if k == top]
    assert end["winner"] == (leaders[0] if len(leaders) == 1 else None)
    grid = [c for c in game.grid if c != EMPTY]
    if end["reason"] == "grid_empty":
        assert not grid
    if end["reason"] == "unbeatable":  # nobody but a single leader can beat the best hand
        possible = [best_hand(cards + grid) for cards in game.captured]
        sole_leader = leaders[0] if len(leaders) == 1 else None
        assert all(p <= top for s, p in enumerate(possible) if s != sole_leader)
    if end["reason"] == "agreed":  # every seat, whoever moves its piece
        assert before.phase == "play"
        assert all(game.proposed)


def play(game: AbbottGame, rng: random.Random, seed: bytes) -> None:
    """Play the game to its end with uniformly random legal actions, checking after each one."""
    for hand in range(MAX_HANDS):
        game.deal(seed + bytes([hand % 256, hand // 256]))
        check_invariants(game)
        for _ in range(MAX_ACTIONS_PER_HAND):
            if game.needs_deal or game.is_over:
                break
            before = game.copy()
            events = [e.to_dict() for e in game.apply(rng.choice(game.legal_actions()))]
            json.dumps(events)
            check_invariants(game)
            for event in events:
                if event["type"] == "move":
                    check_move_event(before, event["data"])
                elif event["type"] == "hand_end":
                    check_hand_end(before, game, event["data"])
        else:
            raise AssertionError("a hand did not end")
        if game.is_over:
            outcome = game.outcome()
            assert outcome is not None
            totals = outcome.totals
            assert max(totals) >= game.target
            assert totals.count(max(totals)) == 1
            assert totals[outcome.winner] == max(totals)
            assert game.view(None)["result"] == outcome.to_json()
            return
    raise AssertionError("the game did not end")


@settings(max_examples=30, deadline=None)
@given(rulesets, st.binary(min_size=1, max_size=8), st.integers(0, 2**32))
def test_random_games_end_and_keep_the_invariants(
    ruleset: tuple[str, int], seed: bytes, choices: int
) -> None:
    name, players = ruleset
    play(create_game(name, players), random.Random(choices), seed)


def action_space(game: AbbottGame) -> list[dict[str, Any]]:
    """Every well-formed action worth trying: all squares (and some off the grid), all partners."""
    size = game.size
    space: list[dict[str, Any]] = [{"action": "pass"}, {"action": "propose_end"}]
    space += [
        {"action": "move", "to": [r, c]} for r in range(-1, size + 1) for c in range(-1, size)
    ]
    space += [{"action": "ally", "partner": p} for p in range(-1, game.players + 1)]
    return space


@settings(max_examples=20, deadline=None)
@given(rulesets, st.binary(min_size=1, max_size=8), st.integers(0, 2**32), st.booleans())
def test_legal_actions_are_exactly_what_apply_accepts(
    ruleset: tuple[str, int], seed: bytes, choices: int, leader: bool
) -> None:
    name, players = ruleset
    game = create_game(name, players)
    if leader:  # a player at 16+ makes alliances hand over pieces
        state = game.to_dict()
        state["totals"] = [17] + [0] * (players - 1)
        game = AbbottGame.from_dict(state)
    rng = random.Random(choices)
    game.deal(seed)
    while not game.needs_deal and not game.is_over:
        legal = game.legal_actions()
        assert legal
        assert game.view(game.to_move)["legal_moves"] == legal
        for action in action_space(game):
            trial = game.copy()
            try:
                trial.apply(action)
                accepted = True
            except IllegalMove:
                accepted = False
                assert trial.to_dict() == game.to_dict()
            assert accepted == (action in legal), action
        game.apply(rng.choice(legal))
    assert game.legal_actions() == []


def check_round_trip(game: AbbottGame) -> AbbottGame:
    state = game.to_dict()
    restored = AbbottGame.from_dict(json.loads(json.dumps(state)))
    assert restored.to_dict() == state
    for seat in (None, *range(game.players)):
        assert restored.view(seat) == game.view(seat)
    return restored


@settings(max_examples=20, deadline=None)
@given(rulesets, st.binary(min_size=1, max_size=8), st.integers(0, 2**32), st.booleans())
def test_to_dict_round_trip_and_copies_are_independent(
    ruleset: tuple[str, int], seed: bytes, choices: int, leader: bool
) -> None:
    name, players = ruleset
    game = create_game(name, players, target=12 if leader else None)
    rng = random.Random(choices)
    check_round_trip(game)
    for hand in range(3):
        if game.is_over:
            break
        game.deal(seed + bytes([hand]))
        while not game.needs_deal and not game.is_over:
            state = game.to_dict()
            restored = check_round_trip(game)
            copied = game.copy()
            action = rng.choice(game.legal_actions())
            events = [e.to_dict() for e in game.apply(action)]
            # The restored state (caches rebuilt from scratch) and the copy go on exactly alike.
            assert [e.to_dict() for e in restored.apply(action)] == events
            assert restored.to_dict() == game.to_dict()
            assert copied.to_dict() == state
            assert [e.to_dict() for e in copied.apply(action)] == events
        check_round_trip(game)
