"""Bot strategies: pure functions from a seat's view to one of its legal moves.

A bot sees exactly what a human in its seat would see — ``view(seat)`` — plus the public facts of
the match (:class:`MatchFacts`), never the hidden cards. Strategies are registered per game; the service
looks them up by name and hands each a ``random.Random`` seeded from the match and its version, so a
bot's choice is reproducible.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from switchgame.bots import (
    abbott_heuristic,
    abbott_search,
    random_bot,
    shedding_heuristic,
    shedding_montecarlo,
)


@dataclass(frozen=True)
class MatchFacts:
    """The public facts of the match a bot plays in, and its seat."""

    ruleset: str
    players: int
    seat: int
    options: Mapping[str, Any] = field(default_factory=dict)


Strategy = Callable[[Mapping[str, Any], MatchFacts, random.Random], dict[str, Any]]

STRATEGIES: dict[str, dict[str, Strategy]] = {
    "shedding": {
        "random": random_bot.choose,
        "heuristic": shedding_heuristic.choose,
        "montecarlo": shedding_montecarlo.choose,
    },
    "abbott": {
        "random": random_bot.choose,
        "heuristic": abbott_heuristic.choose,
        "search": abbott_search.choose,
    },
}


# Earlier names of strategies, still accepted from clients written against them: ``ismcts`` was
# named for the tree search it once was; it is a flat Monte Carlo search one move deep.
ALIASES: dict[str, dict[str, str]] = {"shedding": {"ismcts": "montecarlo"}}


def strategies_for(game: str) -> list[str]:
    return list(STRATEGIES.get(game, {}))


def strategy_named(game: str, name: object) -> str | None:
    """The strategy of ``game`` that ``name`` (a strategy's name or an alias) names, else None."""
    if not isinstance(name, str):
        return None
    name = ALIASES.get(game, {}).get(name, name)
    return name if name in STRATEGIES.get(game, {}) else None


def choose_action(
    strategy: str, *, game: str, view: Mapping[str, Any], facts: MatchFacts, seed: str
) -> dict[str, Any]:
    """The action ``strategy`` (or its alias) plays from ``view``; ``seed`` makes the choice
    reproducible."""
    name = strategy_named(game, strategy)
    assert name is not None, f"unknown {game} strategy {strategy!r}"
    return STRATEGIES[game][name](view, facts, random.Random(seed))
