"""Our shedding engine beside OpenSpiel's C++ ``crazy_eights``, in the same process, as a ratio.

    python -m benchmarks.engine_vs_openspiel [--seconds 3] [--reps 5] [--seed 1]

Needs OpenSpiel (``pip install -e ".[bench]"``: ``open-spiel``, with numpy and scipy). Every game
is played from a new deal to its end, each player action chosen uniformly at random among the legal
ones by a seeded ``random.Random``. Three drivers:

* ``api``: four-player ``switch`` through ``legal_actions()`` (dicts) and ``apply(dict)`` — what
  the service does;
* ``tuples``: the same games through ``legal_tuples()`` and ``apply_tuple()`` — what search does;
* ``openspiel``: ``crazy_eights(players=4, use_special_cards=True, reshuffle=True,
  max_turns=1000000)``, the closest of OpenSpiel's games, driven from a Python loop through
  ``current_player()``, ``legal_actions()`` and ``apply_action()``; its chance nodes (the dealer,
  every card dealt or drawn) are sampled in Python from ``chance_outcomes()``; each player action
  is chosen by the same ``pick_uniform`` as ours.

Rates are **player actions** per second of this process's CPU time: OpenSpiel's chance nodes are
not player actions (their cost is counted, as our engine's shuffles are), and games per second
would measure the rules (voluntary draws make random ``switch`` deals long), not the engine.
Repetitions are interleaved (api, tuples, openspiel, api, …) so that the machine's other load falls
on all three alike; the ratios are our rate over OpenSpiel's in each round, and the summary gives
their median. The machine is shared, so the ratio is the figure, not the absolute rates.
"""

from __future__ import annotations

import argparse
import importlib
import os
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

from benchmarks.shedding_speed import pick_uniform, play_random_games
from switchgame.shedding.rulesets import find_ruleset

PLAYERS = 4
OPENSPIEL_GAME = "crazy_eights"
OPENSPIEL_PARAMS = {
    "players": PLAYERS,
    "use_special_cards": True,
    "reshuffle": True,
    "max_turns": 1_000_000,  # uncapped: every game ends with a player going out
}
INSTALL_HINT = (
    "OpenSpiel is not installed: install the benchmark extra with\n"
    '    .venv/bin/pip install -e ".[bench]"\n'
    "(open-spiel from PyPI, with numpy and scipy), then run this again."
)

# A driver plays complete games for at least ``seconds`` of CPU time from ``rng`` and returns
# (games, player actions, CPU seconds).
Driver = Callable[[random.Random, float], tuple[int, int, float]]


SWITCH_RULES = find_ruleset("switch").compile(PLAYERS)


def switch_api(rng: random.Random, seconds: float) -> tuple[int, int, float]:
    return play_random_games(SWITCH_RULES, seconds, pick_uniform, False, rng)


def switch_tuples(rng: random.Random, seconds: float) -> tuple[int, int, float]:
    return play_random_games(SWITCH_RULES, seconds, pick_uniform, True, rng)


def openspiel_driver(pyspiel: Any) -> Driver:
    """The OpenSpiel driver, its game loaded once."""
    game = pyspiel.load_game(OPENSPIEL_GAME, OPENSPIEL_PARAMS)
    chance = int(pyspiel.PlayerId.CHANCE)
    terminal = int(pyspiel.PlayerId.TERMINAL)

    def play(rng: random.Random, seconds: float) -> tuple[int, int, float]:
        choices = rng.choices
        games = actions = 0
        start = time.process_time()
        while time.process_time() - start < seconds:
            state = game.new_initial_state()
            while True:
                player = state.current_player()
                if player == terminal:
                    break
                if player == chance:
                    outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
                    state.apply_action(choices(outcomes, probabilities)[0])
                else:
                    legal = state.legal_actions()
                    # The same random player as ours, called the same way (one call per action).
                    state.apply_action(pick_uniform(rng, legal))
                    actions += 1
            games += 1
        return games, actions, time.process_time() - start

    return play


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="CPU seconds per repetition")
    parser.add_argument("--reps", type=int, default=5, help="interleaved rounds")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    try:
        pyspiel = importlib.import_module("pyspiel")  # the optional `bench` extra
    except ImportError:
        print(INSTALL_HINT, file=sys.stderr)
        return 2

    drivers: dict[str, Driver] = {
        "api": switch_api,
        "tuples": switch_tuples,
        "openspiel": openspiel_driver(pyspiel),
    }
    print(f"python {sys.version.split()[0]}; {os.cpu_count()} cores; load {os.getloadavg()}")
    print(f"ours: switch, {PLAYERS} players; openspiel: {OPENSPIEL_GAME}({OPENSPIEL_PARAMS})")
    print(f"{args.reps} rounds of {args.seconds:g} CPU s per driver, interleaved; seed {args.seed}")
    for driver in drivers.values():  # warm-up, untimed
        driver(random.Random(-1), 0.2)
    rates: dict[str, list[float]] = {name: [] for name in drivers}
    for rep in range(1, args.reps + 1):
        line = [f"round {rep}:"]
        for name, driver in drivers.items():
            wall = time.perf_counter()
            games, actions, cpu = driver(random.Random(args.seed + rep), args.seconds)
            rates[name].append(actions / cpu)
            line.append(
                f"{name} {actions / cpu:,.0f} actions/s ({games} games, "
                f"cpu/wall {cpu / (time.perf_counter() - wall):.2f})"
            )
        line.append(
            f"ratio api {rates['api'][-1] / rates['openspiel'][-1]:.2f}, "
            f"tuples {rates['tuples'][-1] / rates['openspiel'][-1]:.2f}"
        )
        print("  ".join(line), flush=True)
    print(f"load at the end {os.getloadavg()}")
    print(
        "median player actions/s: "
        + ", ".join(f"{name} {statistics.median(values):,.0f}" for name, values in rates.items())
    )
    for ours in ("api", "tuples"):
        ratios = [a / b for a, b in zip(rates[ours], rates["openspiel"], strict=True)]
        print(
            f"RATIO {ours}/openspiel: median {statistics.median(ratios):.2f} "
            f"(rounds {min(ratios):.2f}–{max(ratios):.2f})"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
