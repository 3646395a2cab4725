"""Bot strategies: pure functions from a seat's view to one of its legal moves.

A bot sees exactly what a human in its seat would see — ``view(seat)`` — plus the public facts of
the table (:class:`Table`), never the hidden cards. Strategies are registered per game; the service
looks them up by name and hands each a ``random.Random`` seeded from the match and its version, so a
bot's choice is reproducible.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from games.bots import (
    abbott_heuristic,
    abbott_search,
    random_bot,
    shedding_heuristic,
    shedding_ismcts,
)


@dataclass(frozen=True)
class Table:
    """The public facts of the match a bot plays in."""

    ruleset: str
    players: int
    seat: int
    options: Mapping[str, Any] = field(default_factory=dict)


Strategy = Callable[[Mapping[str, Any], Table, random.Random], dict[str, Any]]

STRATEGIES: dict[str, dict[str, Strategy]] = {
    "shedding": {
        "random": random_bot.choose,
        "heuristic": shedding_heuristic.choose,
        "ismcts": shedding_ismcts.choose,
    },
    "abbott": {
        "random": random_bot.choose,
        "heuristic": abbott_heuristic.choose,
        "search": abbott_search.choose,
    },
}


def strategies_for(game: str) -> list[str]:
    return list(STRATEGIES.get(game, {}))


def choose_action(
    strategy: str, *, game: str, view: Mapping[str, Any], table: Table, seed: str
) -> dict[str, Any]:
    """The action ``strategy`` plays from ``view``; ``seed`` makes the choice reproducible."""
    return STRATEGIES[game][strategy](view, table, random.Random(seed))
