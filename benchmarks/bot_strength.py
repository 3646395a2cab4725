"""How strong the shedding Switch bots are: seeded one-deal games, win rates with 95 % intervals.

Run ``python -m benchmarks.bot_strength`` (about ten minutes on one core; ``--quick``: under one).
Every matchup plays each seed once per seat, the tested bot in that seat and copies of the opponent
in the others, so who plays first favours nobody. A game is one deal of the ``switch`` preset; its
winner is the player who goes out (or the best hand of a blocked deal). Random play with voluntary
draws can go on for very long, so a game is cut at ``MAX_ACTIONS`` and counted as a draw — not a
win — and the number cut is printed. An equal bot wins 50 % heads-up and 25 % at four.

The ISMCTS bot runs at a time budget (0.2 s a move by default), so its games are slow and its
sample small — by default 90 heads-up games and 88 at four, against 1,000 of each for the
heuristic; each line says how many games it played.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass

from benchmarks.bot_strength_abbott import wilson_interval
from games.bots import STRATEGIES, Strategy, Table
from games.bots.shedding_ismcts import make_ismcts_bot
from games.engine.rulesets import create_game

RULESET = "switch"
MAX_ACTIONS = 2000


@dataclass
class Tally:
    """What the tested seat achieved over a matchup's games."""

    games: int = 0
    won: int = 0
    capped: int = 0


def play_game(bots: Sequence[Strategy], seed: int) -> int | None:
    """One deal with ``bots[seat]`` choosing for each seat: the winner, or None when cut short."""
    players = len(bots)
    rng = random.Random(seed)
    game = create_game(RULESET, players)
    game.deal(rng.randbytes(16))
    tables = [Table(RULESET, players, seat) for seat in range(players)]
    for _ in range(MAX_ACTIONS):
        if game.is_over:
            return int(game.history[-1]["winner"])
        seat = game.to_move
        assert seat is not None  # a deal in play has a seat to move
        game.apply(bots[seat](game.view(seat), tables[seat], rng))
    return None


def matchup(tested: Strategy, opponent: Strategy, players: int, seeds: range) -> Tally:
    """Every seed played once per seat, the tested bot in that seat."""
    tally = Tally()
    for seed in seeds:
        for seat in range(players):
            bots = [opponent] * players
            bots[seat] = tested
            winner = play_game(bots, seed)
            tally.games += 1
            tally.won += winner == seat
            tally.capped += winner is None
    return tally


def report(name: str, players: int, tally: Tally, seconds: float) -> None:
    low, high = wilson_interval(tally.won, tally.games)
    print(
        f"{name}: won {tally.won}/{tally.games} = {tally.won / tally.games:.1%} "
        f"(95% CI {low:.1%}–{high:.1%}; an equal bot wins {1 / players:.0%}); "
        f"{tally.capped} cut at {MAX_ACTIONS} actions; {seconds:.0f} s",
        flush=True,
    )


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run of a few games")
    parser.add_argument("--seeds", type=int, help="seeds for the matchups without ISMCTS")
    parser.add_argument("--ismcts-seeds", type=int, help="seeds for the ISMCTS matchups")
    parser.add_argument("--ismcts-time", type=float, default=0.2, help="seconds per move")
    args = parser.parse_args(argv)
    seeds = args.seeds or (50 if args.quick else 500)
    ismcts_seeds = args.ismcts_seeds or (2 if args.quick else 45)
    bots = STRATEGIES["shedding"]
    ismcts = make_ismcts_bot(time_budget=args.ismcts_time)
    ismcts_name = f"ismcts ({args.ismcts_time} s/move)"
    matchups = [
        ("heuristic vs random, heads-up", bots["heuristic"], bots["random"], 2, seeds),
        (f"{ismcts_name} vs heuristic, heads-up", ismcts, bots["heuristic"], 2, ismcts_seeds),
        ("heuristic vs random ×3", bots["heuristic"], bots["random"], 4, seeds // 2),
        (f"{ismcts_name} vs heuristic ×3", ismcts, bots["heuristic"], 4, ismcts_seeds // 2),
    ]
    for name, tested, opponent, players, count in matchups:
        start = time.perf_counter()
        tally = matchup(tested, opponent, players, range(count))
        report(f"{RULESET} {name}", players, tally, time.perf_counter() - start)


if __name__ == "__main__":
    main()
