"""Streams and long polls at scale, against the production shape (``make serve``), from one process.

Needs PostgreSQL (a throw-away database: players and matches are added to it) and Redis, e.g.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/switch_bench \\
    CELERY_BROKER_URL=redis://127.0.0.1:6379/13 python -m benchmarks.streams_load

It migrates the database, creates the players (with the ORM: registering through the API would
spend its time hashing passwords), starts ``make serve`` (``WEB_CONCURRENCY`` uvicorn processes;
``--base-url`` uses a server already running on the same database instead), then from this one
asyncio process (aiohttp):

1. opens ``--streams`` SSE feed streams, one per player, and ``--polls`` long polls
   (``/players/me/events/?wait=30``, asked again as each answers), and holds them ``--seconds``;
   a stream that ends cleanly at ``SSE_MAX_SECONDS`` reconnects with ``Last-Event-ID``, as clients
   do; any other end, error or refusal counts as *dropped*;
2. meanwhile plays ``--matches`` heads-up matches between streaming players through the API,
   ``--moves-per-second`` moves in all, and times each move (request → 201) and its delivery: move
   answered → the next player's ``your_turn`` received on their stream;
3. asks ``/healthz`` every half second;

and prints dropped streams and polls, move p50/p99, delivery p50/p95, the slowest ``/healthz``,
the server's resident memory before and after the streams opened (per 1,000 streams), its CPU
time, and the machine's load average.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import resource
import statistics
import sys
import tempfile
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchmarks import shape

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "switchsite.settings")
os.environ.setdefault("SECRET_KEY", "benchmark-only")

LONG_POLL_SECONDS = 30
SLOW_SECONDS = 0.5  # answers slower than this are listed with when they happened
SETTLE_SECONDS = 5  # between opening the long polls and holding everything


@dataclass
class Figures:
    move_seconds: list[float] = field(default_factory=list)
    delivery_seconds: list[float] = field(default_factory=list)
    healthz_seconds: list[float] = field(default_factory=list)
    dropped_streams: int = 0
    dropped_polls: int = 0
    stream_reconnects: int = 0
    # When (time.monotonic()) slow answers and stream reconnections happened, to tell bursts apart.
    slow: list[tuple[float, str, float]] = field(default_factory=list)
    reconnected_at: list[float] = field(default_factory=list)
    held_from: float = 0.0
    polls_answered: int = 0
    move_errors: int = 0
    errors: list[str] = field(default_factory=list)
    # (match id, version) → when the move was answered / when its your_turn arrived
    answered: dict[tuple[int, int], float] = field(default_factory=dict)
    arrived: dict[tuple[int, int], float] = field(default_factory=dict)

    def note_delivery(self, key: tuple[int, int]) -> None:
        if key in self.answered and key in self.arrived:
            self.delivery_seconds.append(max(0.0, self.arrived[key] - self.answered[key]))

    def error(self, what: str) -> None:
        if len(self.errors) < 10:
            self.errors.append(what)


@dataclass
class Player:
    token: str
    feed_seq: int = 0


def create_players(count: int) -> list[Player]:
    from django.contrib.auth import get_user_model

    from games.models import Player as Profile
    from games.services import account_token

    run = uuid.uuid4().hex[:8]
    users = get_user_model().objects.bulk_create(
        get_user_model()(username=f"load-{run}-{i}", password="!") for i in range(count)
    )
    Profile.objects.bulk_create(Profile(user=user) for user in users)
    return [Player(account_token(user=user)) for user in users]


# --- the clients ------------------------------------------------------------------------------


async def hold_stream(
    session: Any, player: Player, figures: Figures, opened: asyncio.Event
) -> None:
    """A bot's one connection: its feed stream, reconnected after each clean end, until cancelled."""
    import aiohttp

    while True:
        headers = {**shape.auth(player.token), "Last-Event-ID": str(player.feed_seq)}
        try:
            async with session.get("/api/v1/players/me/stream/", headers=headers) as stream:
                if stream.status != 200:
                    figures.dropped_streams += 1
                    figures.error(f"stream answered {stream.status}")
                    return
                opened.set()
                event = None
                async for raw in stream.content:
                    line = raw.decode().rstrip("\n")
                    if line.startswith("id: "):
                        player.feed_seq = int(line[4:])
                    elif line.startswith("event: "):
                        event = line[7:]
                    elif line.startswith("data: ") and event == "your_turn":
                        data = json.loads(line[6:])
                        key = (data["match"], data["data"]["version"])
                        figures.arrived[key] = time.monotonic()
                        figures.note_delivery(key)
                figures.stream_reconnects += 1
                figures.reconnected_at.append(time.monotonic())
        except (TimeoutError, aiohttp.ClientError) as error:
            figures.dropped_streams += 1
            figures.error(f"stream: {error!r}")
            return


async def hold_long_polls(session: Any, player: Player, figures: Figures) -> None:
    """A bot that long-polls its feed until cancelled. Its first wait is random, as independent
    clients' are."""
    import aiohttp

    wait = random.randint(1, LONG_POLL_SECONDS)
    while True:
        path = f"/api/v1/players/me/events/?after={player.feed_seq}&wait={wait}"
        try:
            async with session.get(path, headers=shape.auth(player.token)) as answer:
                if answer.status != 200:
                    figures.dropped_polls += 1
                    figures.error(f"long poll answered {answer.status}")
                    return
                page = await answer.json()
                figures.polls_answered += 1
                wait = LONG_POLL_SECONDS
                if page["results"]:
                    player.feed_seq = page["results"][-1]["seq"]
        except (TimeoutError, aiohttp.ClientError) as error:
            figures.dropped_polls += 1
            figures.error(f"long poll: {error!r}")
            return


async def play_matches(
    session: Any, seats: list[tuple[Player, Player]], figures: Figures, until: float, rate: float
) -> None:
    """Heads-up matches between streaming players; ``rate`` moves a second in all."""
    interval = len(seats) / rate

    async def api(method: str, path: str, token: str, body: Any = None) -> tuple[int, Any]:
        async with session.request(method, path, json=body, headers=shape.auth(token)) as answer:
            return answer.status, await answer.json()

    async def new_match(a: Player, b: Player) -> tuple[int, dict[int, Player]]:
        _, match = await api("POST", "/api/v1/matches/", a.token, {"ruleset": "switch", "seats": 2})
        await api("POST", f"/api/v1/matches/{match['id']}/join/", b.token)
        await api("POST", f"/api/v1/matches/{match['id']}/start/", a.token)
        return match["id"], {0: a, 1: b}

    async def view_of_the_mover(match_id: int, by_seat: dict[int, Player]) -> dict[str, Any]:
        _, view = await api("GET", f"/api/v1/matches/{match_id}/", by_seat[0].token)
        if view["status"] != "active" or view["you"]["seat"] == view["to_move"]:
            return view
        return (await api("GET", f"/api/v1/matches/{match_id}/", by_seat[1].token))[1]

    async def play(a: Player, b: Player, offset: float) -> None:
        await asyncio.sleep(offset)
        match_id, by_seat = await new_match(a, b)
        view = await view_of_the_mover(match_id, by_seat)
        next_at = time.monotonic()
        while time.monotonic() < until:
            if view["status"] != "active":
                match_id, by_seat = await new_match(a, b)
                view = await view_of_the_mover(match_id, by_seat)
                continue
            next_at += interval
            await asyncio.sleep(max(0.0, next_at - time.monotonic()))
            mover = view["to_move"]
            posted = time.monotonic()
            status, answer = await api(
                "POST",
                f"/api/v1/matches/{match_id}/moves/",
                by_seat[mover].token,
                view["legal_moves"][0],
            )
            answered = time.monotonic()
            if status != 201:
                figures.move_errors += 1
                figures.error(f"move answered {status}: {answer}")
                view = await view_of_the_mover(match_id, by_seat)
                continue
            figures.move_seconds.append(answered - posted)
            if answered - posted > SLOW_SECONDS:
                figures.slow.append((posted, "move", answered - posted))
            view = answer["view"]
            if view["status"] == "active" and view["to_move"] != mover:
                key = (match_id, view["version"])
                figures.answered[key] = answered
                figures.note_delivery(key)
                view = await view_of_the_mover(match_id, by_seat)

    await asyncio.gather(*(play(a, b, i * interval / len(seats)) for i, (a, b) in enumerate(seats)))


async def check_health(session: Any, figures: Figures, until: float) -> None:
    while time.monotonic() < until:
        started = time.monotonic()
        async with session.get("/healthz") as answer:
            await answer.read()
            if answer.status != 200:
                figures.error(f"/healthz answered {answer.status}")
        figures.healthz_seconds.append(time.monotonic() - started)
        if figures.healthz_seconds[-1] > SLOW_SECONDS:
            figures.slow.append((started, "/healthz", figures.healthz_seconds[-1]))
        await asyncio.sleep(0.5)


async def run(
    args: argparse.Namespace, players: list[Player], base_url: str, pgid: int | None
) -> None:
    import aiohttp

    figures = Figures()
    streamers, pollers = players[: args.streams], players[args.streams :]
    connector = aiohttp.TCPConnector(limit=0)
    timeout = aiohttp.ClientTimeout(total=None, sock_connect=30)
    async with aiohttp.ClientSession(base_url, connector=connector, timeout=timeout) as session:
        await shape.wait_until_healthy(session)
        server = shape.process_group(pgid) if pgid else []
        rss_idle = shape.rss_mib(server)

        print(f"opening {len(streamers)} streams, then {len(pollers)} long polls …", flush=True)
        started = time.monotonic()
        opening = asyncio.Semaphore(args.open_concurrency)

        async def stream(player: Player, opened: asyncio.Event) -> None:
            async with opening:  # a bounded number of streams being opened at once
                task = asyncio.create_task(hold_stream(session, player, figures, opened))
                await asyncio.wait(
                    [task, asyncio.create_task(opened.wait())], return_when=asyncio.FIRST_COMPLETED
                )
            await task

        opened = [asyncio.Event() for _ in streamers]
        stream_tasks = [
            asyncio.create_task(stream(p, e)) for p, e in zip(streamers, opened, strict=True)
        ]
        while not all(e.is_set() or t.done() for e, t in zip(opened, stream_tasks, strict=True)):
            await asyncio.sleep(0.1)
        opened_in = time.monotonic() - started
        rss_streams = shape.rss_mib(server)
        poll_tasks = [asyncio.create_task(hold_long_polls(session, p, figures)) for p in pollers]
        await asyncio.sleep(SETTLE_SECONDS)  # the long polls' first requests: opening is over
        cpu_before = shape.cpu_seconds(server)
        load_before = shape.load_average()

        print(
            f"streams open after {opened_in:.1f} s; {len(pollers)} long polls; "
            f"holding for {args.seconds} s",
            flush=True,
        )
        figures.held_from = time.monotonic()
        until = figures.held_from + args.seconds
        movers = streamers[: 2 * args.matches]
        pairs = list(zip(movers[0::2], movers[1::2], strict=True))
        await asyncio.gather(
            play_matches(session, pairs, figures, until, args.moves_per_second),
            check_health(session, figures, until),
        )
        rss_all = shape.rss_mib(server)
        cpu_held = shape.cpu_seconds(server) - cpu_before
        load_after = shape.load_average()
        for task in stream_tasks + poll_tasks:  # held the whole time: what ends now is no drop
            task.cancel()
        await asyncio.gather(*stream_tasks, *poll_tasks, return_exceptions=True)

    report(
        args,
        figures,
        opened_in,
        (rss_idle, rss_streams, rss_all),
        cpu_held,
        load_before,
        load_after,
    )


def report(
    args: argparse.Namespace,
    figures: Figures,
    opened_in: float,
    rss: tuple[float, float, float],
    cpu_held: float,
    load_before: str,
    load_after: str,
) -> None:
    ms = 1000
    rss_idle, rss_streams, rss_all = rss
    print()
    print(f"streams {args.streams}, long polls {args.polls}, held {args.seconds} s")
    print(
        f"  dropped streams {figures.dropped_streams}, dropped long polls {figures.dropped_polls}"
    )
    print(
        f"  clean stream ends at SSE_MAX_SECONDS (reconnected) {figures.stream_reconnects}, "
        f"long polls answered {figures.polls_answered}"
    )
    print(f"  streams opened in {opened_in:.1f} s")
    moves = figures.move_seconds
    print(
        f"moves {len(moves)} ({figures.move_errors} refused): "
        f"p50 {shape.percentile(moves, 0.5) * ms:.0f} ms, p99 {shape.percentile(moves, 0.99) * ms:.0f} ms"
    )
    delivery = figures.delivery_seconds
    print(
        f"your_turn delivered {len(delivery)}: p50 {shape.percentile(delivery, 0.5) * ms:.0f} ms, "
        f"p95 {shape.percentile(delivery, 0.95) * ms:.0f} ms, max {max(delivery, default=0) * ms:.0f} ms"
    )
    health = figures.healthz_seconds
    print(
        f"/healthz {len(health)} checks: max {max(health, default=0) * ms:.0f} ms, "
        f"median {statistics.median(health) * ms if health else 0:.0f} ms"
    )
    if rss_idle:
        per_thousand = (rss_streams - rss_idle) / args.streams * 1000
        print(
            f"server RSS: {rss_idle:.0f} MiB before, {rss_streams:.0f} MiB with the streams "
            f"({per_thousand:.0f} MiB per 1,000 streams), {rss_all:.0f} MiB at the end"
        )
        print(f"server CPU while held: {cpu_held:.1f} s in {args.seconds} s")
    print(f"load average: {load_before} at the start, {load_after} at the end")
    reconnections = Counter(10 * int((t - figures.held_from) // 10) for t in figures.reconnected_at)
    print("stream reconnections per 10 s of the hold:", dict(sorted(reconnections.items())))
    slowest = sorted(figures.slow, key=lambda slow: -slow[2])[:8]
    for at, what, took in sorted(slowest):
        print(f"  slow: {what} at +{at - figures.held_from:.1f} s took {took * ms:.0f} ms")
    for error in figures.errors:
        print("  error:", error)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--streams", type=int, default=1000)
    parser.add_argument("--polls", type=int, default=200)
    parser.add_argument("--seconds", type=int, default=60)
    parser.add_argument("--matches", type=int, default=10)
    parser.add_argument("--moves-per-second", type=float, default=5)
    parser.add_argument(
        "--workers",
        type=int,
        default=shape.DEFAULT_WEB_PROCESSES,
        help="WEB_CONCURRENCY of make serve (default: make serve's own, two per core)",
    )
    parser.add_argument("--open-concurrency", type=int, default=50, help="streams opening at once")
    parser.add_argument("--base-url", help="a server already running on the same database")
    args = parser.parse_args()
    if not os.environ.get("DATABASE_URL", "").startswith("postgres"):
        sys.exit("set DATABASE_URL to a throw-away PostgreSQL database (see the module docstring)")
    # One socket per stream and long poll, here and in the server (which inherits the limit).
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))

    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connections

    call_command("migrate", verbosity=0)
    players = create_players(args.streams + args.polls)
    connections.close_all()

    server, base_url, pgid = None, args.base_url, None
    if base_url is None:
        logs = Path(tempfile.mkdtemp(prefix="streams-load-"))
        server, base_url = shape.web(
            {**os.environ, **shape.PLAIN_HTTP, "LOG_LEVEL": "WARNING"}, logs, args.workers
        )
        pgid = server.pid
    try:
        asyncio.run(run(args, players, base_url, pgid))
    finally:
        if server is not None:
            server.stop()


if __name__ == "__main__":
    main()
