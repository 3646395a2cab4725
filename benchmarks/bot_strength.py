"""How strong the shedding Switch bots are: seeded one-deal games, win rates with 95 % intervals.

Run ``python -m benchmarks.bot_strength`` (``--quick``: a smoke run; ``--only`` one matchup;
``--processes 2`` plays games side by side — on a shared machine run it under ``nice``). Every
matchup plays each seed once per seat, the tested bot in that seat and copies of the opponent in
the others, so who plays first favours nobody. A game is one deal of the ``switch`` preset; its
winner is the player who goes out (or the best hand of a blocked deal). Random play with voluntary
draws can go on for very long, so a game is cut at ``MAX_ACTIONS`` and counted as a draw — not a
win — and the number cut is printed. An equal bot wins 50 % heads-up and 25 % at four.

The Monte Carlo bot searches a fixed number of play-outs a move (the registered bot's by default,
``--montecarlo-iterations`` to change it) with no time cap, so a run is reproducible whatever the
machine's load; the CPU seconds it spent per searched move are printed beside its results.
``--true-hands`` lets it search the other seats' true hands (the stock still shuffled): no bot
sees them, so that measures what the hidden cards cost this search.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from functools import partial
from typing import Any, TypeVar

from benchmarks.bot_strength_abbott import wilson_interval
from switchgame.bots import STRATEGIES, MatchFacts, Strategy
from switchgame.bots.shedding_montecarlo import (
    DEFAULT_ITERATIONS,
    MARGIN,
    PLAYOUT_ACTIONS,
    DealsFor,
    Determiniser,
    make_montecarlo_bot,
)
from switchgame.shedding import SheddingGame, create_game
from switchgame.shedding.rulesets import Rules
from switchgame.shuffle import DealRng

RULESET = "switch"
MAX_ACTIONS = 2000
MATCHUPS = {  # name: (tested, opponent, players)
    "heuristic-random-2": ("heuristic", "random", 2),
    "montecarlo-heuristic-2": ("montecarlo", "heuristic", 2),
    "heuristic-random-4": ("heuristic", "random", 4),
    "montecarlo-heuristic-4": ("montecarlo", "heuristic", 4),
}


class TrueHands:
    """The deal as it stands, the stock shuffled: the search's deals were it to see the other hands.
    No bot does; searching these bounds what reading the hidden cards better could gain."""

    def __init__(self, game: SheddingGame) -> None:
        self.game = game

    def deal(self, rng: random.Random) -> SheddingGame:
        game = self.game.copy()
        rng.shuffle(game.stock)
        game.rng = DealRng(rng.randbytes(8))
        return game


@dataclass(frozen=True)
class MontecarloSettings:
    iterations: int = DEFAULT_ITERATIONS
    playout_actions: int = PLAYOUT_ACTIONS
    margin: float = MARGIN
    true_hands: bool = False  # search the true hands (TrueHands), not the view's deals

    def bot(self, game: SheddingGame | None = None) -> Strategy:
        """The search bot; with ``true_hands``, the one that sees ``game``'s hands."""
        deals_for: DealsFor = Determiniser
        if self.true_hands:
            assert game is not None, "searching the true hands needs the game"
            deals_for = partial(_true_hands, game)
        return make_montecarlo_bot(
            iterations=self.iterations,
            time_cap=None,
            playout_actions=self.playout_actions,
            margin=self.margin,
            deals_for=deals_for,
        )


def _true_hands(game: SheddingGame, view: Mapping[str, Any], rules: Rules) -> TrueHands:
    return TrueHands(game)


@dataclass
class Tally:
    """What the tested seat achieved over a matchup's games."""

    games: int = 0
    won: int = 0
    capped: int = 0
    moves: int = 0  # searched moves of the tested seat (more than one legal move)
    cpu: float = 0.0  # CPU seconds the tested seat spent on them

    def add(self, other: Tally) -> None:
        self.games += other.games
        self.won += other.won
        self.capped += other.capped
        self.moves += other.moves
        self.cpu += other.cpu


def play_game(
    bots_for: Callable[[SheddingGame], Sequence[Strategy]], players: int, seed: int, tested: int
) -> Tally:
    """One deal with ``bots_for(game)[seat]`` choosing for each seat, counted for the ``tested``
    seat."""
    rng = random.Random(seed)
    game = create_game(RULESET, players)
    game.deal(rng.randbytes(16))
    bots = bots_for(game)
    tables = [MatchFacts(RULESET, players, seat) for seat in range(players)]
    tally = Tally(games=1)
    for _ in range(MAX_ACTIONS):
        if game.is_over:
            tally.won = int(game.history[-1]["winner"] == tested)
            return tally
        seat = game.current
        view = game.view(seat)
        if seat == tested and len(view["legal_moves"]) > 1:
            start = time.process_time()
            move = bots[seat](view, tables[seat], rng)
            tally.cpu += time.process_time() - start
            tally.moves += 1
        else:
            move = bots[seat](view, tables[seat], rng)
        game.apply(move)
    tally.capped = 1
    return tally


def _play_seat(matchup: str, montecarlo: MontecarloSettings, game: tuple[int, int]) -> Tally:
    """The game of ``matchup`` for ``(seed, seat)``, the tested bot in ``seat``."""
    tested, opponent, players = MATCHUPS[matchup]
    seed, seat = game

    def bots_for(deal: SheddingGame) -> list[Strategy]:
        bots = [STRATEGIES["shedding"][opponent]] * players
        bots[seat] = (
            montecarlo.bot(deal) if tested == "montecarlo" else STRATEGIES["shedding"][tested]
        )
        return bots

    return play_game(bots_for, players, seed, seat)


def matchup(
    name: str,
    seeds: range,
    montecarlo: MontecarloSettings,
    processes: int = 1,
    progress: int = 0,
) -> Tally:
    """Every seed played once per seat, the tested bot in that seat; with ``progress``, the tally
    so far is printed every that many games."""
    players = MATCHUPS[name][2]
    games = [(seed, seat) for seed in seeds for seat in range(players)]
    play = partial(_play_seat, name, montecarlo)
    tally = Tally()
    start = time.perf_counter()
    for result in mapped(play, games, processes):
        tally.add(result)
        if progress and tally.games % progress == 0 and tally.games < len(games):
            report(f"  so far, {name}", players, tally, time.perf_counter() - start)
    return tally


T = TypeVar("T")
R = TypeVar("R")


def mapped(function: Callable[[T], R], items: Sequence[T], processes: int) -> Iterator[R]:
    """``map(function, items)``, over ``processes`` processes when more than one: the results in
    order, each as soon as it and those before it are done."""
    if processes <= 1:
        yield from map(function, items)
        return
    with ProcessPoolExecutor(processes) as pool:
        yield from pool.map(function, items, chunksize=1)


def report(name: str, players: int, tally: Tally, seconds: float) -> None:
    low, high = wilson_interval(tally.won, tally.games)
    searched = (
        f"; {tally.cpu / tally.moves:.2f} CPU s per searched move ({tally.moves} moves)"
        if tally.moves
        else ""
    )
    print(
        f"{name}: won {tally.won}/{tally.games} = {tally.won / tally.games:.1%} "
        f"(95% CI {low:.1%}–{high:.1%}; an equal bot wins {1 / players:.0%}); "
        f"{tally.capped} cut at {MAX_ACTIONS} actions; {seconds:.0f} s{searched}",
        flush=True,
    )


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run of a few games")
    parser.add_argument("--only", choices=MATCHUPS, action="append", help="run these matchups")
    parser.add_argument(
        "--seeds", type=int, help="seeds for the matchups without the Monte Carlo bot"
    )
    parser.add_argument("--montecarlo-seeds", type=int, help="seeds for the Monte Carlo matchups")
    parser.add_argument("--first-seed", type=int, default=0, help="the first seed of every matchup")
    parser.add_argument("--montecarlo-iterations", type=int, default=DEFAULT_ITERATIONS)
    parser.add_argument("--playout-actions", type=int, default=PLAYOUT_ACTIONS)
    parser.add_argument("--margin", type=float, default=MARGIN)
    parser.add_argument("--processes", type=int, default=1, help="games played side by side")
    parser.add_argument("--progress", type=int, default=0, help="print the tally every N games")
    parser.add_argument(
        "--true-hands",
        action="store_true",
        help="the Monte Carlo bot searches the true hands (an upper bound: no bot sees them)",
    )
    args = parser.parse_args(argv)
    seeds = args.seeds or (50 if args.quick else 500)
    montecarlo_seeds = args.montecarlo_seeds or (2 if args.quick else 100)
    montecarlo = MontecarloSettings(
        args.montecarlo_iterations, args.playout_actions, args.margin, args.true_hands
    )
    print(f"montecarlo: {montecarlo}", flush=True)
    for name in args.only or MATCHUPS:
        tested, opponent, players = MATCHUPS[name]
        count = montecarlo_seeds if tested == "montecarlo" else seeds
        # Four-player matchups play each seed four times: half the seeds keep the games even.
        count = count if players == 2 else count // 2
        start = time.perf_counter()
        seeds_run = range(args.first_seed, args.first_seed + count)
        tally = matchup(name, seeds_run, montecarlo, args.processes, args.progress)
        report(
            f"{RULESET} {tested} vs {opponent}, {players} players",
            players,
            tally,
            time.perf_counter() - start,
        )


if __name__ == "__main__":
    main()
