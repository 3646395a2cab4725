"""How fast the shedding engine plays complete random games, one line per preset × {2, 4} players.

    python -m benchmarks.shedding_speed [--seconds 2] [--policy uniform|plays]

Each game is a new match of one deal, dealt from a fresh seed and played to its end by a random
player. Two ways of driving the engine are timed on the same games:

* ``api``: ``legal_actions()`` (dicts in the API's JSON shape) and ``apply(dict)`` — what the
  service does;
* ``tuples``: ``legal_tuples()`` and ``apply_tuple()`` — what a search bot can do.

Policies: ``uniform`` picks uniformly among the legal actions (voluntary draws included, which makes
`switch` and `irish-switch` deals long); ``plays`` picks uniformly among the plays when there is one,
and draws or ends the turn only otherwise. One core, no parallelism; rates are per second of this
process's CPU time, so other load on the machine slows them less than it would wall-clock rates.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from typing import Any

from switchgame.shedding import PLAY, SheddingGame
from switchgame.shedding.rulesets import RULESETS, Rules

# A random player: picks one of the legal actions (dicts or tuples) with the rng it is handed.
Pick = Callable[[random.Random, list[Any]], Any]


def pick_uniform(rng: random.Random, legal: list[Any]) -> Any:
    return legal[rng.randrange(len(legal))]


def _pick_plays(rng: random.Random, legal: list[Any]) -> Any:
    plays = [a for a in legal if (a[0] == PLAY if isinstance(a, tuple) else a["action"] == "play")]
    return rng.choice(plays or legal)


POLICIES: dict[str, Pick] = {"uniform": pick_uniform, "plays": _pick_plays}


def play_random_games(
    rules: Rules, seconds: float, pick: Pick, tuples: bool, rng: random.Random
) -> tuple[int, int, float]:
    """Play games, each from a new deal to its end, for ``seconds`` of CPU time, through the
    tuple path or the API's dicts; returns (games, actions, CPU seconds)."""
    games = actions = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        game = SheddingGame(rules)
        game.deal(rng.randbytes(16))
        if tuples:
            while not game.is_over:
                game.apply_tuple(pick(rng, game.legal_tuples()))
                actions += 1
        else:
            while not game.is_over:
                game.apply(pick(rng, game.legal_actions()))
                actions += 1
        games += 1
    return games, actions, time.process_time() - start


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="per case and driver")
    parser.add_argument("--policy", choices=sorted(POLICIES), default="uniform")
    args = parser.parse_args(argv)
    pick = POLICIES[args.policy]
    print(f"policy {args.policy}; {args.seconds:g} s per case and driver")
    print(
        f"{'preset':<18} {'seats':>5}  {'api games/s':>11} {'actions/s':>10}  {'tuples games/s':>14} {'actions/s':>10}  {'actions/game':>12}"
    )
    for name, ruleset in RULESETS.items():
        for players in (2, 4):
            rules = ruleset.compile(players)
            api = play_random_games(rules, args.seconds, pick, False, random.Random(1))
            fast = play_random_games(rules, args.seconds, pick, True, random.Random(1))
            print(
                f"{name:<18} {players:>5}  {api[0] / api[2]:>11,.0f} {api[1] / api[2]:>10,.0f}  "
                f"{fast[0] / fast[2]:>14,.0f} {fast[1] / fast[2]:>10,.0f}  {api[1] / max(api[0], 1):>12,.0f}"
            )


if __name__ == "__main__":
    main()
