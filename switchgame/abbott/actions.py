"""The actions of Abbott's Switch as the API spells them, and a fixed layout of the grid: their shape
checked before the rules look at them (``InvalidAction`` / ``InvalidLayout`` for a malformed one)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from switchgame.abbott.state import EMPTY
from switchgame.cards import InvalidCard, card_code, parse_card
from switchgame.protocol import InvalidAction, InvalidLayout
from switchgame.words import quoted

ACTION_FIELDS = {
    "move": frozenset({"action", "to"}),
    "ally": frozenset({"action", "partner"}),
    "pass": frozenset({"action"}),
    "propose_end": frozenset({"action"}),
    "decline_end": frozenset({"action"}),
}


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def action_name(action: Mapping[str, Any]) -> str:
    """The name of a well-formed action (its fields checked), else InvalidAction."""
    if not isinstance(action, Mapping):
        raise InvalidAction("an action is a JSON object")
    name = action.get("action")
    if not isinstance(name, str) or name not in ACTION_FIELDS:
        raise InvalidAction(
            f"unknown action {quoted(name)}; Abbott's Switch has {', '.join(ACTION_FIELDS)}"
        )
    extra = set(action) - ACTION_FIELDS[name]
    if extra:
        raise InvalidAction(f"unexpected field {quoted(sorted(extra)[0])} in a {name} action")
    if name == "move":
        to = action.get("to")
        if not (isinstance(to, list | tuple) and len(to) == 2 and all(map(_is_int, to))):
            raise InvalidAction('a move needs "to": [row, column] (two integers)')
    elif name == "ally" and not _is_int(action.get("partner")):
        raise InvalidAction('an alliance needs "partner": a seat number')
    return name


def layout_grid(layout: Mapping[str, Any], size: int) -> list[int]:
    """The grid a layout fixes (``{"grid": [[code or null, ...], ...]}``), else InvalidLayout."""
    if not isinstance(layout, Mapping) or set(layout) != {"grid"}:
        raise InvalidLayout('an Abbott layout is {"grid": [[code or null, ...], ...]}')
    rows = layout["grid"]
    if (
        not isinstance(rows, list | tuple)
        or len(rows) != size
        or not all(isinstance(row, list | tuple) and len(row) == size for row in rows)
    ):
        raise InvalidLayout(f"the grid must be {size} rows of {size} squares")
    grid = []
    for row in rows:
        for code in row:
            if code is None:
                grid.append(EMPTY)
                continue
            try:
                card = parse_card(code)
            except InvalidCard as exc:
                raise InvalidLayout(str(exc)) from None
            if card >= 52:
                raise InvalidLayout("Abbott's Switch is played without jokers")
            if card in grid:
                raise InvalidLayout(f"{card_code(card)} is on the grid twice")
            grid.append(card)
    return grid
