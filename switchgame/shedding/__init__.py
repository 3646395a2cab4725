"""The shedding Switch game state (docs/rules.md §2, §3), split along its seams.

* :mod:`.actions` — actions as the API's dicts and as the engine's tuples, and parsing;
* :mod:`.state` — the fields of a match, declared once, and copying and saving that follow;
* :mod:`.legal` — which actions are legal in a position, and why another one is not;
* :mod:`.game` — :class:`SheddingGame`: dealing, applying actions, the turn mechanics;
* :mod:`.public_log` — what the whole table has seen of a deal (the view's ``history``);
* :mod:`.views` — what a seat may know, and a whole game rebuilt from that for search bots.
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
from switchgame.shedding.game import SheddingGame

__all__ = [
    "DRAW",
    "DRAW_ACTION",
    "END",
    "END_ACTION",
    "PLAY",
    "ActionTuple",
    "SheddingGame",
    "action_dict",
    "parse_action",
]
