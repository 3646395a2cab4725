"""Streams and long polls at scale through the connection tier, as the production shape runs them.

Everything is started here, on free ports, in a temporary directory (the machine's own services are
not touched): a PostgreSQL cluster of its own (``shape.PrivatePostgres``), ``make serve``
(``--workers`` processes), Pushpin from ``deploy/pushpin.conf`` in front of it
(``shape.PrivatePushpin``) and the publisher (``manage.py publish_events``). Then:

1. ``--matches`` heads-up matches are created and started through the API, between players made
   with the ORM (registering through the API would spend the time hashing passwords), and as many
   watchers as players;
2. ``--streams`` SSE streams are opened through the tier from ``--clients`` client processes
   (:mod:`sseclient`, at most 100 opening at once each; one refused is tried again a second
   later, as clients do): every player's feed and their own match (their seat's view), the rest
   spectators' streams spread evenly over the matches; then ``--polls`` long polls of
   spectators (``…/events/?after=N&wait=30``, asked again as each answers);
3. after ``--settle`` seconds, Pushpin's memory (PSS of its processes) against what it was
   before: memory per idle stream (and long poll);
4. ``--moves`` moves a second are played for ``--seconds`` seconds through the API (to the web
   processes directly, as HAProxy sends writes), round-robin over the matches;
5. after ``--drain`` seconds more, every stream and poll is checked against the database: each
   must have every event after its cursor, up to the last of its match or feed — *lost* is what
   is missing. A stream cut is reopened with ``Last-Event-ID``, as a client does.

Delivery is each event's arrival minus the time it was written (its ``at``; the same clock).
Printed: streams and polls opened, the time to open them, refusals, memory per idle stream, moves
played and their latency, delivery p50 / p95 / p99 / max (streams, polls), lost and repeated,
the CPU seconds of each part (web, Pushpin, publisher, PostgreSQL, clients) and the load.

    nice -n 10 .venv/bin/python -m benchmarks.tier_load --streams 10000 --polls 1000 --moves 50
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import shutil
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from benchmarks import shape, sseclient

GRIP_KEY = "benchmark-only-grip-key"
OPENING_AT_ONCE = 100  # per client process
LONG_POLL_SECONDS = 30
# Pushpin 1.36 asks Django again for at most this many held requests' next links a second.
PUSHPIN_UPDATES_PER_SECOND = 10


@dataclass(frozen=True)
class Follow:
    """One stream or long poll: what it follows (``("m", match id)`` or ``("f", user id)``), the
    path, the token, and its cursor when it opens."""

    topic: tuple[str, int]
    path: str
    token: str
    after: int


@dataclass
class Received:
    """What one follower received: the seqs in order, and for each when it was written and when
    it arrived (epoch seconds)."""

    seqs: list[int] = field(default_factory=list)
    times: list[tuple[float, float]] = field(default_factory=list)
    reconnects: int = 0

    def note(self, event: dict[str, Any]) -> None:
        self.seqs.append(event["seq"])
        self.times.append((datetime.fromisoformat(event["at"]).timestamp(), time.time()))

    def delays_ms(self, since: float) -> list[float]:
        """How late each event written after ``since`` arrived."""
        return [(arrived - written) * 1000 for written, arrived in self.times if written >= since]


# --- the client processes -----------------------------------------------------------------------


def client_process(
    port: int, streams: list[Follow], polls: list[Follow], address: str, pipe: Connection
) -> None:
    import uvloop

    uvloop.run(follow_all(port, streams, polls, address, pipe))


async def follow_all(
    port: int, streams: list[Follow], polls: list[Follow], address: str, pipe: Connection
) -> None:
    loop = asyncio.get_running_loop()
    started = time.time()
    received = [Received() for _ in [*streams, *polls]]
    refused: Counter[str] = Counter()
    gate = asyncio.Semaphore(OPENING_AT_ONCE)
    opened = asyncio.Event()
    opened_count = 0
    stop = asyncio.Event()

    async def hold(index: int, follow: Follow) -> None:
        nonlocal opened_count
        got = received[index]
        first = True
        while not stop.is_set():
            last = got.seqs[-1] if got.seqs else follow.after
            headers = {"Authorization": f"Token {follow.token}", "Last-Event-ID": str(last)}
            request = sseclient.get_request(follow.path, f"127.0.0.1:{port}", headers)

            def on_message(stream: sseclient.SseStream, message: sseclient.SseMessage) -> None:
                if message.data:
                    got.note(json.loads(message.data[0]))

            try:
                async with gate:
                    stream = await sseclient.open_stream(
                        "127.0.0.1", port, request, on_message, local_address=address
                    )
            except OSError as error:
                refused[type(error).__name__] += 1
                await asyncio.sleep(1)
                continue
            if stream.status != 200:
                refused[str(stream.status)] += 1
                stream.close()
                await asyncio.sleep(1)
                continue
            if first:
                first = False
                opened_count += 1
                if opened_count == len(streams):
                    opened.set()
            else:
                got.reconnects += 1
            closed = asyncio.create_task(stream.closed.wait())
            halted = asyncio.create_task(stop.wait())
            await asyncio.wait([closed, halted], return_when=asyncio.FIRST_COMPLETED)
            stream.close()
            closed.cancel()
            halted.cancel()

    async def poll(index: int, follow: Follow, session: Any) -> None:
        got = received[len(streams) + index]
        while not stop.is_set():
            last = got.seqs[-1] if got.seqs else follow.after
            url = f"http://127.0.0.1:{port}{follow.path}?after={last}&wait={LONG_POLL_SECONDS}"
            try:
                async with session.get(
                    url, headers={"Authorization": f"Token {follow.token}"}
                ) as r:
                    if r.status != 200:
                        refused[f"poll {r.status}"] += 1
                        await asyncio.sleep(1)
                        continue
                    for event in (await r.json())["results"]:
                        got.note(event)
            except (TimeoutError, OSError) as error:
                refused[f"poll {type(error).__name__}"] += 1
                await asyncio.sleep(1)

    import aiohttp

    connector = aiohttp.TCPConnector(limit=0, local_addr=(address, 0))
    timeout = aiohttp.ClientTimeout(total=LONG_POLL_SECONDS + 30)
    async with aiohttp.ClientSession(connector=connector, timeout=timeout) as session:
        holders = [asyncio.create_task(hold(i, f)) for i, f in enumerate(streams)]
        if not streams:
            opened.set()
        await opened.wait()
        pipe.send(("opened", time.time() - started, dict(refused)))
        await loop.run_in_executor(None, pipe.recv)  # "polls"
        pollers = [asyncio.create_task(poll(i, f, session)) for i, f in enumerate(polls)]
        await loop.run_in_executor(None, pipe.recv)  # "collect"
        stop.set()
        for task in [*holders, *pollers]:
            task.cancel()
        await asyncio.gather(*holders, *pollers, return_exceptions=True)
    pipe.send(("figures", received, dict(refused)))


# --- the run ------------------------------------------------------------------------------------


@dataclass
class Setup:
    matches: list[tuple[int, list[str], list[int]]]  # match id, the seats' tokens, their user ids
    watchers: list[str]


def create_accounts(count: int) -> list[tuple[str, int]]:
    from django.contrib.auth import get_user_model

    from games.models import Player
    from games.services import account_token

    users = get_user_model().objects.bulk_create(
        get_user_model()(username=f"tier-{i}", password="!") for i in range(count)
    )
    Player.objects.bulk_create(Player(user=user) for user in users)
    return [(account_token(user=user), user.pk) for user in users]


async def create_matches(base_url: str, count: int) -> Setup:
    import aiohttp

    players = await asyncio.to_thread(create_accounts, 3 * count)
    seated, watchers = players[: 2 * count], [token for token, _ in players[2 * count :]]
    matches = []
    async with aiohttp.ClientSession(base_url) as session:

        async def api(path: str, token: str, body: Any = None) -> Any:
            async with session.post(path, json=body, headers=shape.auth(token)) as answer:
                assert answer.status in (200, 201), await answer.text()
                return await answer.json()

        for i in range(count):
            (a, a_id), (b, b_id) = seated[2 * i], seated[2 * i + 1]
            match = await api("/api/v1/matches/", a, {"ruleset": "switch", "seats": 2})
            await api(f"/api/v1/matches/{match['id']}/join/", b)
            await api(f"/api/v1/matches/{match['id']}/start/", a)
            matches.append((match["id"], [a, b], [a_id, b_id]))
    return Setup(matches, watchers)


def follows(setup: Setup, streams: int, polls: int) -> tuple[list[Follow], list[Follow]]:
    """Every seated player's feed and match, then spectators round the matches; long polls too."""
    own: list[Follow] = []
    for match_id, tokens, user_ids in setup.matches:
        for token, user_id in zip(tokens, user_ids, strict=True):
            own.append(Follow(("f", user_id), "/api/v1/players/me/stream/", token, 0))
            own.append(Follow(("m", match_id), f"/api/v1/matches/{match_id}/stream/", token, 0))
    watching = []
    for i in range(max(0, streams - len(own))):
        match_id = setup.matches[i % len(setup.matches)][0]
        token = setup.watchers[i % len(setup.watchers)]
        watching.append(Follow(("m", match_id), f"/api/v1/matches/{match_id}/stream/", token, 0))
    polling = []
    for i in range(polls):
        match_id = setup.matches[i % len(setup.matches)][0]
        token = setup.watchers[(i + 1) % len(setup.watchers)]
        polling.append(Follow(("m", match_id), f"/api/v1/matches/{match_id}/events/", token, 0))
    return (own + watching)[:streams], polling


async def play_moves(base_url: str, setup: Setup, rate: float, seconds: float) -> list[float]:
    """``rate`` moves a second for ``seconds``, round-robin over the matches; each move's time."""
    import aiohttp

    latencies: list[float] = []
    loop = asyncio.get_running_loop()
    async with aiohttp.ClientSession(base_url) as session:

        async def api(method: str, path: str, token: str, body: Any = None) -> tuple[int, Any]:
            async with session.request(method, path, json=body, headers=shape.auth(token)) as r:
                return r.status, await r.json()

        to_move: dict[int, int] = {}  # the seat to move, as the last answer said

        busy: set[int] = set()  # matches whose last move is not answered yet: skipped

        async def move(match_id: int, tokens: list[str]) -> None:
            token = tokens[to_move.get(match_id, 0)]
            _, view = await api("GET", f"/api/v1/matches/{match_id}/", token)
            if view["status"] != "active":
                return
            if view["you"]["seat"] != view["to_move"]:
                token = tokens[view["to_move"]]
                _, view = await api("GET", f"/api/v1/matches/{match_id}/", token)
            if not view["legal_moves"]:
                return
            started = loop.time()
            status, answer = await api(
                "POST", f"/api/v1/matches/{match_id}/moves/", token, view["legal_moves"][0]
            )
            if status == 201:
                latencies.append(loop.time() - started)
                to_move[match_id] = answer["view"]["to_move"] or 0

        async def move_once(match_id: int, tokens: list[str]) -> None:
            busy.add(match_id)
            try:
                await move(match_id, tokens)
            finally:
                busy.discard(match_id)

        pending = set()
        start = loop.time()
        for n in range(int(rate * seconds)):
            await asyncio.sleep(max(0.0, start + n / rate - loop.time()))
            match_id, tokens, _ = setup.matches[n % len(setup.matches)]
            if match_id in busy:
                continue
            task = asyncio.create_task(move_once(match_id, tokens))
            pending.add(task)
            task.add_done_callback(pending.discard)
        await asyncio.gather(*pending)
    return latencies


def last_seqs() -> tuple[dict[int, int], dict[int, int]]:
    """The last seq of every match's log and every user's feed, now."""
    from games.models import Match, Player

    matches = dict(Match.objects.values_list("pk", "last_event_seq"))
    feeds = dict(Player.objects.values_list("user_id", "feed_seq"))
    return matches, feeds


def check(follow: Follow, got: Received, last: int) -> tuple[int, int]:
    """Events missing and events received twice."""
    expected = set(range(follow.after + 1, last + 1))
    seen = Counter(got.seqs)
    return len(expected - set(seen)), sum(n - 1 for n in seen.values() if n > 1)


def run(args: argparse.Namespace) -> None:
    directory = Path(tempfile.mkdtemp(prefix="switch-tier-load-"))
    postgres = shape.PrivatePostgres()
    env = shape.service_env(postgres.url, "", **shape.UNTHROTTLED, GRIP_KEY=GRIP_KEY)
    os.environ.update(env)
    import django

    django.setup()
    shape.migrate(env)
    web, base_url = shape.web(env, directory, args.workers)
    shape.wait_for_port(int(base_url.rsplit(":", 1)[1]), 60, "the web processes")
    pushpin = shape.PrivatePushpin(directory, int(base_url.rsplit(":", 1)[1]), GRIP_KEY)
    publisher = shape.Process(
        "publisher",
        [sys.executable, "manage.py", "publish_events"],
        {**env, "TIER_PUBLISH_URLS": pushpin.publish_url},
        directory,
    )
    try:
        measure(args, base_url, pushpin, [web, publisher], postgres)
    finally:
        publisher.stop(10)
        pushpin.stop()
        web.stop()
        postgres.stop()
        if args.keep:
            print(f"(logs kept in {directory})")
        else:
            shutil.rmtree(directory, ignore_errors=True)


def measure(
    args: argparse.Namespace,
    base_url: str,
    pushpin: shape.PrivatePushpin,
    processes: list[shape.Process],
    postgres: shape.PrivatePostgres,
) -> None:
    print(f"{time.strftime('%Y-%m-%d %H:%M')}: load {shape.load_average()}", flush=True)
    setup = asyncio.run(create_matches(base_url, args.matches))
    streams, polls = follows(setup, args.streams, args.polls)
    time.sleep(2)
    idle_before = shape.pss_mib(pushpin.pids())
    context = multiprocessing.get_context("fork")
    pipes, children = [], []
    for index in range(args.clients):
        ours, theirs = context.Pipe()
        share = (streams[index :: args.clients], polls[index :: args.clients])
        process = context.Process(
            target=client_process,
            args=(pushpin.port, *share, f"127.0.0.{20 + index}", theirs),
            daemon=True,
        )
        process.start()
        pipes.append(ours)
        children.append(process)
    refused: Counter[str] = Counter()
    open_seconds = 0.0
    for pipe in pipes:
        _, seconds, refusals = pipe.recv()
        open_seconds = max(open_seconds, seconds)
        refused.update(refusals)
    print(f"{len(streams):,} streams opened in {open_seconds:.0f} s", flush=True)
    for pipe in pipes:
        pipe.send("polls")
    # A second after a channel's first subscriber comes, Pushpin asks Django again for each stream
    # held on it (in case a publication went by meanwhile), ten channels a second at most: wait
    # for them all (one channel per seat and per feed, one per match for its spectators).
    channels = 5 * args.matches
    settle = max(args.settle, channels / PUSHPIN_UPDATES_PER_SECOND + 5)
    print(
        f"waiting {settle:.0f} s for Pushpin's first recovery of {channels:,} channels", flush=True
    )
    time.sleep(settle)
    idle_after = shape.pss_mib(pushpin.pids())
    per_stream_kib = (idle_after - idle_before) * 1024 / max(len(streams) + len(polls), 1)

    groups = {
        "web": [p for proc in processes[:1] for p in shape.process_group(proc.pid)],
        "pushpin": pushpin.pids(),
        "publisher": shape.process_group(processes[1].pid),
        "postgres": postgres.pids(),
        "clients": [c.pid for c in children if c.pid is not None] + [os.getpid()],
    }
    cpu_before = {name: shape.cpu_seconds(pids) for name, pids in groups.items()}
    busy_before = shape.machine_busy_seconds()
    started, play_from = time.monotonic(), time.time()
    latencies = asyncio.run(play_moves(base_url, setup, args.moves, args.seconds))
    played_for = time.monotonic() - started
    cpu = {name: shape.cpu_seconds(pids) - cpu_before[name] for name, pids in groups.items()}
    busy = shape.machine_busy_seconds() - busy_before
    time.sleep(args.drain)

    for pipe in pipes:
        pipe.send("collect")
    received: list[Received] = []
    for pipe, process in zip(pipes, children, strict=True):
        _, got, refusals = pipe.recv()
        received += got
        refused.update(refusals)
        process.join(30)
    # The followers as the clients returned them: each client its streams, then its polls.
    pairs: list[tuple[Follow, Received]] = []
    offset = 0
    for i in range(args.clients):
        mine = streams[i :: args.clients] + polls[i :: args.clients]
        pairs += list(zip(mine, received[offset : offset + len(mine)], strict=True))
        offset += len(mine)
    match_last, feed_last = last_seqs()
    lost = repeated = 0
    for follow, got in pairs:
        kind, topic_id = follow.topic
        last = (match_last if kind == "m" else feed_last)[topic_id]
        missing, twice = check(follow, got, last)
        lost += missing
        repeated += twice
    stream_ms = [d for f, g in pairs if f.path.endswith("stream/") for d in g.delays_ms(play_from)]
    poll_ms = [d for f, g in pairs if f.path.endswith("events/") for d in g.delays_ms(play_from)]
    reconnects = sum(g.reconnects for _, g in pairs)
    report(
        args,
        open_seconds=open_seconds,
        refused=refused,
        per_stream_kib=per_stream_kib,
        pushpin_mib=idle_after,
        latencies=latencies,
        played_for=played_for,
        stream_ms=stream_ms,
        poll_ms=poll_ms,
        lost=lost,
        repeated=repeated,
        reconnects=reconnects,
        cpu=cpu,
        busy=busy,
    )


def summary(values: list[float]) -> str:
    return "p50 {:.0f}  p95 {:.0f}  p99 {:.0f}  max {:.0f} ms ({:,} deliveries)".format(
        shape.percentile(values, 0.5),
        shape.percentile(values, 0.95),
        shape.percentile(values, 0.99),
        max(values, default=float("nan")),
        len(values),
    )


def report(args: argparse.Namespace, **figures: Any) -> None:
    latencies = [s * 1000 for s in figures["latencies"]]
    print(
        f"opened {args.streams:,} streams in {figures['open_seconds']:.0f} s and {args.polls:,}"
        f" long polls; refused at first, then retried: {dict(figures['refused']) or 'none'}"
    )
    print(
        f"Pushpin holding them idle: {figures['pushpin_mib']:.0f} MiB PSS,"
        f" {figures['per_stream_kib']:.1f} KiB per stream or poll"
    )
    print(
        f"moves: {len(latencies):,} in {figures['played_for']:.0f} s"
        f" ({len(latencies) / max(figures['played_for'], 1e-9):.1f}/s), answered"
        f" p50 {shape.percentile(latencies, 0.5):.0f} / p99 {shape.percentile(latencies, 0.99):.0f} ms"
    )
    print(f"delivery, streams: {summary(figures['stream_ms'])}")
    print(f"delivery, long polls: {summary(figures['poll_ms'])}")
    print(
        f"lost: {figures['lost']:,}; repeated: {figures['repeated']:,};"
        f" streams reconnected: {figures['reconnects']:,}"
    )
    cpu = ", ".join(f"{name} {seconds:.0f} s" for name, seconds in figures["cpu"].items())
    print(
        f"CPU while playing: {cpu}; machine busy {figures['busy']:.0f} of"
        f" {2 * figures['played_for']:.0f} core-seconds; load {shape.load_average()}"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=100)
    parser.add_argument("--streams", type=int, default=1000)
    parser.add_argument("--polls", type=int, default=100)
    parser.add_argument("--clients", type=int, default=2, help="client processes")
    parser.add_argument("--workers", type=int, default=2, help="web processes")
    parser.add_argument("--moves", type=float, default=10, help="moves played a second")
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--settle", type=float, default=5)
    parser.add_argument("--drain", type=float, default=5)
    parser.add_argument("--keep", action="store_true", help="keep the logs")
    run(parser.parse_args(argv))


if __name__ == "__main__":
    main()
