"""Complete random hands of Abbott's Switch per second, on one core.

Run ``python -m benchmarks.abbott_speed [seconds]``. Each hand is dealt from a fresh seed and played
to its end with actions chosen uniformly from ``legal_actions()`` (alliances and proposals to end
included), as the bots and the service drive the engine. The issue's target is 300 four-player
hands a second. Rates are per second of this process's CPU time (one core, not slowed by other load
on the machine); the wall-clock rate is printed beside it.
"""

from __future__ import annotations

import random
import sys
import time

from switchgame.abbott.rulesets import create_game


def hands_per_second(
    ruleset: str, players: int, seconds: float, seed: int = 1
) -> tuple[float, float, float]:
    """Play random hands for about ``seconds`` of CPU time.

    Returns hands and actions per CPU second, and hands per wall-clock second.
    """
    rng = random.Random(seed)
    hands = actions = 0
    game = create_game(ruleset, players)
    cpu_start = time.process_time()
    wall_start = time.perf_counter()
    while time.process_time() - cpu_start < seconds:
        if game.is_over:
            game = create_game(ruleset, players)
        game.deal(rng.randbytes(16))
        while not game.needs_deal and not game.is_over:
            game.apply(rng.choice(game.legal_actions()))
            actions += 1
        hands += 1
    cpu = time.process_time() - cpu_start
    wall = time.perf_counter() - wall_start
    return hands / cpu, actions / cpu, hands / wall


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 5.0
    for ruleset, players in (("abbott", 4), ("abbott-2", 2)):
        hands, actions, wall = hands_per_second(ruleset, players, seconds)
        print(
            f"{ruleset} ({players} players): {hands:,.0f} complete random hands/s "
            f"({actions:,.0f} actions/s; {wall:,.0f} hands per wall-clock second)"
        )


if __name__ == "__main__":
    main()
