"""Properties of every shedding ruleset under random house rules (docs/rules.md §1–§3, §5).

Random legal play-outs over all presets, 2–7 players and random option overrides, checking after
every action: conservation of cards, legal_actions ⇔ apply, views that hide other seats' cards.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from switchgame.cards import CARD_CODES, SUITS
from switchgame.protocol import IllegalMove, InvalidAction
from switchgame.shedding import SheddingGame, create_game
from switchgame.shedding.rulesets import RULESETS
from tests.engine.test_shedding_helpers import assert_conserved, choose
from tests.hypothesis_profiles import examples

MAX_ACTIONS = 20_000
UNIFORM_PLAY_MAX_ACTIONS = 500_000

EXTRA_POWERS: list[dict[str, dict[str, Any] | None]] = [
    {"Q": {"then": "cover"}},
    {"8": {"skip": 1, "then": "again"}},
    {"K": {"reverse": True}},
    {"3": {"skip": 1, "skip_chain": "add"}},
    {"7": {"then": "suit"}},
    {"9": {"draw": 1, "stack_draw": 2, "stacked_by": ["9"], "cancelled_by": {"T": 1}}},
    {"5": {"wild": True}},
    {"J": None},
]


@st.composite
def house_rules(draw: st.DrawFn, must_not_be_lower: bool = False) -> dict[str, Any]:
    """Random option overrides. ``must_not_be_lower`` is only drawn when asked for: with it a deal
    can cycle for a very long time (see docs/rules.md §7.8), so play-outs are bounded."""
    choices: dict[str, st.SearchStrategy[Any]] = {
        "draw_rule": st.sampled_from(["one", "one_then_play", "until_playable", "two"]),
        "multi_card": st.sampled_from(["none", "same_rank", "runs", "same_rank_and_runs"]),
        "may_draw_voluntarily": st.booleans(),
        "starter_may_be_power": st.booleans(),
        "last_card_penalty": st.sampled_from(
            ["none", "draw_1", "draw_2", "no_finish", "no_finish_draw_2", "skip_and_draw_1"]
        ),
        "finish_on_power": st.booleans(),
        "finish_unannounced_in_one_turn": st.booleans(),
        "play_until": st.sampled_from(["first_out", "one_left"]),
        "blunder_penalty": st.integers(0, 2),
        "two_player_reverse": st.sampled_from(["skip", "reverse"]),
        "max_draw": st.none() | st.integers(1, 10),
        "jokers": st.integers(0, 2),
        "counter_clockwise": st.booleans(),
        "hand_size": st.integers(2, 5),
    }
    chosen = draw(st.sets(st.sampled_from(sorted(choices)), max_size=6))
    options = {name: draw(choices[name]) for name in sorted(chosen)}
    if must_not_be_lower:
        options["must_not_be_lower"] = True
    extra = draw(st.lists(st.sampled_from(EXTRA_POWERS), max_size=2))
    if extra:
        options["powers"] = {k: v for item in extra for k, v in item.items()}
    return options


@st.composite
def matches(
    draw: st.DrawFn, house: bool = True, must_not_be_lower: bool = False
) -> tuple[SheddingGame, random.Random]:
    name = draw(st.sampled_from(sorted(RULESETS)))
    low, high = RULESETS[name].players
    players = draw(st.integers(low, min(high, 7)))
    options = draw(house_rules(must_not_be_lower)) if house else {}
    deals = draw(st.integers(1, 2))
    game = create_game(name, players, options, deals=deals)
    return game, random.Random(draw(st.integers(0, 2**32)))


def deal_next(game: SheddingGame, rng: random.Random) -> None:
    game.deal(rng.randbytes(8))


def candidate_actions(game: SheddingGame, rng: random.Random) -> list[dict[str, Any]]:
    """Actions worth trying: every held card with random suit/announce, a few cards not held."""
    hand = game.view(game.to_move)["you"]["hand"]
    cards = set(hand) | {rng.choice(CARD_CODES) for _ in range(3)}
    out: list[dict[str, Any]] = [{"action": "draw"}, {"action": "end_turn"}]
    for code in sorted(cards):
        action: dict[str, Any] = {"action": "play", "card": code}
        if rng.random() < 0.5:
            action["suit"] = rng.choice(SUITS)
        if rng.random() < 0.3:
            action["announce"] = "last_card"
        out.append(action)
    return out


def check_agreement(game: SheddingGame, rng: random.Random) -> None:
    """legal_actions() never offers what apply refuses; apply never accepts what was not offered."""
    legal = game.legal_actions()
    assert legal, "the seat to move always has an action"
    before = game.to_dict()
    for action in legal:
        game.copy().apply(action)
    for action in candidate_actions(game, rng):
        if action in legal:
            continue
        trial = game.copy()
        if action["action"] == "play" and game.rules.blunder_penalty:
            events = trial.apply(action)
            assert events[0].type == "penalty"
            assert events[0].data["kind"] == "blunder"
        else:
            with pytest.raises(IllegalMove) as refused:
                trial.apply(action)
            assert refused.value.reason
            assert trial.to_dict() == before, "a refused action changed the state"
    assert game.to_dict() == before


def check_views(game: SheddingGame, rng: random.Random) -> None:
    """A view shows the seat's own hand, others' counts only, and does not depend on their cards."""
    n = game.players
    for seat in [None, *range(n)]:
        view = game.view(seat)
        json.dumps(view)
        if seat is not None:
            assert sorted(view["you"]["hand"]) == sorted(CARD_CODES[c] for c in game.hands[seat])
        assert [s["hand_count"] for s in view["seats"]] == [len(h) for h in game.hands]
        assert "stock" not in view
        assert "hands" not in view
        if view["legal_moves"]:
            assert seat == game.to_move
    # Exchange a card of another seat with a stock card: no other seat's view may change.
    holders = [s for s in range(n) if game.hands[s]]
    if not game.stock or not holders:
        return
    other = rng.choice(holders)
    changed = game.copy()
    i = rng.randrange(len(changed.hands[other]))
    j = rng.randrange(len(changed.stock))
    changed.hands[other][i], changed.stock[j] = changed.stock[j], changed.hands[other][i]
    changed.stock.reverse()
    for seat in [None, *range(n)]:
        if seat != other:
            assert changed.view(seat) == game.view(seat)


def check_events(events: list[Any]) -> None:
    for event in events:
        json.dumps(event.to_dict())
        if event.type in ("draw", "hand"):
            assert "cards" not in event.data, "drawn cards must be private"
            assert event.for_viewer(None)["data"].keys() == event.data.keys()


def play_out(
    game: SheddingGame,
    rng: random.Random,
    prefer_play: float,
    every: int | None = None,
    limit: int = MAX_ACTIONS,
) -> int:
    """Random legal play to the end of the match (or ``limit`` actions); checks invariants after
    every action and returns the number of actions."""
    actions = 0
    while not game.is_over and actions < limit:
        if game.needs_deal:
            check_events(game.deal(rng.randbytes(8)))
            continue
        if every and actions % every == 0:
            check_agreement(game, rng)
            check_views(game, rng)
        check_events(game.apply(choose(rng, game.legal_actions(), prefer_play)))
        assert_conserved(game)
        actions += 1
    return actions


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(matches())
def test_random_play_ends_and_conserves_cards(setup: tuple[SheddingGame, random.Random]) -> None:
    """docs/rules.md §2: random play always ends (going out or blocked); §1 conservation throughout."""
    game, rng = setup
    play_out(game, rng, prefer_play=0.8)
    assert game.is_over, "random play did not end"
    outcome = game.outcome()
    assert outcome is not None
    assert len(outcome.hands) == game.deals
    for deal in outcome.hands:
        assert sorted(deal.placings) == list(range(game.players))
        assert deal.placings[0] == deal.winner
    assert sum(outcome.totals) == sum(sum(deal.points) for deal in outcome.hands)


@pytest.mark.slow
@settings(max_examples=examples(50), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(matches(house=False))
def test_uniform_random_play_of_presets_ends(setup: tuple[SheddingGame, random.Random]) -> None:
    """Uniformly random legal play (voluntary draws included) ends for every preset. Such play is a
    random walk with a long tail: two-deal `switch` matches of 2–3 players ran past 20,000 actions
    in 5–7 % of 150 seeded trials (the longest 35,718), hence the higher bound here."""
    game, rng = setup
    play_out(game, rng, prefer_play=0.0, limit=UNIFORM_PLAY_MAX_ACTIONS)
    assert game.is_over, "random play did not end"


@pytest.mark.slow
@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(matches())
def test_legal_actions_agree_with_apply_and_views_hide_cards(
    setup: tuple[SheddingGame, random.Random],
) -> None:
    """legal_actions ⇔ apply, refusals change nothing, views never show another seat's cards."""
    game, rng = setup
    play_out(game, rng, prefer_play=0.8, every=3)


@pytest.mark.slow
@settings(max_examples=examples(15), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(matches(must_not_be_lower=True))
def test_must_not_be_lower_keeps_the_invariants(setup: tuple[SheddingGame, random.Random]) -> None:
    """docs/rules.md §3 switch must_not_be_lower under random house rules: bounded play-outs."""
    game, rng = setup
    assert play_out(game, rng, prefer_play=0.8, every=5, limit=1500) > 0


@settings(max_examples=examples(100), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(matches(), st.integers(0, 60))
def test_to_dict_round_trip_continues_identically(
    setup: tuple[SheddingGame, random.Random], stop: int
) -> None:
    """to_dict/from_dict round-trips exactly (DealRng included): both copies then play alike."""
    game, rng = setup
    deal_next(game, rng)
    for _ in range(stop):
        if game.to_move is None:
            break
        game.apply(choose(rng, game.legal_actions(), 0.7))
    data = json.loads(json.dumps(game.to_dict()))
    assert data["format"] == 1
    restored = SheddingGame.from_dict(data)
    assert restored.to_dict() == game.to_dict()
    for seat in range(game.players):
        assert restored.view(seat) == game.view(seat)
    twin_rng = random.Random(7)
    rng = random.Random(7)
    for _ in range(200):
        if game.to_move is None:
            break
        action = choose(rng, game.legal_actions(), 0.5)
        assert choose(twin_rng, restored.legal_actions(), 0.5) == action
        assert [e.to_dict() for e in restored.apply(action)] == [
            e.to_dict() for e in game.apply(action)
        ]
    assert restored.to_dict() == game.to_dict()


@settings(max_examples=examples(30), deadline=None)
@given(matches(), st.integers(0, 40))
def test_copy_is_independent(setup: tuple[SheddingGame, random.Random], stop: int) -> None:
    game, rng = setup
    deal_next(game, rng)
    for _ in range(stop):
        if game.to_move is None:
            break
        game.apply(choose(rng, game.legal_actions(), 0.7))
    before = game.to_dict()
    twin = game.copy()
    for _ in range(30):
        if twin.to_move is None:
            break
        twin.apply(choose(rng, twin.legal_actions(), 0.5))
    assert game.to_dict() == before


@pytest.mark.parametrize(
    "action",
    [
        "draw",
        None,
        {},
        {"action": "fly"},
        {"action": "play"},
        {"action": "play", "card": 7},
        {"action": "play", "card": "1Z"},
        {"action": "play", "card": "7H", "suit": "Q"},
        {"action": "play", "card": "7H", "suit": ["H"]},
        {"action": "play", "card": "7H", "announce": "uno"},
        {"action": "play", "card": "7H", "colour": "red"},
        {"action": "draw", "card": "7H"},
        {"action": "end_turn", "expected_version": 3},  # the service's field, not the rules'
    ],
)
def test_malformed_actions_are_invalid_and_change_nothing(action: Any) -> None:
    """the API guide, actions: malformed → InvalidAction, whatever the blunder penalty."""
    game = create_game("switch", 3, {"blunder_penalty": 2})
    game.deal(b"seed")
    before = game.to_dict()
    with pytest.raises(InvalidAction):
        game.apply(action)
    assert game.to_dict() == before


def test_aliases_and_lower_case_are_accepted() -> None:
    """docs/rules.md §1: 10S is an alias of TS, and lower case is accepted."""
    game = create_game("switch", 2)
    game.deal(
        b"x",
        {"hands": [["TS", "3C", "4C"], ["5D", "6D"]], "starter": "9S", "stock": []},
    )
    events = game.apply({"action": "play", "card": "10s"})
    assert events[0].data["card"] == "TS"
