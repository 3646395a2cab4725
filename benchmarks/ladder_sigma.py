"""How fast a new bot's rating settles on a ladder against the server bots' fixed strengths.

    python -m benchmarks.ladder_sigma [--bots 1000] [--games 50] [--seed 1]

A ladder rates every match with the service's own openskill code (``switchgame.ratings``). Here a
new bot account (μ 25, σ 8.33) plays heads-up games against the shedding gatekeepers in turn,
``heuristic`` then ``montecarlo``, whose strengths are fixed: each game's winner is drawn from
the head-to-head rates measured in docs/performance.md ("Bot strength": montecarlo beats the
heuristic 65.0 % of heads-up games) for three kinds of new bot — one as weak as ``random`` (it
beats the heuristic 1.3 % of the time), one as strong as the heuristic, one that beats the
heuristic 80 % of the time — and the gatekeepers' ratings are held where they stand (μ from
those rates, σ 1: their thousands of games). It prints, per kind, σ and the error of μ after 10,
20, 30 and 50 games (median and worst of ``--bots`` bots), and the games after which every bot's σ
was below :data:`THRESHOLD`.

σ in openskill's Plackett-Luce shrinks with every game whatever its result, so the games a bot
needs depend on how many it plays far more than on how it plays: what the figures check is that
50 games are enough, and how far μ is from the bot's true strength by then.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics

from switchgame.ratings import RatedMatch, Rating, initial_rating, rate_match

# The σ a settled bot's rating is below: under half a new bot's 8.33 (μ − 3σ is then within
# 10.5 points of μ, where a new bot's is 25 points away).
THRESHOLD = 3.5
GATEKEEPER_SIGMA = 1.0
# openskill's β (σ₀ / 2): a μ difference of β·ln(p/(1−p)) makes one win with probability p.
BETA = 25 / 6
CHECKPOINTS = (10, 20, 30, 50)
# A new bot's chance to beat each gatekeeper heads-up, by kind (heuristic, montecarlo).
KINDS = {
    "weak (as random)": (0.013, 0.013 * 0.35 / 0.65),
    "as the heuristic": (0.5, 0.35),
    "strong": (0.8, 0.8 * 0.35 / (0.8 * 0.35 + 0.2 * 0.65)),
}


def logit(p: float) -> float:
    return math.log(p / (1 - p))


def simulate(
    beats: tuple[float, float], games: int, rng: random.Random
) -> list[tuple[float, float]]:
    """(σ, μ) of one new bot after each game against the gatekeepers in turn."""
    gatekeepers = {
        "bot:heuristic": Rating(mu=25.0, sigma=GATEKEEPER_SIGMA),
        "bot:montecarlo": Rating(mu=25.0 + BETA * logit(0.65), sigma=GATEKEEPER_SIGMA),
    }
    names = list(gatekeepers)
    mine = initial_rating()
    trail = []
    for game in range(games):
        opponent = names[game % 2]
        won = rng.random() < beats[game % 2]
        ratings = {"user:1": mine, opponent: gatekeepers[opponent]}
        rated = RatedMatch(teams=[["user:1"], [opponent]], ranks=[1, 2] if won else [2, 1])
        mine = rate_match(rated, ratings)["user:1"]
        trail.append((mine.sigma, mine.mu))
    return trail


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bots", type=int, default=1000)
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    print(
        f"{args.bots} new bots per kind, {args.games} heads-up games each, σ threshold {THRESHOLD}"
    )
    for kind, beats in KINDS.items():
        true_mu = 25.0 + BETA * logit(beats[0])
        trails = [simulate(beats, args.games, rng) for _ in range(args.bots)]
        print(f"  {kind} (true μ {true_mu:.1f}):")
        for games in (g for g in CHECKPOINTS if g <= args.games):
            sigmas = [trail[games - 1][0] for trail in trails]
            errors = [abs(trail[games - 1][1] - true_mu) for trail in trails]
            print(
                f"    after {games:2} games: σ median {statistics.median(sigmas):.2f}, "
                f"worst {max(sigmas):.2f}; |μ − true| median {statistics.median(errors):.2f}, "
                f"90th percentile {sorted(errors)[int(0.9 * len(errors))]:.2f}"
            )
        settled = max(
            next((n + 1 for n, (sigma, _) in enumerate(trail) if sigma < THRESHOLD), math.inf)
            for trail in trails
        )
        within = f"after {settled} games" if settled <= args.games else f"not in {args.games} games"
        print(f"    every bot's σ below {THRESHOLD}: {within}")


if __name__ == "__main__":
    main()
