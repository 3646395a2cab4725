"""Moves under load against the production shape, beside the floor of an authenticated read.

    python -m benchmarks.move_load [--clients 32] [--seconds 15] [--rounds 2] [--workers N]
                                   [--writers]

It starts its own PostgreSQL, Redis and ``make serve`` (:mod:`benchmarks.shape`), makes the players
with the ORM, and then, from one asyncio process, runs ``--clients`` concurrent clients in two
kinds of round, interleaved (floor, moves, floor, moves, …) because the machine is shared:

- **floor**: each client asks ``GET /api/v1/players/me/`` as fast as answers come — an
  authenticated read of the caller's profile: the token, one row, one count;
- **moves**: each client plays a heads-up match holding both seats' tokens: the seat to move reads
  its view (``GET …/matches/{id}/``) and posts one of its legal moves (``POST …/moves/``), again
  and again (a finished match is replaced by a new one).

With ``--writers`` the moves rounds are played twice each, in turn, against two servers on the same
database: the shipped one, whose match writer sends one statement per move on PostgreSQL
(``games.services.writer``), and one writing through the ORM, a statement per table
(:mod:`benchmarks.orm_writer`) — what the one-statement writer is worth, measured in one run.

The client parses answers with orjson: it shares the machine with the server, and the standard
library's parser made a move round's requests cost the client about twice the floor's (0.45–0.70
against 0.24–0.28 ms of CPU each).

It prints the requests per second of each round, their ratio (move-and-view requests against the
floor), moves per second and the move answers' p50/p99, the CPU each request cost the web tier, the
database and the client (all three share the machine's cores, so together they bound the rate;
CPU per request is also far less moved by other jobs than requests per second), and the machine's
load.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import time
from dataclasses import dataclass, field
from typing import Any

import orjson

from benchmarks import shape


@dataclass
class Round:
    kind: str
    requests: int = 0
    moves: int = 0
    errors: int = 0
    move_seconds: list[float] = field(default_factory=list)
    cpu_seconds: dict[str, float] = field(default_factory=dict)


@dataclass
class Server:
    """A web tier under test: its processes and its URL."""

    name: str
    process: shape.Process
    url: str


@dataclass
class CPUMeter:
    """CPU seconds spent by a web tier, the database and this client (all on one machine)."""

    postgres: shape.PrivatePostgres

    def read(self, server: Server) -> dict[str, float]:
        return {
            "web": shape.cpu_seconds(shape.process_group(server.process.pid)),
            "database": shape.cpu_seconds(self.postgres.pids()),
            "client": time.process_time(),
        }


@dataclass
class Pair:
    """One client's two players (seat 0 and seat 1 of its match)."""

    tokens: tuple[str, str]
    match_id: int = 0
    to_move: int = 0


def make_players(env: dict[str, str], count: int) -> list[tuple[str, str]]:
    """``count`` pairs of players with tokens, made with the ORM (registering through the API
    would spend the time hashing passwords)."""
    os.environ.update(env)
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.db import connections

    from games.models import Player
    from games.services import account_token

    users = get_user_model().objects.bulk_create(
        get_user_model()(username=f"load{n}", password="!") for n in range(2 * count)
    )
    Player.objects.bulk_create(Player(user=user) for user in users)
    keys = [account_token(user=user) for user in users]
    connections.close_all()
    return list(zip(keys[0::2], keys[1::2], strict=True))


async def new_match(session: Any, pair: Pair) -> None:
    first, second = pair.tokens
    body = {"ruleset": "switch", "seats": 2, "deals": 1}
    async with session.post("/api/v1/matches/", json=body, headers=shape.auth(first)) as answer:
        pair.match_id = (await answer.json(loads=orjson.loads))["id"]
    path = f"/api/v1/matches/{pair.match_id}/"
    async with session.post(path + "join/", headers=shape.auth(second)):
        pass
    async with session.post(path + "start/", headers=shape.auth(first)) as answer:
        pair.to_move = (await answer.json(loads=orjson.loads))["to_move"]


async def floor_client(session: Any, token: str, result: Round, until: float) -> None:
    while time.monotonic() < until:
        async with session.get("/api/v1/players/me/", headers=shape.auth(token)) as answer:
            await answer.read()
            result.requests += 1
            result.errors += answer.status != 200


async def move_client(
    session: Any, pair: Pair, result: Round, until: float, pause: float = 0.0
) -> None:
    """Play the pair's match until ``until``: read the view, post a move, wait ``pause`` seconds
    (0: as fast as answers come)."""
    while time.monotonic() < until:
        headers = shape.auth(pair.tokens[pair.to_move])
        path = f"/api/v1/matches/{pair.match_id}/"
        async with session.get(path, headers=headers) as answer:
            view = await answer.json(loads=orjson.loads)
            result.requests += 1
        if view["status"] != "active":
            await new_match(session, pair)
            continue
        moves = view["legal_moves"]
        move = next((m for m in moves if m["action"] == "play"), moves[0])
        started = time.monotonic()
        async with session.post(path + "moves/", json=move, headers=headers) as answer:
            body = await answer.json(loads=orjson.loads)
            result.requests += 1
        if answer.status != 201:
            result.errors += 1
            continue
        result.moves += 1
        result.move_seconds.append(time.monotonic() - started)
        pair.to_move = body["view"]["to_move"] if body["view"]["to_move"] is not None else 0
        await asyncio.sleep(pause)


async def run(
    args: argparse.Namespace, servers: list[Server], pairs: list[Pair], meter: CPUMeter
) -> list[Round]:
    """Floor and moves rounds in turn against the first server; with several servers, a moves
    round against each after every floor round (a match is played on with whichever server)."""
    import aiohttp

    sessions = [
        aiohttp.ClientSession(server.url, connector=aiohttp.TCPConnector(limit=args.clients))
        for server in servers
    ]
    try:
        for session in sessions:
            await shape.wait_until_healthy(session)
        await asyncio.gather(*(new_match(sessions[0], pair) for pair in pairs))
        plan = [("floor", 0)] + [("moves", index) for index in range(len(servers))]
        rounds = []
        for _ in range(args.rounds):
            for kind, index in plan:
                server, session = servers[index], sessions[index]
                label = kind if len(servers) == 1 or kind == "floor" else f"moves {server.name}"
                result, until = Round(label), time.monotonic() + args.seconds
                if kind == "floor":
                    work = [floor_client(session, p.tokens[0], result, until) for p in pairs]
                else:
                    work = [move_client(session, p, result, until) for p in pairs]
                before = meter.read(server)
                await asyncio.gather(*work)
                after = meter.read(server)
                result.cpu_seconds = {part: after[part] - before[part] for part in before}
                rounds.append(result)
        return rounds
    finally:
        for session in sessions:
            await session.close()


def main() -> None:
    parser = shape.arguments(__doc__, clients=32, seconds=15.0, workers=shape.DEFAULT_WEB_PROCESSES)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument(
        "--writers",
        action="store_true",
        help="moves rounds against the shipped server and one writing through the ORM, in turn",
    )
    args = parser.parse_args()

    with shape.PrivateServices("switch-move-load-", shape.UNTHROTTLED) as services:
        pairs = [Pair(tokens) for tokens in make_players(services.env, args.clients)]
        shipped, url = shape.web(services.env, services.logs, args.workers)
        servers = [Server("one statement", shipped, url)]
        if args.writers:
            orm, url = shape.web(
                services.env, services.logs, args.workers, app="benchmarks.orm_writer:application"
            )
            servers.append(Server("ORM", orm, url))
        try:
            rounds = asyncio.run(run(args, servers, pairs, CPUMeter(services.postgres)))
        finally:
            for server in servers:
                server.process.stop()
    report(args, rounds)


def report(args: argparse.Namespace, rounds: list[Round]) -> None:
    kinds = sorted({r.kind for r in rounds if r.kind != "floor"})
    rate = {kind: [r.requests / args.seconds for r in rounds if r.kind == kind] for kind in kinds}
    floor = [r.requests / args.seconds for r in rounds if r.kind == "floor"]
    print(f"{args.clients} clients, {args.workers} uvicorn processes, {args.seconds:.0f} s rounds")
    for result in rounds:
        line = f"  {result.kind:19}: {result.requests / args.seconds:7.1f} requests/s"
        if result.kind.startswith("moves"):
            ms = [s * 1000 for s in result.move_seconds]
            line += (
                f", {result.moves / args.seconds:6.1f} moves/s, move p50 "
                f"{shape.percentile(ms, 0.5):.0f} ms, p99 {shape.percentile(ms, 0.99):.0f} ms"
            )
        cpu = ", ".join(
            f"{part} {seconds * 1000 / max(result.requests, 1):.2f}"
            for part, seconds in result.cpu_seconds.items()
        )
        print(line + f", errors {result.errors}; CPU ms per request: {cpu}")
    for kind in kinds:
        ratios = [m / f for f, m in zip(floor, rate[kind], strict=True)]
        print(
            f"{kind} and views per second against the floor: "
            + ", ".join(f"{r:.2f}" for r in ratios)
        )
    print(f"machine load: {shape.load_average()}")


if __name__ == "__main__":
    main()
