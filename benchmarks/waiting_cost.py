"""What one waiting request costs the web tier, beside an ordinary view: CPU per request, one process.

    python -m benchmarks.waiting_cost [--requests 600] [--concurrency 8] [--rounds 2]

It starts its own PostgreSQL, Redis and ``make serve`` with one uvicorn process
(:mod:`benchmarks.shape`), registers a player who starts a match against a bot, and then asks, in
rounds of ``--requests`` requests, ``--concurrency`` at a time:

- **view**: ``GET /api/v1/matches/{id}/`` — an ordinary view, served on the thread pool;
- **poll**: ``GET /api/v1/players/me/events/?after=0&wait=20`` — a long poll that answers at once
  (the feed has entries): everything a long poll does but wait;
- **stream**: ``GET /api/v1/players/me/stream/`` from ``Last-Event-ID: 0``, closed after its first
  event: what opening a stream costs (a client reconnecting, a host taking over streams).

The kinds take turns (``--rounds`` times each), since the machine is shared. It prints the web
process's CPU per request (far less moved by other jobs than requests per second) and requests per
second for each round, and the machine's load.
"""

from __future__ import annotations

import argparse
import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Any

from benchmarks import shape


async def setup(session: Any) -> tuple[dict[str, str], int]:
    body = {"username": "alice", "password": "correct-horse-battery"}
    async with session.post("/api/v1/players/", json=body) as answer:
        headers = shape.auth((await answer.json())["token"])
    match = {"ruleset": "switch", "seats": 2, "bots": [{"seat": 1, "strategy": "random"}]}
    async with session.post("/api/v1/matches/", json=match, headers=headers) as answer:
        match_id = int((await answer.json())["id"])
    async with session.post(f"/api/v1/matches/{match_id}/start/", headers=headers) as answer:
        assert answer.status == 200, answer.status
    return headers, match_id


Request = Callable[[], Awaitable[None]]


def requests(session: Any, headers: dict[str, str], match_id: int) -> dict[str, Request]:
    async def view() -> None:
        async with session.get(f"/api/v1/matches/{match_id}/", headers=headers) as answer:
            assert answer.status == 200, answer.status
            await answer.read()

    async def poll() -> None:
        path = "/api/v1/players/me/events/?after=0&wait=20"
        async with session.get(path, headers=headers) as answer:
            assert answer.status == 200, answer.status
            await answer.read()

    async def stream() -> None:
        resume = {**headers, "Last-Event-ID": "0"}
        async with session.get("/api/v1/players/me/stream/", headers=resume) as answer:
            assert answer.status == 200, answer.status
            async for line in answer.content:
                if line.startswith(b"id: "):
                    break

    return {"view": view, "poll": poll, "stream": stream}


async def measure(request: Request, count: int, concurrency: int, pids: list[int]) -> str:
    turns = asyncio.Semaphore(concurrency)

    async def one() -> None:
        async with turns:
            await request()

    await asyncio.gather(*(one() for _ in range(concurrency * 5)))  # warm up
    cpu, started = shape.cpu_seconds(pids), time.monotonic()
    await asyncio.gather(*(one() for _ in range(count)))
    cpu, seconds = shape.cpu_seconds(pids) - cpu, time.monotonic() - started
    return f"{1000 * cpu / count:6.2f} ms CPU a request, {count / seconds:5.0f} requests/s"


async def run(args: argparse.Namespace) -> None:
    import aiohttp

    with shape.PrivateServices("switch-waiting-cost-", shape.UNTHROTTLED) as services:
        server, url = shape.web(services.env, services.logs, workers=1)
        try:
            async with aiohttp.ClientSession(url) as session:
                await shape.wait_until_healthy(session)
                headers, match_id = await setup(session)
                pids = shape.process_group(server.pid)
                kinds = requests(session, headers, match_id)
                for _ in range(args.rounds):
                    for kind, request in kinds.items():
                        figures = await measure(request, args.requests, args.concurrency, pids)
                        print(f"{kind:7} {figures}", flush=True)
        finally:
            server.stop()
    print(f"load average {shape.load_average()}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=600, help="requests in each round")
    parser.add_argument("--concurrency", type=int, default=8, help="requests at a time")
    parser.add_argument("--rounds", type=int, default=2, help="rounds of each kind")
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
