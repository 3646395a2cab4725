"""What loading a saved game costs, beside what one engine action costs, side by side.

    python -m benchmarks.load_speed [--seconds 1] [--reps 5]

The service loads a match's saved state on every move and every view, so loading must cost about
as little as playing. States are taken from random four-player ``switch`` deals at every stage
(JSON round-tripped, as the database gives them back) and loaded with ``catalog.load_game``; an
action is ``legal_actions()`` then ``apply(dict)`` in random four-player ``switch`` games, what the
service does for a move. Repetitions are interleaved and the ratio is taken in each; the summary
is the median. Target: a load costs at most five actions.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections.abc import Sequence
from typing import Any

from switchgame import catalog
from switchgame.shedding import create_game

PLAYERS = 4


def saved_states(count: int) -> list[dict[str, Any]]:
    """``count`` saved states from random deals, at every stage of a deal."""
    rng = random.Random(7)
    states: list[dict[str, Any]] = []
    while len(states) < count:
        game = create_game("switch", PLAYERS)
        game.deal(rng.randbytes(16))
        while not game.is_over and len(states) < count:
            game.apply(rng.choice(game.legal_actions()))
            if rng.random() < 0.05:
                states.append(json.loads(json.dumps(game.to_dict())))
    return states


def time_loads(states: list[dict[str, Any]], seconds: float) -> float:
    """Mean CPU seconds per ``catalog.load_game``."""
    loads = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        for data in states:
            catalog.load_game("shedding", data)
        loads += len(states)
    return (time.process_time() - start) / loads


def time_actions(seconds: float) -> float:
    """Mean CPU seconds per action (``legal_actions()`` + ``apply``) in random games."""
    rng = random.Random(1)
    actions = games = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        game = create_game("switch", PLAYERS)
        game.deal(games.to_bytes(8, "big"))
        games += 1
        while not game.is_over:
            legal = game.legal_actions()
            game.apply(legal[rng.randrange(len(legal))])
            actions += 1
    return (time.process_time() - start) / actions


def main(argv: Sequence[str] | None = None) -> float:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="CPU seconds per measurement")
    parser.add_argument("--reps", type=int, default=5, help="interleaved repetitions")
    args = parser.parse_args(argv)
    states = saved_states(200)
    ratios = []
    for rep in range(1, args.reps + 1):
        load = time_loads(states, args.seconds)
        action = time_actions(args.seconds)
        ratios.append(load / action)
        print(
            f"rep {rep}: load_game {load * 1e6:.1f} µs, one action {action * 1e6:.1f} µs, "
            f"a load costs {ratios[-1]:.1f} actions",
            flush=True,
        )
    ratio = statistics.median(ratios)
    print(f"a load costs {ratio:.1f} actions (median of {args.reps}; target: at most 5)")
    return ratio


if __name__ == "__main__":
    main()
