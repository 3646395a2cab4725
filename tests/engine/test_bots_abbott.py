"""The Abbott's Switch bots: ``AbbottGame.from_view`` rebuilds a state that plays like the original,
both strategies always answer with a legal move and reproducibly, the heuristic makes the obvious
choices in hand-built positions, and the search bot keeps to its budget."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator, Mapping
from types import SimpleNamespace
from typing import Any

import pytest

from switchgame.abbott.game import AbbottGame
from switchgame.abbott.rulesets import create_game
from switchgame.bots import STRATEGIES, MatchFacts, abbott_heuristic, abbott_search
from switchgame.bots.abbott_search import DEFAULT_ITERATIONS, make_search_bot
from switchgame.cards import card_code, parse_card

RULESETS = [("abbott", 4), ("abbott-2", 2)]


def random_positions(
    ruleset: str, players: int, seed: int, *, leader_total: int = 0, every: int = 3
) -> Iterator[AbbottGame]:
    """Positions from random play over a whole game, every ``every``-th action and between hands.

    ``leader_total`` starts seat 0 at that total, so that alliances hand over pieces (16 or more).
    """
    rng = random.Random(seed)
    state = create_game(ruleset, players).to_dict()
    state["totals"][0] = leader_total
    game = AbbottGame.from_dict(state)
    count = 0
    while not game.is_over:
        game.deal(rng.randbytes(8))
        while not game.needs_deal and not game.is_over:
            if count % every == 0:
                yield game
            count += 1
            game.apply(rng.choice(game.legal_actions()))
        yield game


def all_positions(every: int = 3) -> Iterator[tuple[str, int, AbbottGame]]:
    for seed in range(4):
        for ruleset, players in RULESETS:
            leader_total = 17 if seed % 2 else 0
            for game in random_positions(
                ruleset, players, seed, leader_total=leader_total, every=every
            ):
                yield ruleset, players, game


def outcome(game: AbbottGame, action: Mapping[str, Any]) -> tuple[list[dict[str, Any]], dict]:
    """The events of ``action`` and the view after it, both without the past hands, which a view
    does not show (from_view leaves the history empty)."""
    trial = game.copy()
    events = [comparable_event(e.to_dict()) for e in trial.apply(action)]
    return events, comparable(trial.view(trial.to_move))


def comparable(view: dict[str, Any]) -> dict[str, Any]:
    """The view without what only the past hands decide: the outcome's hands and its ranking
    below the winner (ties on totals are broken by hands won)."""
    if view["result"]:
        view["result"] = {key: view["result"][key] for key in ("winner", "totals")}
    return view


def comparable_event(event: dict[str, Any]) -> dict[str, Any]:
    if event["type"] == "match_end":
        event["data"] = {key: event["data"][key] for key in ("winner", "totals")}
    return event


# ------------------------------------------------------------------------------------ from_view


def test_from_view_plays_like_the_original() -> None:
    checked = 0
    for _, _, game in all_positions():
        seat = game.to_move
        rebuilt = AbbottGame.from_view(game.view(seat))
        assert comparable(rebuilt.view(seat)) == comparable(game.view(seat))
        assert rebuilt.legal_actions() == game.legal_actions()
        assert (rebuilt.needs_deal, rebuilt.is_over) == (game.needs_deal, game.is_over)
        for action in game.legal_actions():
            assert outcome(rebuilt, action) == outcome(game, action)
            checked += 1
    assert checked > 1000


def test_from_view_plays_on_like_the_original_to_the_end_of_the_game() -> None:
    """Continuing both with the same random choices (new hands included) gives the same events."""
    continued = 0
    for _, _, game in all_positions(every=25):
        if game.is_over:
            continue
        original = game.copy()
        rebuilt = AbbottGame.from_view(game.view(game.to_move))
        rng = random.Random(continued)
        while not original.is_over:
            if original.needs_deal:
                deal_seed = rng.randbytes(8)
                expected = [e.to_dict() for e in original.deal(deal_seed)]
                assert [e.to_dict() for e in rebuilt.deal(deal_seed)] == expected
                continue
            action = rng.choice(original.legal_actions())
            expected = [comparable_event(e.to_dict()) for e in original.apply(action)]
            assert [comparable_event(e.to_dict()) for e in rebuilt.apply(action)] == expected
        assert (rebuilt.totals, rebuilt.winner) == (original.totals, original.winner)
        continued += 1
    assert continued > 20


def build(
    cards_at: Mapping[tuple[int, int], str],
    pieces: list[list[int]],
    captured: list[list[str]],
    *,
    turn: int = 0,
    turns_taken: int = 12,
    totals: list[int] | None = None,
    alliance: tuple[int, int] | None = None,
    proposed: list[bool] | None = None,
    asked: int | None = None,
) -> AbbottGame:
    """A four-player position in mid-hand: the given cards on the grid, every other square empty."""
    game = create_game("abbott", 4)
    game.deal(b"template")
    state = game.to_dict()
    grid: list[list[str | None]] = [[None] * 6 for _ in range(6)]
    for (row, col), code in cards_at.items():
        grid[row][col] = code
    in_sight = {parse_card(code) for code in cards_at.values()}
    in_sight.update(parse_card(code) for cards in captured for code in cards)
    state.update(
        grid=grid,
        pieces=pieces,
        captured=captured,
        unused=[card_code(c) for c in range(52) if c not in in_sight],
        turn=turn,
        turns_taken=turns_taken,
        totals=totals or [0, 0, 0, 0],
        alliance=list(alliance) if alliance else None,
        proposed=proposed or [False] * 4,
        asked=asked,
    )
    return AbbottGame.from_dict(state)


def test_from_view_keeps_the_blocked_dealers_first_turn() -> None:
    """Seat 3 deals the first hand; boxed in on his first turn, his pass takes the card under him."""
    corner = {(5, 5): "KS", (0, 0): "2C", (2, 2): "7D"}
    game = build(
        corner,
        [[5, 4], [4, 5], [0, 5], [5, 5]],
        [["3C"], ["4C"], ["5C"], []],
        turn=3,
        turns_taken=3,
    )
    rebuilt = AbbottGame.from_view(game.view(3))
    assert game.legal_actions()[0] == {"action": "pass"}
    events, view = outcome(rebuilt, {"action": "pass"})
    assert (events, view) == outcome(game, {"action": "pass"})
    assert events[0]["data"]["card"] == "KS"


# ------------------------------------------------------------------------- every strategy, legal


@pytest.mark.slow
@pytest.mark.parametrize("name", ["heuristic", "search"])
def test_choices_are_legal_and_reproducible(name: str) -> None:
    strategy = STRATEGIES["abbott"]["heuristic"]
    if name == "search":
        strategy = make_search_bot(iterations=30, time_cap=None)
    every = 2 if name == "heuristic" else 15
    checked = 0
    for ruleset, players, game in all_positions(every=every):
        if game.needs_deal or game.is_over:
            continue
        seat = game.to_move
        assert seat is not None
        view = game.view(seat)
        table = MatchFacts(ruleset, players, seat)
        choice = strategy(view, table, random.Random(checked))
        assert choice in view["legal_moves"]
        assert strategy(view, table, random.Random(checked)) == choice
        checked += 1
    assert checked > 100


def test_both_are_registered() -> None:
    assert {"random", "heuristic", "search"} <= set(STRATEGIES["abbott"])


# ------------------------------------------------------------------------- the heuristic's sense


def heuristic_choice(game: AbbottGame) -> dict[str, Any]:
    seat = game.to_move
    assert seat is not None
    view = game.view(seat)
    return abbott_heuristic.choose(view, MatchFacts("abbott", 4, seat), random.Random(0))


# Seat 0 stands at (5,0) and reaches column 0 and row 5; seat 1 at (0,0) reaches row 0 and column 0.
PIECES = [[5, 0], [0, 0], [0, 5], [5, 5]]
JUNK = [["4C", "6D", "8S"], ["3D", "7S", "9C"], ["4S", "8D", "TC"]]


def test_takes_the_card_that_completes_its_flush() -> None:
    grid = {(2, 0): "KH", (5, 3): "AS", (3, 0): "7D", (1, 3): "QC"}
    game = build(grid, PIECES, [["2H", "5H", "9H", "JH", "3C"], *JUNK])
    assert heuristic_choice(game) == {"action": "move", "to": [2, 0]}


def test_denies_the_leader_the_card_that_completes_his_flush() -> None:
    """QS gives seat 1 (pair of eights and four spades, next to move) a flush; 7C gives us two pair,
    but kings up lose to his flush and beat his eights."""
    grid = {(2, 0): "QS", (5, 2): "7C", (2, 3): "5D", (3, 4): "AD"}
    captured = [
        ["KC", "KD", "7D"],
        ["3S", "6S", "8S", "JS", "8D"],
        ["4D", "6C", "TD"],
        ["4H", "5C", "9C"],
    ]
    game = build(grid, PIECES, captured)
    assert heuristic_choice(game) == {"action": "move", "to": [2, 0]}


def test_does_not_ally_when_it_is_the_clear_leader() -> None:
    grid = {(2, 0): "QS", (5, 2): "7C", (2, 3): "5D"}
    game = build(grid, PIECES, [["KC", "KD", "KH", "2S", "2D"], *JUNK])
    assert heuristic_choice(game)["action"] != "ally"


def test_allies_with_the_clear_winner_when_it_cannot_win() -> None:
    grid = {(2, 0): "QS", (5, 2): "7C"}
    captured = [
        ["2C", "4D", "7H", "9S"],
        ["3D", "7S", "9C", "JD"],
        ["AC", "AD", "AH", "AS", "KH"],
        ["4S", "8D", "TC"],
    ]
    game = build(grid, PIECES, captured)
    assert heuristic_choice(game) == {"action": "ally", "partner": 2}


def test_proposes_the_end_that_it_wins() -> None:
    grid = {(2, 0): "QS", (5, 2): "7C"}
    captured = [["KC", "KD", "KH", "2S", "2D"], *JUNK]
    game = build(grid, PIECES, captured, proposed=[False, True, True, True])
    assert heuristic_choice(game) == {"action": "propose_end"}
    game = build(grid, PIECES, captured, proposed=[False, True, False, True])
    assert heuristic_choice(game)["action"] == "move"


def test_asked_to_agree_it_agrees_only_to_the_end_that_suits_it() -> None:
    """Seat 0 chose seat 1 (17), who moves its piece; asked to agree, seat 0 wants seat 1 to win
    (3 points for the chooser), and nobody else."""
    grid = {(2, 0): "QS", (5, 2): "7C"}
    strong = ["KC", "KD", "KH", "2S", "2D"]
    for winner, answer in ((1, "propose_end"), (2, "decline_end")):
        captured = [["2C", "5D", "9H"], *JUNK]
        captured[winner] = strong
        game = build(
            grid,
            PIECES,
            captured,
            turn=3,
            totals=[0, 17, 0, 0],
            alliance=(0, 1),
            proposed=[False, True, True, True],
            asked=0,
        )
        assert game.legal_actions() == [{"action": "propose_end"}, {"action": "decline_end"}]
        assert heuristic_choice(game) == {"action": answer}
        search = make_search_bot(iterations=50, time_cap=None)
        assert (
            search(game.view(0), MatchFacts("abbott", 4, 0), random.Random(0))
            in game.legal_actions()
        )


def test_passes_when_blocked_and_moves_otherwise() -> None:
    grid = {(2, 2): "QS", (5, 2): "7C"}
    boxed = [[5, 0], [4, 0], [0, 5], [5, 1]]
    game = build(grid, boxed, [["2C", "5D", "9H"], *JUNK], alliance=(1, 2))
    assert heuristic_choice(game) == {"action": "pass"}


# ---------------------------------------------------------------------------------- the search


def test_search_finds_the_flush_and_stops_at_its_time_cap() -> None:
    """Speed is measured by the benchmarks; here only that the time cap ends a search that its
    iterations would make long (the bound is loose: the machines running the tests are shared)."""
    grid = {(2, 0): "KH", (5, 3): "AS", (3, 0): "7D", (1, 3): "QC"}
    game = build(grid, PIECES, [["2H", "5H", "9H", "JH", "3C"], *JUNK])
    view = game.view(0)
    flush = {"action": "move", "to": [2, 0]}
    bot = make_search_bot(iterations=200, time_cap=None)
    assert bot(view, MatchFacts("abbott", 4, 0), random.Random(3)) == flush
    start = time.perf_counter()
    choice = make_search_bot(iterations=10**9, time_cap=0.2)(
        view, MatchFacts("abbott", 4, 0), random.Random(3)
    )
    assert time.perf_counter() - start < 5.0
    assert choice == flush


def test_the_default_search_is_reproducible_from_its_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    """The registered strategy's budget is in iterations, its time cap only a guard: the same view
    and seed give the same move. The search's clock is stopped here, so that however loaded the
    machine the cap never cuts the search short (which would make the move depend on the load)."""
    view = next(
        game.view(game.to_move)
        for _, _, game in all_positions(every=7)
        if not game.needs_deal and not game.is_over and len(game.legal_actions()) > 10
    )
    table = MatchFacts("abbott", 4, view["to_move"])
    monkeypatch.setattr(abbott_search, "time", SimpleNamespace(perf_counter=lambda: 0.0))
    choices = [STRATEGIES["abbott"]["search"](view, table, random.Random("seed")) for _ in range(2)]
    assert choices[0] == choices[1]
    assert (
        make_search_bot(iterations=DEFAULT_ITERATIONS, time_cap=None)(
            view, table, random.Random("seed")
        )
        == choices[0]
    )


def test_search_needs_a_budget() -> None:
    with pytest.raises(ValueError, match="budget"):
        make_search_bot(iterations=None, time_cap=None)(
            build({(2, 0): "KH", (1, 3): "QC"}, PIECES, [["2H"], *JUNK]).view(0),
            MatchFacts("abbott", 4, 0),
            random.Random(0),
        )
