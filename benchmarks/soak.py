"""A soak of the production shape: steady play for a long time, every process's memory sampled.

    python -m benchmarks.soak [--minutes 30] [--matches 10] [--deals 20] [--streams 20] [--sample 30]

It starts the production shape on ports of its own (:mod:`benchmarks.shape`: a private PostgreSQL
and redis-server, ``make serve`` with two uvicorn processes, a Celery worker, ``celery beat``), and
``--matches`` players each play matches of ``--deals`` deals, one after another (so that matches
end and start all the while), against three heuristic bots as the drill's careful clients do
(:mod:`benchmarks.drill`), while ``--streams`` feed streams of those players
stay open, reconnecting with ``Last-Event-ID`` when it ends. Every ``--sample`` seconds it
records the memory of each process group (web, worker, beat, PostgreSQL, Redis) as PSS —
shared pages divided among the processes sharing them, so that PostgreSQL's shared buffers count
once, not once per backend as summed RSS counts them — with the part of it that is anonymous (the
heap, where a leak grows: the PSS of mapped files also moves as unrelated processes that map the
same libraries start and stop) and the part that is shared memory (PostgreSQL's shared buffers,
bounded by ``shared_buffers``), and as RSS; the connections PostgreSQL has open and the machine's
load; and prints a line. At the end it prints each series' first and last
sample and its slope (least squares, an hour, over the second half of the run so that warm-up is
left out), the answers the players got, and the matches stuck (not moved on by four versions in
90 s).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import time

from benchmarks import shape
from benchmarks.drill import Drill


def slope_per_hour(samples: list[tuple[float, float]]) -> float:
    """Least-squares slope of (seconds, value) samples, per hour."""
    if len(samples) < 2:
        return 0.0
    n = len(samples)
    mean_t = sum(t for t, _ in samples) / n
    mean_v = sum(v for _, v in samples) / n
    spread = sum((t - mean_t) ** 2 for t, _ in samples)
    if not spread:
        return 0.0
    return sum((t - mean_t) * (v - mean_v) for t, v in samples) / spread * 3600


class Soak(Drill):
    bot_strategy = "heuristic"  # steady play, not a worker kept busy by search

    def __init__(self, args: argparse.Namespace) -> None:
        self.deals = args.deals
        super().__init__(args)
        self.samples: dict[str, list[tuple[float, float]]] = {}
        self.loads: list[float] = []
        self.followers: list[shape.Follower] = []

    def groups(self) -> dict[str, list[int]]:
        redis = self.redis.process.pid if self.redis.process else 0
        return {
            "web": shape.process_group(self.web.pid),
            "worker": shape.process_group(self.worker.pid),
            "beat": shape.process_group(self.beat.pid),
            "postgres": self.postgres.pids(),
            "redis": [redis],
        }

    async def sample(self, started: float) -> None:
        now = time.monotonic() - started
        figures = {}
        for name, pids in self.groups().items():
            figures[f"{name} PSS"] = shape.pss_mib(pids)
            figures[f"{name} anon PSS"] = shape.pss_mib(pids, "Anon")
            figures[f"{name} shmem PSS"] = shape.pss_mib(pids, "Shmem")
            figures[f"{name} RSS"] = shape.rss_mib(pids)
        figures["postgres connections"] = float(
            await asyncio.to_thread(self.postgres.client_connections)
        )
        for name, value in figures.items():
            self.samples.setdefault(name, []).append((now, value))
        self.loads.append(os.getloadavg()[0])
        print(
            f"{now / 60:5.1f} min: "
            + ", ".join(f"{name} {value:.1f}" for name, value in figures.items())
            + f", load {self.loads[-1]:.1f}",
            flush=True,
        )

    async def run(self) -> None:
        import aiohttp

        timeout = aiohttp.ClientTimeout(total=None, sock_read=120)
        async with aiohttp.ClientSession(self.base_url, timeout=timeout) as session:
            await shape.wait_until_healthy(session)
            self.tables = [await self.seat_a_player(session, n) for n in range(self.args.matches)]
            tasks = [asyncio.create_task(self.play(session, table)) for table in self.tables]
            for number in range(self.args.streams):  # the players' own feeds, round the table
                follower = shape.Follower(self.tables[number % len(self.tables)].token)
                self.followers.append(follower)
                tasks.append(asyncio.create_task(shape.follow_stream(session, follower)))
            started = time.monotonic()
            end = started + self.args.minutes * 60
            while time.monotonic() < end:
                await self.sample(started)
                await asyncio.sleep(self.args.sample)
            await self.sample(started)
            stuck, _ = await self.matches_stuck()
            for task in tasks:
                task.cancel()
        self.report(stuck)

    def report(self, stuck: int) -> None:
        print(
            f"\nsoak of {self.args.minutes} min, {self.args.matches} players v 3 heuristic bots each "
            f"({self.deals} deals a match), "
            f"{self.args.streams} feed streams; logs: {self.logs}"
        )
        print(f"{'series':22} {'first':>9} {'last':>9} {'slope, 2nd half':>18}")
        for name, samples in self.samples.items():
            half = [s for s in samples if s[0] >= samples[-1][0] / 2]
            unit = " MiB" if name.endswith("SS") else ""
            print(
                f"{name:22} {samples[0][1]:9.1f} {samples[-1][1]:9.1f} "
                f"{slope_per_hour(half):+14.1f}{unit}/h"
            )
        answers = dict(sorted(self.tally.statuses.items()))
        print(
            f"answers {answers}; 500s {self.tally.statuses['500']}; players stuck {stuck} "
            f"of {len(self.tables)}; matches started {sum(t.matches for t in self.tables)}; "
            f"stream events {sum(len(f.seqs) for f in self.followers)}, "
            f"reconnects {sum(f.reconnects for f in self.followers)}; "
            f"load {min(self.loads):.1f}–{max(self.loads):.1f}"
        )


def main() -> None:
    parser = shape.arguments(__doc__, matches=10, streams=20)
    parser.add_argument("--minutes", type=float, default=30)
    parser.add_argument("--deals", type=int, default=20, help="deals a match")
    parser.add_argument("--sample", type=float, default=30)
    args = parser.parse_args()
    soak = Soak(args)
    try:
        asyncio.run(soak.run())
    finally:
        soak.stop()


if __name__ == "__main__":
    main()
