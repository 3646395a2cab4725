"""A fault drill of the production shape: kill a worker, take the broker away, restart the database —
while players are playing — and count what was lost.

    python -m benchmarks.drill [--matches 20] [--faults kill,broker,database]

It starts everything itself, on ports of its own (:mod:`benchmarks.shape`): a private PostgreSQL
cluster and redis-server, ``make serve`` (two uvicorn processes), a Celery worker, ``celery beat``.
Each of ``--matches`` players plays a match against three search bots (``montecarlo``: a worker is
always busy thinking for one of them) through the API, as a careful client does: it posts each
move with an ``Idempotency-Key`` and, answered 503 or cut off, sends it again with the same key;
when it ends, it starts another.

Then, one after another:

- **kill**: ``kill -9`` of the worker (its whole process group, in the middle of bots' turns); its
  supervisor starts it again after two seconds.
- **broker**: redis-server stopped for ``--outage`` seconds (15) — every queued message is lost,
  as when a broker without persistence crashes — then started again.
- **database**: PostgreSQL stopped for 6 seconds, then started again.

For each it prints the answers the players got meanwhile (2xx, 4xx, 500s, 503s, refused
connections) and the matches **stuck**: players whose matches do not move again (by four versions)
within 90 seconds of the fault's end. The figures in docs/operations.md come from this script.
"""

from __future__ import annotations

import argparse
import asyncio
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from benchmarks import shape

RECOVERY_SECONDS = 90
PROGRESS_NEEDED = 4  # versions a match must move on by after a fault to count as alive


@dataclass
class Tally:
    """What the players were answered during one phase."""

    statuses: Counter[str] = field(default_factory=Counter)

    def add(self, status: int | str) -> None:
        key = str(status) if isinstance(status, str) else f"{status // 100}xx"
        if status in (500, 503):
            key = str(status)
        self.statuses[key] += 1


@dataclass
class Table:
    """A player and the match they play now (a new one when it ends)."""

    player: str
    token: str
    match_id: int = 0
    version: int = 0  # of the match, when last looked at
    advanced: int = 0  # versions their matches have moved on by, in all
    matches: int = 0  # matches started


class Drill:
    # Who the players play against: search bots, so that a worker is always busy thinking.
    bot_strategy = "montecarlo"
    web_processes = 2
    deals = 100  # a match's length
    pooler = False  # through PgBouncer (benchmarks.shape.PrivateServices)
    extra_settings: dict[str, str] = {}  # a drill's own, for every process

    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.services = shape.PrivateServices(
            "switch-drill-",
            {
                "SWEEP_INTERVAL_SECONDS": "2",
                "SWEEP_STALL_SECONDS": "5",
                **shape.UNTHROTTLED,
                **self.extra_settings,
            },
            pooler=self.pooler,
        )
        self.logs, self.env = self.services.logs, self.services.env
        self.postgres, self.redis = self.services.postgres, self.services.redis
        self.web, self.base_url = shape.web(self.env, self.logs, workers=self.web_processes)
        self.worker = shape.worker(self.env, self.logs, "worker")
        self.beat = shape.beat(self.env, self.logs)
        self.tally = Tally()
        self.tables: list[Table] = []

    def stop(self) -> None:
        for process in (self.web, self.worker, self.beat):
            process.stop()
        self.services.stop()

    async def run(self) -> None:
        import aiohttp

        timeout = aiohttp.ClientTimeout(total=30)
        async with aiohttp.ClientSession(self.base_url, timeout=timeout) as session:
            await shape.wait_until_healthy(session)
            self.tables = [await self.seat_a_player(session, n) for n in range(self.args.matches)]
            players = [asyncio.create_task(self.play(session, table)) for table in self.tables]
            await asyncio.sleep(10)  # everyone is playing
            results = []
            for fault in self.args.faults.split(","):
                results.append(await self.inject(fault))
            for player in players:
                player.cancel()
        print(f"\nlogs: {self.logs}")
        for line in results:
            print(line)

    async def seat_a_player(self, session: Any, number: int) -> Table:
        name = f"drill{number}-{uuid.uuid4().hex[:6]}"
        body = {"username": name, "password": "a-long-drill-password"}
        async with session.post("/api/v1/players/", json=body) as answer:
            table = Table(name, (await answer.json())["token"])
        await self.start_match(session, table)
        return table

    async def start_match(self, session: Any, table: Table) -> None:
        """A new match of ``deals`` deals for the table's player against three bots, started."""
        bots = [{"seat": seat, "strategy": self.bot_strategy} for seat in (1, 2, 3)]
        create = {"ruleset": "switch", "seats": 4, "bots": bots, "deals": self.deals}
        async with session.post(
            "/api/v1/matches/", json=create, headers=shape.auth(table.token)
        ) as answer:
            table.match_id, table.version = (await answer.json())["id"], 0
        table.matches += 1
        path = f"/api/v1/matches/{table.match_id}/start/"
        async with session.post(path, headers=shape.auth(table.token)) as answer:
            assert answer.status == 200, await answer.text()

    async def play(self, session: Any, table: Table) -> None:
        """Look at the match every half second; move when it is our turn, retrying a move with
        the same Idempotency-Key until it is answered for good; start another when it is over."""
        headers = shape.auth(table.token)
        while True:
            await asyncio.sleep(0.5)
            view_path = f"/api/v1/matches/{table.match_id}/"
            status, view = await self.request(session, "GET", view_path, headers)
            if status != 200:
                continue
            table.advanced += max(0, view["version"] - table.version)
            table.version = view["version"]
            if view["status"] != "active":
                await self.start_match(session, table)
                continue
            if not view["legal_moves"]:
                continue
            move = {**view["legal_moves"][0], "expected_version": view["version"]}
            key = {**headers, "Idempotency-Key": uuid.uuid4().hex}
            while True:  # not committed (503, or cut off): the same request again, safely
                status, _ = await self.request(session, "POST", view_path + "moves/", key, move)
                if status not in (503, "refused"):
                    break
                await asyncio.sleep(1)

    async def request(
        self, session: Any, method: str, path: str, headers: dict[str, str], body: Any = None
    ) -> tuple[int | str, Any]:
        import aiohttp

        try:
            async with session.request(method, path, json=body, headers=headers) as answer:
                self.tally.add(answer.status)
                return answer.status, await answer.json(content_type=None)
        except (aiohttp.ClientError, TimeoutError, ValueError):
            self.tally.add("refused")
            return "refused", None

    async def inject(self, fault: str) -> str:
        self.tally = Tally()
        started = time.monotonic()
        if fault == "kill":
            self.worker.kill()
            await asyncio.sleep(2)
            self.worker.start()  # what its supervisor does (deploy/switch-worker@.service)
        elif fault == "broker":
            self.redis.stop()
            await asyncio.sleep(self.args.outage)
            self.redis.start()
        elif fault == "database":
            await asyncio.to_thread(self.postgres.stop)
            await asyncio.sleep(6)
            await asyncio.to_thread(self.postgres.start)
        else:
            raise SystemExit(f"unknown fault {fault!r}")
        over = time.monotonic()
        stuck, recovered_in = await self.matches_stuck()
        answers = dict(sorted(self.tally.statuses.items()))
        return (
            f"{fault}: {over - started:.0f} s; matches stuck {stuck} of {len(self.tables)} "
            f"(all moving again {recovered_in:.0f} s after); answers meanwhile {answers}; "
            f"500s {self.tally.statuses['500']}, 503s {self.tally.statuses['503']}; "
            f"worker alive {self.worker.alive()}"
        )

    async def matches_stuck(self) -> tuple[int, float]:
        """Players whose matches do not move on by PROGRESS_NEEDED versions within RECOVERY_SECONDS."""
        since = time.monotonic()
        at_fault_end = [t.advanced for t in self.tables]
        while time.monotonic() - since < RECOVERY_SECONDS:
            behind = [
                t
                for t, then in zip(self.tables, at_fault_end, strict=True)
                if t.advanced < then + PROGRESS_NEEDED
            ]
            if not behind:
                return 0, time.monotonic() - since
            await asyncio.sleep(1)
        return len(behind), time.monotonic() - since


def main() -> None:
    parser = shape.arguments(__doc__, matches=20)
    parser.add_argument("--faults", default="kill,broker,database")
    parser.add_argument("--outage", type=float, default=15.0, help="seconds without the broker")
    args = parser.parse_args()
    drill = Drill(args)
    try:
        asyncio.run(drill.run())
    finally:
        drill.stop()
    print(f"machine load: {shape.load_average()}")


if __name__ == "__main__":
    main()
