"""A rating correction over a long history while the players it touches go on moving.

    python -m benchmarks.ratings_correction [--games 100000] [--clients 16] [--seconds 15]
                                            [--pause 0] [--worker-nice 0]

It starts its own PostgreSQL and Redis (:mod:`benchmarks.shape`), makes ``2 × --clients`` players,
and stores ``--games`` rated results of four-player shedding tables (each with two of those
players and two of 500 others, one a minute), rated once by the service's own replay run in this
process. Then it starts ``make serve`` and one Celery worker, and the clients play heads-up
matches as :mod:`benchmarks.move_load` does (view, then move, then ``--pause`` seconds of thought:
0 keeps the server saturated, so that latency measures the queue the clients make themselves): a
baseline of ``--seconds``, then the very first result is corrected — the worst case: every later
result is replayed, in the worker, in batches (``games.services.ratings.REPLAY_BATCH``) — and the
moves go on until the replay is done, and then for ``--seconds`` more (the same load without the
correction: whether other jobs on the machine changed meanwhile). It prints how long the
correction took; for each of the three rounds, the move answers' p50/p99, the machine's load, and
the cores that the web tier, the worker, PostgreSQL, this client and other jobs kept busy (where
the time goes). ``--worker-nice`` gives the worker's session a lower CPU weight than the web tier's
(Linux's autogroup nice: with autogroup scheduling, the nice of a process counts only within its
session) — what a worker of its own for the replay, run at a lower weight, would get.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import time
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

from benchmarks import shape
from benchmarks.move_load import Pair, Round, make_players, move_client, new_match

OTHERS = 500


def store_history(games: int, clients: int) -> float:
    """``games`` rated results, each with two of the clients' players; rated by the replay (as a
    correction of the first would be). Returns the seconds the replay took in this process."""
    from django.contrib.auth import get_user_model
    from django.db import connections
    from django.utils import timezone

    from games import services
    from games.models import RatedResult
    from switchgame import ratings

    load_users = get_user_model().objects.filter(username__startswith="load")
    players = [ratings.user_holder(pk) for pk in load_users.values_list("pk", flat=True)]
    others = [f"entry:{n}" for n in range(OTHERS)]
    choose = random.Random(2026)
    start = timezone.now() - timedelta(minutes=games + 1)
    RatedResult.objects.bulk_create(
        (
            RatedResult(
                game="shedding",
                source=f"bench:{n}",
                teams=[[h] for h in choose.sample(players, 2) + choose.sample(others, 2)],
                ranks=choose.sample([1, 2, 3, 4], 4),
                played_at=start + timedelta(minutes=n),
            )
            for n in range(games)
        ),
        batch_size=5000,
    )
    started = time.monotonic()
    while services.ratings_replay_step(game="shedding"):
        pass
    elapsed = time.monotonic() - started
    connections.close_all()
    return elapsed


def correct_first_result() -> None:
    """The desk's kind of correction, on the oldest result: its ranks reversed."""
    from django.db import connections, transaction

    from games import services
    from games.models import RatedResult

    first = RatedResult.objects.get(source="bench:0")
    with transaction.atomic():
        services.rated_results_write(
            game="shedding",
            results=[("bench:0:corrected", first.teams, [5 - rank for rank in first.ranks])],
            played_at=first.played_at,
            replacing="bench:0",
        )
    connections.close_all()


def correction_done() -> bool:
    from django.db import connections

    from games.models import RatedResult, RatingReplay

    done = not (
        RatedResult.objects.filter(applied=False).exists()
        or RatingReplay.objects.filter(from_at__isnull=False).exists()
    )
    connections.close_all()
    return done


CPUMeter = Callable[[], dict[str, float]]


def cpu_meter(
    server: shape.Process, worker: shape.Process, postgres: shape.PrivatePostgres
) -> CPUMeter:
    """CPU seconds spent so far by the web tier, the worker, PostgreSQL, this client, and the
    whole machine (``others`` in the report: what the rest spent)."""
    return lambda: {
        "web": shape.cpu_seconds(shape.process_group(server.pid)),
        "worker": shape.cpu_seconds(shape.process_group(worker.pid)),
        "database": shape.cpu_seconds(postgres.pids()),
        "client": time.process_time(),
        "machine": shape.machine_busy_seconds(),
    }


async def metered(result: Round, meter: CPUMeter, work: Any) -> tuple[float, str]:
    """Await ``work``, keeping in ``result`` the CPU seconds each part spent meanwhile; returns the
    seconds it took and the machine's load at its start and end."""
    before, started, load = meter(), time.monotonic(), shape.load_average()
    await work
    seconds, after = time.monotonic() - started, meter()
    result.cpu_seconds = {part: after[part] - before[part] for part in before}
    return seconds, f"{load} → {shape.load_average()}"


async def run(
    args: argparse.Namespace, url: str, pairs: list[Pair], meter: CPUMeter
) -> dict[str, Any]:
    import aiohttp

    async with aiohttp.ClientSession(
        url, connector=aiohttp.TCPConnector(limit=args.clients)
    ) as session:
        await shape.wait_until_healthy(session)
        await asyncio.gather(*(new_match(session, pair) for pair in pairs))

        async def moves_for(result: Round) -> tuple[float, str]:
            until = time.monotonic() + args.seconds
            moves = (move_client(session, p, result, until, args.pause) for p in pairs)
            return await metered(result, meter, asyncio.gather(*moves))

        baseline = Round("baseline")
        phases = [await moves_for(baseline)]

        during = Round("during the correction")
        stop = asyncio.Event()
        started = time.monotonic()
        await asyncio.to_thread(correct_first_result)

        async def watch() -> float:
            while not await asyncio.to_thread(correction_done):
                await asyncio.sleep(0.2)
            finished = time.monotonic() - started
            stop.set()
            return finished

        async def moves_until_done(pair: Pair) -> None:
            while not stop.is_set():
                await move_client(session, pair, during, time.monotonic() + 1, args.pause)

        watched = asyncio.create_task(watch())
        moving = asyncio.gather(*(moves_until_done(p) for p in pairs))
        phases.append(await metered(during, meter, moving))
        after = Round("after it")
        phases.append(await moves_for(after))
        return {
            "correction_seconds": await watched,
            "rounds": [baseline, during, after],
            "phases": phases,
        }


def main() -> None:
    parser = shape.arguments(__doc__, clients=16, seconds=15.0, workers=shape.DEFAULT_WEB_PROCESSES)
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument(
        "--pause",
        type=float,
        default=0.0,
        help="seconds a client thinks after each move (0: as fast as answers come)",
    )
    parser.add_argument(
        "--worker-nice",
        type=int,
        default=0,
        help="nice of the worker's session (/proc/<pid>/autogroup): its CPU weight against the web's",
    )
    args = parser.parse_args()

    with shape.PrivateServices("switch-ratings-", shape.UNTHROTTLED) as services:
        pairs = [Pair(tokens) for tokens in make_players(services.env, args.clients)]
        stored_in = store_history(args.games, args.clients)
        print(f"{args.games} rated results stored and rated in {stored_in:.1f} s (in-process)")
        server, url = shape.web(services.env, services.logs, args.workers)
        worker = shape.worker(services.env, services.logs, "ratings", concurrency=1)
        if args.worker_nice:
            Path(f"/proc/{worker.pid}/autogroup").write_text(str(args.worker_nice))
        try:
            outcome = asyncio.run(
                run(args, url, pairs, cpu_meter(server, worker, services.postgres))
            )
        finally:
            worker.stop()
            server.stop()
    report(args, outcome)


def report(args: argparse.Namespace, outcome: dict[str, Any]) -> None:
    print(
        f"correction of the first of {args.games} results replayed by the worker in "
        f"{outcome['correction_seconds']:.1f} s; load {shape.load_average()}"
    )
    for result, (seconds, load) in zip(outcome["rounds"], outcome["phases"], strict=True):
        times = [1000 * s for s in result.move_seconds]
        spent = dict(result.cpu_seconds)
        spent["others"] = spent.pop("machine") - sum(spent.values())
        cores = ", ".join(f"{part} {cpu / seconds:.2f}" for part, cpu in spent.items())
        print(
            f"{result.kind}: {result.moves} moves, {result.errors} errors, "
            f"p50 {shape.percentile(times, 0.50):.1f} ms, p99 {shape.percentile(times, 0.99):.1f} ms; "
            f"cores busy: {cores}; load {load}"
        )


if __name__ == "__main__":
    main()
