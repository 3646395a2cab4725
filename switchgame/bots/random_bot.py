"""The ``random`` strategy: a uniformly random legal move. The baseline every other bot must beat."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from switchgame.bots import MatchFacts


def choose(view: Mapping[str, Any], facts: MatchFacts, rng: random.Random) -> dict[str, Any]:
    return dict(rng.choice(view["legal_moves"]))
