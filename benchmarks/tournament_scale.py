"""A big club night through the tournament service: 256 entrants (guests, offline, French scoring,
tables of four, one deal a round) over 8 rounds, timing the three things a director waits for —
seating and publishing a round, recording a table's result, and the standings recomputed.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/switch_bench python -m benchmarks.tournament_scale

It migrates that database (PostgreSQL for figures that mean something) and adds one tournament.
Tallies are drawn from a seeded generator, so runs are comparable. With ``--pure`` it times only
the pure draw (``switchgame.tournament.seating.draw_round``) of each round of such a night, each
round re-planning the rounds left after the rounds drawn before it, without Django or a database.
An online round of a bot field played by a real worker: :mod:`benchmarks.tournament_online`.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
import uuid
from collections.abc import Callable
from typing import Any

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "switchsite.settings")
os.environ.setdefault("SECRET_KEY", "benchmark-only")


CPU: list[float] = []  # this process's CPU seconds of each timed action, in order


def timed(action: Callable[[], Any]) -> float:
    """Wall-clock seconds of ``action`` (its CPU seconds go to :data:`CPU`: on a shared machine
    the wall clock also counts the time other processes had the cores)."""
    started, cpu = time.perf_counter(), time.process_time()
    action()
    CPU.append(time.process_time() - cpu)
    return time.perf_counter() - started


def summary(label: str, seconds: list[float], cpu: list[float]) -> str:
    ordered = sorted(seconds)
    p99 = ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]
    return (
        f"{label:<28} n={len(ordered):<4} median {statistics.median(ordered) * 1000:7.1f} ms"
        f"  p99 {p99 * 1000:7.1f} ms  max {ordered[-1] * 1000:7.1f} ms"
        f"  (CPU median {statistics.median(cpu) * 1000:7.1f} ms)"
    )


def pure_seating(args: argparse.Namespace) -> None:
    """The pure draw of each round (tables of four within `french`'s 2–7 players), the history
    growing round by round as the service's would."""
    from switchgame import catalog
    from switchgame.tournament.meetings import RoundSeating, SeatingHistory, repeat_report
    from switchgame.tournament.seating import Draw, TableBounds, draw_round

    bounds = TableBounds(*catalog.find_ruleset("french").players, preferred=4)
    played: list[RoundSeating[int]] = []
    drawn: list[Draw[int]] = []
    wall = []
    for number in range(1, args.rounds + 1):
        history = SeatingHistory.from_rounds(played)
        wall.append(
            timed(
                lambda: drawn.append(
                    draw_round(
                        list(range(args.entrants)),
                        mode=args.seating,
                        bounds=bounds,
                        history=history,  # noqa: B023
                        seed=args.seed + number,  # noqa: B023
                        rounds_left=args.rounds - number + 1,  # noqa: B023
                    )
                )
            )
        )
        report = drawn[-1].report
        print(
            f"round {number}: drawn in {CPU[-1] * 1000:.0f} ms of CPU, planning"
            f" {args.rounds - number + 1}: {report.repeats} repeats (unavoidable:"
            f" {report.lower_bound})"
        )
        played.append(drawn[-1].rounds[0])
    print(summary("pure draw of a round", wall, CPU))
    print(f"repeats over the night: {repeat_report(played, SeatingHistory()).repeats}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entrants", type=int, default=256)
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--seating", default="balanced", choices=["random", "balanced", "swiss"])
    parser.add_argument("--seed", type=int, default=24)
    parser.add_argument("--pure", action="store_true", help="time the pure draw alone")
    args = parser.parse_args(argv)
    if args.pure:
        pure_seating(args)
        return

    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connection

    from tournaments import selectors, services
    from tournaments.models import Table
    from tournaments.powers import directors

    call_command("migrate", verbosity=0)
    rng = random.Random(args.seed)
    desk = get_user_model().objects.create_user(f"bench-{uuid.uuid4().hex[:8]}", is_staff=True)
    desk.groups.add(directors())  # a tournament director
    tournament = services.tournament_create(
        creator=desk,
        name=f"Scale {args.entrants}",
        ruleset="french",
        scoring="french",
        planned_rounds=args.rounds,
        table_size=4,
        deals_per_round=1,
        seating_mode=args.seating,
        play="offline",
    )
    services.entries_register(
        tournament_id=tournament.pk,
        user=desk,
        entrants=[services.Entrant(guest=f"Guest {n:03}") for n in range(args.entrants)],
    )
    print(
        f"{connection.vendor}: {args.entrants} entrants, {args.rounds} rounds,"
        f" {args.seating} seating, tables of 4, French scoring"
    )
    seatings, results, standings = [], [], []
    cpu: dict[str, list[float]] = {"seat": [], "result": [], "standings": []}
    for number in range(1, args.rounds + 1):
        seat = services.tournament_start if number == 1 else services.round_next
        seatings.append(timed(lambda: seat(tournament_id=tournament.pk, user=desk)))  # noqa: B023
        cpu["seat"].append(CPU[-1])
        tables = Table.objects.filter(round__tournament=tournament, round__number=number)
        for table in tables.order_by("number").prefetch_related("seats__entry"):
            names = [seat.entry.name for seat in table.seats.order_by("seat")]
            winner = rng.choice(names)
            tallies = {name: rng.randint(3, 60) for name in names if name != winner}
            deal = {"winner": winner, "points_left": tallies}
            results.append(
                timed(
                    lambda: services.table_result_enter(
                        tournament_id=tournament.pk,
                        round_number=number,  # noqa: B023
                        table_number=table.number,  # noqa: B023
                        user=desk,
                        result={"deals": [deal]},  # noqa: B023
                    )
                )
            )
            cpu["result"].append(CPU[-1])
        standings.append(timed(lambda: selectors.standings_table(tournament=tournament)))
        cpu["standings"].append(CPU[-1])
        print(
            f"round {number}: seated in {seatings[-1] * 1000:.0f} ms,"
            f" standings in {standings[-1] * 1000:.0f} ms"
        )
    recompute = timed(lambda: services.standings_recompute(tournament_id=tournament.pk))
    print(summary("seat and publish a round", seatings, cpu["seat"]))
    print(summary("record a table's result", results, cpu["result"]))
    print(summary("standings (read, computed)", standings, cpu["standings"]))
    print(f"{'full recompute (ratings)':<28} {recompute * 1000:.0f} ms")


if __name__ == "__main__":
    main()
