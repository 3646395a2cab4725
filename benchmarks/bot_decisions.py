"""How good the shedding search bot's single moves are, measured with far less noise than games.

Run ``python -m benchmarks.bot_decisions`` (``--seeds``, ``--continuations``, ``--processes``;
bot settings as in :mod:`benchmarks.bot_strength`). Four-player ``switch`` games between
heuristics give the positions (about a third of the moves with a choice, every seat's); each legal
move there is valued by continuations with the heuristic in every seat, from the *true* hands
with the stock shuffled, the same shuffles and random numbers for every move. A bot, seeing only
its view, is scored by the mean gain in win chance of its move over the heuristic's move: a game
adds up the luck of many moves, a decision score only the move's own worth (though one move deep,
against heuristic play after it).
"""

from __future__ import annotations

import argparse
import math
import random
import time
from collections.abc import Sequence
from functools import partial
from typing import Any

from benchmarks.bot_strength import RULESET, MontecarloSettings, mapped
from switchgame.bots import STRATEGIES, MatchFacts
from switchgame.shedding import ActionTuple, SheddingGame, create_game, parse_action

PLAYERS = 4
SHARE = 0.35  # of the positions with a choice that are valued
MAX_ACTIONS = 2000
HEURISTIC = STRATEGIES["shedding"]["heuristic"]
TABLES = [MatchFacts(RULESET, PLAYERS, seat) for seat in range(PLAYERS)]

Position = tuple[dict[str, Any], dict[ActionTuple, float]]  # a view, and each move's win chance


def _winner(game: SheddingGame, rng: random.Random) -> int | None:
    """The winner when every seat plays the heuristic from here (None: cut)."""
    for _ in range(MAX_ACTIONS):
        if game.is_over:
            return int(game.history[-1]["winner"])
        seat = game.current
        game.apply(HEURISTIC(game.view(seat), TABLES[seat], rng))
    return None


def positions(continuations: int, seed: int) -> list[Position]:
    """The valued positions of one heuristic game."""
    rng = random.Random(seed)
    game = create_game(RULESET, PLAYERS)
    game.deal(rng.randbytes(16))
    sample = random.Random(seed * 7 + 1)
    found: list[Position] = []
    while not game.is_over:
        seat = game.current
        view = game.view(seat)
        move = HEURISTIC(view, TABLES[seat], rng)
        if len(view["legal_moves"]) > 1 and sample.random() < SHARE:
            values = {}
            for candidate in view["legal_moves"]:
                won = 0
                for index in range(continuations):
                    playout_rng = random.Random(seed * 100_003 + index)
                    after = game.copy()
                    playout_rng.shuffle(after.stock)
                    after.apply(candidate)
                    won += _winner(after, playout_rng) == seat
                values[parse_action(candidate)] = won / continuations
            found.append((view, values))
        game.apply(move)
    return found


def gain(montecarlo: MontecarloSettings, item: tuple[int, Position]) -> tuple[float, bool, float]:
    """The bot's gain over the heuristic at one position, whether it moved otherwise, its CPU s."""
    index, (view, values) = item
    table = TABLES[view["you"]["seat"]]
    default = parse_action(HEURISTIC(view, table, random.Random(index)))
    start = time.process_time()
    chosen = parse_action(montecarlo.bot()(view, table, random.Random(index)))
    return values[chosen] - values[default], chosen != default, time.process_time() - start


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=40, help="heuristic games for positions")
    parser.add_argument("--first-seed", type=int, default=5000)
    parser.add_argument("--continuations", type=int, default=40, help="per move and position")
    parser.add_argument("--montecarlo-iterations", type=int, default=MontecarloSettings.iterations)
    parser.add_argument("--playout-actions", type=int, default=MontecarloSettings.playout_actions)
    parser.add_argument("--margin", type=float, default=MontecarloSettings.margin)
    parser.add_argument("--processes", type=int, default=1, help="side by side")
    args = parser.parse_args(argv)
    montecarlo = MontecarloSettings(args.montecarlo_iterations, args.playout_actions, args.margin)
    seeds = range(args.first_seed, args.first_seed + args.seeds)
    found = mapped(partial(positions, args.continuations), seeds, args.processes)
    valued: list[Position] = [position for game in found for position in game]
    results = list(mapped(partial(gain, montecarlo), list(enumerate(valued)), args.processes))
    report(montecarlo, valued, results)


def report(
    montecarlo: MontecarloSettings,
    valued: Sequence[Position],
    results: Sequence[tuple[float, bool, float]],
) -> None:
    count = len(results)
    gains = [result[0] for result in results]
    mean = sum(gains) / count
    error = math.sqrt(sum((g - mean) ** 2 for g in gains) / (count - 1) / count)
    changed = sum(result[1] for result in results)
    cpu = sum(result[2] for result in results) / count
    moves = sum(len(values) for _, values in valued) / count
    print(
        f"{montecarlo}: {count} positions ({moves:.1f} moves each); gain over the heuristic "
        f"{mean:+.2%} a move (standard error {error:.2%}); other move at {changed}; "
        f"{cpu:.2f} CPU s a move",
        flush=True,
    )


if __name__ == "__main__":
    main()
