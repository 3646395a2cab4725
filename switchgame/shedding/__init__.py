"""The shedding Switch game state (docs/rules.md §2, §3), split along its seams.

* :mod:`.actions` — actions as the API's dicts and as the engine's tuples, and parsing;
* :mod:`.state` — the fields of a match, declared once, and copying and saving that follow;
* :mod:`.legal` — which actions are legal in a position, and why another one is not;
* :mod:`.game` — :class:`SheddingGame`: dealing, applying actions, the turn mechanics, what a
  seat may know (its view) and a whole game rebuilt from a view for search bots; :func:`create_game`;
* :mod:`.public_log` — what the whole table has seen of a deal (the view's ``history``).
"""

from switchgame.shedding.actions import (
    DRAW,
    DRAW_ACTION,
    END,
    END_ACTION,
    PLAY,
    ActionTuple,
    action_dict,
    parse_action,
)
from switchgame.shedding.game import SheddingGame, create_game

__all__ = [
    "DRAW",
    "DRAW_ACTION",
    "END",
    "END_ACTION",
    "PLAY",
    "ActionTuple",
    "SheddingGame",
    "action_dict",
    "create_game",
    "parse_action",
]
