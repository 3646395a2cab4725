"""How strong the Abbott's Switch bots are: seeded four-player games, win rates with 95 % intervals.

Run ``python -m benchmarks.bot_strength_abbott`` (``--quick`` for a smoke run). Each matchup puts
one bot against three copies of another; every seeded deal sequence is played four times, with the
tested bot in each seat in turn, so the seat order (who moves first in each hand) favours nobody.
A game is played to the preset's 20 points; the share of games won is compared with the 25 % a bot
no better than its opponents would win, and the share of hands won and the mean points per hand are
printed beside it. The search bot plays with the registered strategy's budget (an iteration count,
with a time cap that an idle machine never reaches), so a run is reproducible and does not depend on
the machine's load; ``--search-iterations`` changes the count, ``--search-time`` measures it at a
time budget instead.
"""

from __future__ import annotations

import argparse
import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from switchgame.abbott.rulesets import create_game
from switchgame.bots import STRATEGIES, MatchFacts, Strategy
from switchgame.bots.abbott_search import DEFAULT_ITERATIONS, make_search_bot

RULESET, PLAYERS = "abbott", 4
MATCHUPS = ("heuristic-random", "search-random", "search-heuristic")
MAX_ACTIONS_PER_HAND = 500  # bots never stall a hand this long; a guard, not a rule


def wilson_interval(successes: int, trials: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval for a proportion: sound near 0 and 1 and for small samples."""
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return centre - half, centre + half


@dataclass
class Tally:
    """What the tested seat achieved over a matchup's games."""

    games: int = 0
    games_won: int = 0
    hands: int = 0
    hands_won: int = 0
    points: int = 0


def play_game(bots: Sequence[Strategy], seed: int, tally: Tally, tested: int) -> None:
    """Play one game to its target with ``bots[seat]`` choosing for each seat; count ``tested``."""
    rng = random.Random(seed)
    game = create_game(RULESET, PLAYERS)
    tables = [MatchFacts(RULESET, PLAYERS, seat) for seat in range(PLAYERS)]
    while not game.is_over:
        game.deal(rng.randbytes(16))
        for _ in range(MAX_ACTIONS_PER_HAND):
            if game.needs_deal or game.is_over:
                break
            seat = game.to_move
            assert seat is not None  # a hand in play has a seat to move
            game.apply(bots[seat](game.view(seat), tables[seat], rng))
        else:
            raise RuntimeError(f"a hand of game {seed} did not end")
        record = game.history[-1]
        tally.hands += 1
        tally.hands_won += record["winner"] == tested
        tally.points += record["scores"][tested]
    tally.games += 1
    tally.games_won += game.winner == tested


def matchup(
    tested: Strategy, opponent: Strategy, seeds: range, progress: Callable[[Tally], None]
) -> Tally:
    """Every seed played four times, the tested bot in each seat against three opponents;
    ``progress`` is told the tally after each seed."""
    tally = Tally()
    for seed in seeds:
        for seat in range(PLAYERS):
            bots = [opponent] * PLAYERS
            bots[seat] = tested
            play_game(bots, seed, tally, seat)
        progress(tally)
    return tally


def report(name: str, tally: Tally, seconds: float) -> None:
    low, high = wilson_interval(tally.games_won, tally.games)
    hand_low, hand_high = wilson_interval(tally.hands_won, tally.hands)
    print(
        f"{name}: won {tally.games_won}/{tally.games} games = {tally.games_won / tally.games:.1%} "
        f"(95% CI {low:.1%}–{high:.1%}; an equal bot wins 25%); "
        f"hands won {tally.hands_won}/{tally.hands} = {tally.hands_won / tally.hands:.1%} "
        f"({hand_low:.1%}–{hand_high:.1%}); {tally.points / tally.hands:.2f} points per hand; "
        f"{seconds:.0f} s"
    )


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run of a few games")
    parser.add_argument("--seeds", type=int, help="seeds per matchup (each played in 4 seats)")
    parser.add_argument("--search-seeds", type=int, help="seeds for the matchups with search")
    parser.add_argument("--search-iterations", type=int, default=DEFAULT_ITERATIONS)
    parser.add_argument("--search-time", type=float, help="seconds per move instead of iterations")
    parser.add_argument(
        "--progress", action="store_true", help="print the running figures after every seed"
    )
    parser.add_argument(
        "--only", choices=MATCHUPS, action="append", help="play only this matchup (repeatable)"
    )
    args = parser.parse_args(argv)
    seeds = args.seeds or (3 if args.quick else 100)
    search_seeds = args.search_seeds or (1 if args.quick else 50)
    if args.search_time is not None:
        search = make_search_bot(iterations=None, time_cap=args.search_time)
        search_name = f"search ({args.search_time} s/move)"
    else:
        search = make_search_bot(iterations=args.search_iterations)
        search_name = f"search ({args.search_iterations} iterations/move)"
    bots = STRATEGIES["abbott"]
    matchups = {
        "heuristic-random": ("heuristic", bots["heuristic"], bots["random"], range(seeds)),
        "search-random": (search_name, search, bots["random"], range(search_seeds)),
        "search-heuristic": (search_name, search, bots["heuristic"], range(search_seeds)),
    }
    for key, (tested_name, tested, opponent, seed_range) in matchups.items():
        if args.only and key not in args.only:
            continue
        name = f"{tested_name} vs {key.split('-')[1]} ×3"
        start = time.perf_counter()

        def progress(tally: Tally, name: str = name, start: float = start) -> None:
            if args.progress:
                report(f"(so far) {name}", tally, time.perf_counter() - start)

        tally = matchup(tested, opponent, seed_range, progress)
        report(name, tally, time.perf_counter() - start)


if __name__ == "__main__":
    main()
