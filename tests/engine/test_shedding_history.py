"""The public history in a shedding view: what the whole table has seen of the deal, for bots.

It must say exactly what the spectator's events say (so it can reveal nothing the table did not
see), survive persistence, and two deals that differ only in cards a seat cannot see must give
that seat the same view, history included.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from switchgame.protocol import Event
from switchgame.shedding import SheddingGame, create_game
from switchgame.shedding.rulesets import RULESETS
from tests.engine.test_shedding_helpers import choose, layout_game

DRAW = {"action": "draw"}


def history_from_events(events: list[Event]) -> list[dict[str, Any]]:
    """The history the spectator could write down from the events of one deal (independent code)."""
    out: list[dict[str, Any]] = []
    for event in events:
        seen = event.for_viewer(None)
        data, seat = seen["data"], seen["seat"]
        if event.type == "deal":
            out.append({"type": "starter", "card": data["starter"]})
        elif event.type == "play":
            out.append({"type": "play", "seat": seat, **data})
        elif event.type == "draw":
            out.append({"type": "draw", "seat": seat, **data})
        elif event.type in ("end_turn", "skip"):
            out.append({"type": event.type, "seat": seat, **data})
        elif event.type == "reshuffle":
            out.append({"type": "reshuffle", **data})
    return out


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
@pytest.mark.parametrize("players", [2, 4])
def test_the_history_is_what_the_spectator_saw(ruleset: str, players: int) -> None:
    """docs/rules.md §2: the history holds the plays, suits named, draws (count and reason, never
    the cards), skips, reshuffles — nothing the spectator's event feed does not show."""
    rng = random.Random(f"{ruleset} {players}")
    game = create_game(ruleset, players, deals=2)
    events: list[Event] = []
    while not game.is_over:
        if game.needs_deal:
            events = game.deal(rng.randbytes(8))
        else:
            events.extend(game.apply(choose(rng, game.legal_actions(), prefer_play=0.7)))
        expected = history_from_events(events)
        for seat in [None, *range(players)]:
            assert game.view(seat)["history"] == expected


def test_a_voluntary_draw_a_pick_up_and_a_skip_in_the_history() -> None:
    """docs/rules.md §3 switch: a 2 picked up, an 8's skip, a jack's suit, a draw."""
    game = layout_game(
        "switch", [["2C", "8C", "JD", "4S"], ["5D", "6D", "7D"], ["3H", "4H", "KH"]], "9C"
    )
    game.apply({"action": "play", "card": "2C"})
    game.apply(DRAW)  # seat 1 takes the pick-up of 2
    game.apply({"action": "draw"})  # seat 2 draws (voluntarily or not: the table cannot tell)
    game.apply({"action": "play", "card": "JD", "suit": "H"})
    assert game.view(1)["history"] == [
        {"type": "starter", "card": "9C"},
        {"type": "play", "seat": 0, "card": "2C"},
        {"type": "draw", "seat": 1, "count": 2, "reason": "pick_up"},
        {"type": "draw", "seat": 2, "count": 1, "reason": "draw"},
        {"type": "play", "seat": 0, "card": "JD", "suit": "H"},
    ]


def test_different_hidden_cards_give_the_same_views_history_included() -> None:
    """Seat 1's hand and the stock's order differ; seat 0, seat 2 and the spectator cannot tell."""
    first = layout_game(
        "switch",
        [["3C", "4C", "KD"], ["5H", "6H", "7H"], ["2C", "8D", "TD"]],
        "9C",
        ["QH", "7D", "8S"],
    )
    second = layout_game(
        "switch",
        [["3C", "4C", "KD"], ["5S", "6S", "QH"], ["2C", "8D", "TD"]],
        "9C",
        ["7H", "7D", "8S"],
    )
    assert first.hands[1] != second.hands[1]
    assert first.stock != second.stock
    script = [
        {"action": "play", "card": "3C"},
        DRAW,  # seat 1 cannot follow, in either deal
        {"action": "play", "card": "2C"},
        DRAW,  # seat 0 picks up 7D 8S in both
        DRAW,
        DRAW,
        {"action": "play", "card": "4C"},
    ]
    for action in script:
        for viewer in (None, 0, 2):
            assert first.view(viewer) == second.view(viewer)
        first.apply(action)
        second.apply(action)
    for viewer in (None, 0, 2):
        assert first.view(viewer) == second.view(viewer)
    assert len(first.view(0)["history"]) == 1 + len(script)


def test_the_history_survives_persistence_and_older_states_load_without_it() -> None:
    game = create_game("black-jack", 3)
    game.deal(b"history")
    rng = random.Random(3)
    for _ in range(25):
        game.apply(choose(rng, game.legal_actions(), prefer_play=0.8))
    data = game.to_dict()
    assert SheddingGame.from_dict(data).view(0)["history"] == game.view(0)["history"]
    del data["public_log"]
    older = SheddingGame.from_dict(data)
    assert older.view(0)["history"] == []
    assert older.legal_actions() == game.legal_actions()
