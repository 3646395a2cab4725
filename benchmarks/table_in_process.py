"""A player's moves under ``make run`` with three ``montecarlo`` bots at the table, the bots
thinking on the request that woke them (as before) and on the in-process worker, in one run.

    python -m benchmarks.table_in_process [--moves 30] [--rounds 2] [--turn-seconds 5]

Each round starts ``make run`` as a newcomer does — SQLite, no broker, tasks in-process — on a
database file of its own and a free port, serving either the shipped service (``worker``: tasks on
the in-process worker's thread) or :mod:`benchmarks.tasks_on_request` (``request``: tasks run on
the request that published them). One player plays four-seat ``switch`` matches against three
``montecarlo`` bots with a turn clock of ``--turn-seconds``, as a careful client does: it follows
its feed by long poll and answers each ``your_turn`` at once with the first of its legal moves,
with ``expected_version`` and an ``Idempotency-Key``; a finished match is replaced by a new one.
Meanwhile another client reads the match (``GET /matches/{id}/``) twice a second. The rounds
alternate (request, worker, request, worker, …) because the machine is shared.

It prints, for each round: the move answers' p50, p95 and max, their statuses, the player's
strikes (``timeout`` events of its seat: turns the clock played for it), the reads' p50, p95 and
max, and the machine's load.
"""

from __future__ import annotations

import asyncio
import os
import tempfile
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
from yarl import URL

from benchmarks import shape

APPS = {
    "request": "benchmarks.tasks_on_request:application",
    "worker": "switchsite.asgi:application",
}
BOTS = [{"seat": seat, "strategy": "montecarlo"} for seat in (1, 2, 3)]


@dataclass
class Round:
    kind: str
    moves: list[float] = field(default_factory=list)  # seconds from sending a move to its answer
    statuses: Counter[str] = field(default_factory=Counter)
    reads: list[float] = field(default_factory=list)
    strikes: int = 0
    matches: list[int] = field(default_factory=list)
    load: str = ""

    def line(self) -> str:
        def spread(values: list[float]) -> str:
            p50, p95 = shape.percentile(values, 0.5), shape.percentile(values, 0.95)
            return f"{p50 * 1000:.0f} / {p95 * 1000:.0f} / {max(values) * 1000:.0f} ms"

        statuses = ", ".join(
            f"{count} × {status}" for status, count in sorted(self.statuses.items())
        )
        return (
            f"{self.kind:>7}: moves {spread(self.moves)} (p50 / p95 / max; {statuses}), "
            f"strikes {self.strikes}, reads {spread(self.reads)} ({len(self.reads)}), "
            f"load {self.load}"
        )


def served_env(database: Path, port: int, app: str) -> dict[str, str]:
    """``make run``'s environment: no broker, no shared cache, a SQLite file of the round's own."""
    env = {
        name: value
        for name, value in os.environ.items()
        if name not in ("DATABASE_URL", "CELERY_BROKER_URL", "CACHE_URL", "SECRET_KEY")
    }
    return {
        **env,
        **shape.UNTHROTTLED,
        "DATABASE_URL": f"sqlite:///{database}",
        "PORT": str(port),
        "ASGI_APP": app,
        "LOG_LEVEL": "WARNING",
    }


async def play_round(kind: str, moves: int, turn_seconds: int, logs: Path) -> Round:
    port = shape.free_port()
    env = served_env(logs / f"{kind}-{port}.sqlite3", port, APPS[kind])
    server = shape.Process(f"run-{kind}-{port}", ["make", "--no-print-directory", "run"], env, logs)
    played = Round(kind)
    timeout = aiohttp.ClientTimeout(total=60)
    try:
        async with aiohttp.ClientSession(f"http://127.0.0.1:{port}", timeout=timeout) as session:
            await shape.wait_until_healthy(session, seconds=120)
            await _play(session, played, moves, turn_seconds)
    finally:
        server.stop()
    played.load = shape.load_average()
    return played


async def _play(session: aiohttp.ClientSession, played: Round, moves: int, seconds: int) -> None:
    credentials = {"username": f"p{uuid.uuid4().hex[:10]}", "password": uuid.uuid4().hex}
    async with session.post("/api/v1/players/", json=credentials) as answer:
        headers = shape.auth((await answer.json())["token"])
    match_id = await _new_match(session, headers, seconds)
    played.matches.append(match_id)
    reading = asyncio.create_task(_read_meanwhile(session, headers, played))
    after = 0
    try:
        while len(played.moves) < moves:
            query = f"/api/v1/players/me/events/?after={after}&wait=20"
            async with session.get(query, headers=headers) as answer:
                entries = (await answer.json())["results"]
            for entry in entries:
                after = entry["seq"]
                if entry["type"] == "match_end":
                    match_id = await _new_match(session, headers, seconds)
                    played.matches.append(match_id)
                elif entry["type"] == "your_turn" and entry["match"] == match_id:
                    await _move(session, headers, entry["data"], match_id, played)
    finally:
        reading.cancel()
    for match in played.matches:
        played.strikes += await _strikes(session, headers, match)


async def _new_match(session: aiohttp.ClientSession, headers: dict[str, str], seconds: int) -> int:
    wanted = {"ruleset": "switch", "seats": 4, "bots": BOTS, "turn_seconds": seconds, "deals": 1}
    async with session.post("/api/v1/matches/", json=wanted, headers=headers) as answer:
        match_id = int((await answer.json())["id"])
    async with session.post(f"/api/v1/matches/{match_id}/start/", headers=headers) as answer:
        assert answer.status == 200, await answer.text()
    return match_id


async def _move(
    session: aiohttp.ClientSession,
    headers: dict[str, str],
    turn: dict[str, Any],
    match_id: int,
    played: Round,
) -> None:
    legal = turn["view"]["legal_moves"]
    if not legal:
        return
    body = {**legal[0], "expected_version": turn["version"]}
    keyed = {**headers, "Idempotency-Key": uuid.uuid4().hex}
    sent = time.monotonic()
    async with session.post(
        f"/api/v1/matches/{match_id}/moves/", json=body, headers=keyed
    ) as answer:
        problem = "" if answer.status < 400 else (await answer.json()).get("code", "")
    played.moves.append(time.monotonic() - sent)
    played.statuses[f"{answer.status} {problem}".strip()] += 1


async def _read_meanwhile(
    session: aiohttp.ClientSession, headers: dict[str, str], played: Round
) -> None:
    while True:
        await asyncio.sleep(0.5)
        sent = time.monotonic()
        async with session.get(f"/api/v1/matches/{played.matches[-1]}/", headers=headers) as answer:
            await answer.read()
        played.reads.append(time.monotonic() - sent)


async def _strikes(session: aiohttp.ClientSession, headers: dict[str, str], match_id: int) -> int:
    """The player's ``timeout`` events in the match: turns its clock played for it."""
    strikes, url = 0, f"/api/v1/matches/{match_id}/events/?after=0&limit=500"
    while url:
        async with session.get(url, headers=headers) as answer:
            page = await answer.json()
        strikes += sum(1 for e in page["results"] if e["type"] == "timeout" and e["seat"] == 0)
        url = page["next"] and URL(page["next"]).path_qs
    return strikes


def main() -> None:
    parser = shape.arguments(__doc__)
    parser.add_argument("--moves", type=int, default=30, help="the player's moves timed per round")
    parser.add_argument("--rounds", type=int, default=2, help="rounds of each kind")
    parser.add_argument("--turn-seconds", type=int, default=5, help="the matches' turn clock")
    args = parser.parse_args()
    logs = Path(tempfile.mkdtemp(prefix="switch-table-"))
    print(f"load before: {shape.load_average()}; logs in {logs}")
    for _ in range(args.rounds):
        for kind in APPS:
            played = asyncio.run(play_round(kind, args.moves, args.turn_seconds, logs))
            print(played.line(), flush=True)


if __name__ == "__main__":
    main()
