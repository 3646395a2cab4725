"""Explicit grids for the tests of Abbott's Switch (docs/rules.md §4).

Layouts are written as {(row, col): code}; every other square is empty. FULL6 is the 6×6 grid holding
the cards of an ordered deck row by row (AC AD AH AS 2C … at row 0), so square (r, c) holds card
r*6+c; FULL5 the same on the two-player 5×5 grid.
"""

from __future__ import annotations

from typing import Any

from switchgame.abbott.game import AbbottGame
from switchgame.abbott.rulesets import create_game
from switchgame.cards import card_code

SEED = b"abbott-test"
FULL6 = {(r, c): card_code(r * 6 + c) for r in range(6) for c in range(6)}
FULL5 = {(r, c): card_code(r * 5 + c) for r in range(5) for c in range(5)}


def layout(cells: dict[tuple[int, int], str], size: int = 6) -> dict[str, Any]:
    return {"grid": [[cells.get((r, c)) for c in range(size)] for r in range(size)]}


def new_game(
    cells: dict[tuple[int, int], str] | None = None,
    players: int = 4,
    totals: list[int] | None = None,
) -> AbbottGame:
    """A game whose first hand is dealt from ``cells`` (FULL6/FULL5 by default)."""
    game = create_game("abbott" if players == 4 else "abbott-2", players)
    if totals is not None:
        game = edit(game, totals=totals)
    size = 6 if players == 4 else 5
    game.deal(SEED, layout(cells if cells is not None else (FULL6 if size == 6 else FULL5), size))
    return game


def edit(game: AbbottGame, **changes: Any) -> AbbottGame:
    """The same game with some stored fields replaced (through the public to_dict/from_dict)."""
    state = game.to_dict()
    state.update(changes)
    return AbbottGame.from_dict(state)


def move(game: AbbottGame, row: int, col: int) -> list[dict[str, Any]]:
    return [e.to_dict() for e in game.apply({"action": "move", "to": [row, col]})]


def moves(game: AbbottGame) -> set[tuple[int, int]]:
    return {tuple(a["to"]) for a in game.legal_actions() if a["action"] == "move"}


def hand_end(events: list[dict[str, Any]]) -> dict[str, Any]:
    end = hand_end_or_none(events)
    assert end is not None
    return end


def hand_end_or_none(events: list[dict[str, Any]]) -> dict[str, Any] | None:
    ends = [e["data"] for e in events if e["type"] == "hand_end"]
    assert len(ends) <= 1
    return ends[0] if ends else None


def asked_to_agree() -> AbbottGame:
    """Seat 1 (17) moves seat 0's piece; seats 1, 2 and 3, the seats that act, all propose."""
    game = new_game({(2, 2): "AS"}, totals=[0, 17, 0, 0])
    game.apply({"action": "ally", "partner": 1})  # seat 1 now moves seat 0's piece
    game.apply({"action": "propose_end"})  # by seat 1
    move(game, 4, 0)
    move(game, 1, 0)
    game.apply({"action": "propose_end"})  # seat 2
    move(game, 1, 5)
    return game
