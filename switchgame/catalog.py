"""Every ruleset of both games in one registry, so the service treats shedding and Abbott alike.

Pure Python like the engines it wraps: the service, the bots and tournaments look rulesets up here,
create games here, and load persisted games here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from switchgame import shedding
from switchgame.abbott import rulesets as abbott_rulesets
from switchgame.abbott.game import AbbottGame
from switchgame.protocol import GameState
from switchgame.shedding import game as shedding_game
from switchgame.shedding import rulesets as shedding_rulesets
from switchgame.words import N_, Sentence, quoted

SHEDDING = "shedding"
ABBOTT = "abbott"

_LOADERS: dict[str, Callable[[Mapping[str, Any]], GameState]] = {
    SHEDDING: shedding.SheddingGame.from_dict,
    ABBOTT: AbbottGame.from_dict,
}
_FACTORIES: dict[str, Callable[..., GameState]] = {
    SHEDDING: shedding.create_game,
    ABBOTT: abbott_rulesets.create_game,
}
# The highest target (points, running total) a match of each game may be played to.
MAX_TARGETS: dict[str, int] = {
    SHEDDING: shedding_game.MAX_TARGET,
    ABBOTT: abbott_rulesets.MAX_TARGET,
}


class UnknownRuleset(ValueError):
    """No ruleset of either game has this name."""


@dataclass(frozen=True)
class RulesetInfo:
    name: str
    game: str
    title: str
    players: tuple[int, int]
    options: dict[str, Any]
    description: str


def _info(game: str, ruleset: Any) -> RulesetInfo:
    return RulesetInfo(
        name=ruleset.name,
        game=game,
        title=ruleset.title,
        players=tuple(ruleset.players),
        options=ruleset.options_json(),
        description=ruleset.description,
    )


RULESETS: dict[str, RulesetInfo] = {
    **{name: _info(SHEDDING, r) for name, r in shedding_rulesets.RULESETS.items()},
    **{name: _info(ABBOTT, r) for name, r in abbott_rulesets.RULESETS.items()},
}


def find_ruleset(name: str) -> RulesetInfo:
    try:
        return RULESETS[name]
    except (KeyError, TypeError):
        known = ", ".join(RULESETS)
        raise UnknownRuleset(
            Sentence(
                N_("unknown ruleset {name}; known rulesets: {known}"),
                name=quoted(name),
                known=known,
            )
        ) from None


def new_game(
    name: str,
    players: int,
    options: Mapping[str, Any] | None = None,
    deals: int = 1,
    target: int | None = None,
) -> GameState:
    """A new match of ``name`` waiting for its first deal; raises InvalidOptions for bad options."""
    info = find_ruleset(name)
    return _FACTORIES[info.game](name, players, options, deals=deals, target=target)


def load_game(game: str, data: Mapping[str, Any]) -> GameState:
    """Rebuild a persisted game from its ``to_dict()`` form."""
    return _LOADERS[game](data)
