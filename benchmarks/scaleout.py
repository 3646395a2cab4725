"""The scale-out drill: two web hosts behind HAProxy, two workers, PgBouncer, one PostgreSQL, one
Redis — one host and one worker killed in the middle of play, and nothing missed.

    python -m benchmarks.scaleout [--matches 10] [--streams 200] [--polls 50] [--workers N]

It starts on ports of its own (:mod:`benchmarks.shape`) a private PostgreSQL, PgBouncer in front
of it (``deploy/pgbouncer.ini``, transaction pooling: the service's ``DATABASE_TRANSACTION_POOLING``
and ``DATABASE_LISTEN_URL``) and a redis-server, two ``make serve`` process groups (the two
"hosts", ``--workers`` uvicorn processes each: make serve's own ``WEB_CONCURRENCY`` by default),
two Celery workers, ``celery beat``, and HAProxy with ``deploy/haproxy.cfg`` (its bind and server
lines replaced by the drill's ports, plain HTTP). Through HAProxy only: ``--matches`` players play
against three heuristic bots (as the drill's careful clients do), ``--streams`` feed streams of
those players stay open (reconnecting with ``Last-Event-ID``), and ``--polls`` long polls follow
the same feeds. After 20 s of play it kills (``kill -9`` of the process group) the first host and
the first worker, lets play go on for 60 s, stops the players and gives the clients 15 s to catch
up.

It prints: the answers the players got (500s counted apart), the matches stuck (not moved on by
four versions within 90 s of the kills), each stream's and poll's gaps (a ``seq`` skipped) and
what it missed 15 s after play stopped (events of its feed after the last one it received) and
when every follower had them all (up to 180 s after play stopped: late, or lost?), reconnections,
how long events took to arrive (from their writing, or the follower's start if later; before and
after the kill; the latest listed with the connection that brought them), the database
connections at their peak (sampled every 5 s): PgBouncer's server connections, PostgreSQL's
clients, and each host's, worker's and beat's connections to PgBouncer and straight to
PostgreSQL, and the cores each part kept busy.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from benchmarks import shape
from benchmarks.drill import Drill


def haproxy_config(
    port: int, hosts: list[int], directory: Path, tiers: list[int] | None = None
) -> str:
    """deploy/haproxy.cfg with the drill's frontend port and hosts (and, with ``tiers``, the
    ports of the connection tier's instances; else the waiting requests go to the hosts too), in
    plain HTTP, its log on stderr and its runtime API's socket in ``directory``."""
    lines = []
    for line in (shape.PROJECT_ROOT / "deploy" / "haproxy.cfg").read_text().splitlines():
        stripped = line.strip()
        if stripped.startswith("bind :443"):
            continue
        if stripped.startswith("bind "):
            line = f"    bind 127.0.0.1:{port}"
        if "ssl_fc" in stripped and "redirect" in stripped:
            continue
        if stripped.startswith("log /dev/log"):
            line = "    log stderr format raw local0"
        if stripped.startswith("stats socket"):
            line = f"    stats socket {directory / 'haproxy.sock'} mode 600 level admin"
        if stripped.startswith("use_backend tier") and not tiers:
            continue
        if stripped.startswith("server web"):
            if stripped.startswith("server web1 "):
                lines += [f"    server web{n} 127.0.0.1:{p} check" for n, p in enumerate(hosts, 1)]
            continue
        if stripped.startswith("server tier"):
            if stripped.startswith("server tier1 "):
                lines += [
                    f"    server tier{n} 127.0.0.1:{p} check" for n, p in enumerate(tiers or [], 1)
                ]
            continue
        lines.append(line)
    return "\n".join(lines) + "\n"


TIER_KEY = "drill-only-grip-key"
# How long after play stops the followers are given to receive every event of their feeds.
CATCH_UP_SECONDS = 180


class ScaleOut(Drill):
    bot_strategy = "heuristic"
    pooler = True

    def __init__(self, args: argparse.Namespace) -> None:
        self.web_processes = args.workers
        self.extra_settings = {"GRIP_KEY": TIER_KEY} if args.tier else {}
        super().__init__(args)  # PostgreSQL behind PgBouncer, one Redis, a host, a worker, beat
        self.worker2 = shape.worker(self.env, self.logs, "worker2")
        self.web2, second_url = shape.web(self.env, self.logs, args.workers, name="web2")
        self.hosts = [int(url.rsplit(":", 1)[1]) for url in (self.base_url, second_url)]
        # The connection tier: on each host a Pushpin in front of its web processes and a
        # publisher to it (deploy/switch-pushpin.service, deploy/switch-publisher.service).
        self.tiers: list[tuple[shape.PrivatePushpin, shape.Process]] = []
        for number, host in enumerate(self.hosts, 1) if args.tier else ():
            shape.wait_for_port(host, 60, f"host {number}")
            directory = self.logs / f"tier{number}"
            pushpin = shape.PrivatePushpin(directory, host, TIER_KEY)
            publisher = shape.Process(
                f"publisher{number}",
                [sys.executable, "manage.py", "publish_events"],
                {**self.env, "TIER_PUBLISH_URLS": pushpin.publish_url},
                self.logs,
            )
            self.tiers.append((pushpin, publisher))
        balancer_port = shape.free_port()
        config = self.logs / "haproxy.cfg"
        tier_ports = [pushpin.port for pushpin, _ in self.tiers]
        config.write_text(haproxy_config(balancer_port, self.hosts, self.logs, tier_ports))
        self.haproxy = subprocess.Popen(
            ["/usr/sbin/haproxy", "-f", str(config)],
            stdout=(self.logs / "haproxy.log").open("ab"),
            stderr=subprocess.STDOUT,
        )
        self.base_url = f"http://127.0.0.1:{balancer_port}"
        self.followers: list[shape.Follower] = []
        self.peaks: dict[str, int] = {}
        self.loads: list[float] = []
        self.survivor_checks: list[float] = []  # seconds each /healthz of host 2 took
        self.cpu_first: dict[str, float] = {}  # CPU seconds at the first sample and the last
        self.cpu_last: dict[str, float] = {}
        self.cpu_wall = (0.0, 0.0)  # when they were taken
        self.log_at_kill = 0  # the size of HAProxy's log when host 1 was killed
        self.killed_at = 0.0  # when (epoch seconds)

    def stop(self) -> None:
        self.haproxy.terminate()
        self.haproxy.wait(10)
        for pushpin, publisher in self.tiers:
            publisher.stop()
            pushpin.stop()
        for process in (self.web2, self.worker2):
            process.stop()
        super().stop()

    async def poll(self, session: Any, follower: shape.Follower) -> None:
        while True:
            path = f"/api/v1/players/me/events/?after={follower.last}&wait=20"
            try:
                follower.connected()
                async with session.get(path, headers=shape.auth(follower.token)) as answer:
                    if answer.status != 200:
                        follower.fail(str(answer.status))
                        await asyncio.sleep(1)
                        continue
                    page = await answer.json()
                    for event in page["results"]:
                        follower.receive(event["seq"], event["at"])
            except Exception as error:
                follower.fail(type(error).__name__)
                follower.reconnects += 1
                await asyncio.sleep(1)

    async def latest_seqs(self, session: Any) -> dict[str, int]:
        """Each followed feed's latest seq (by its player's token), asked until answered."""
        latest = {}
        for table in self.tables:
            while table.token not in latest:
                path = "/api/v1/players/me/events/?after=0&limit=1"
                async with session.get(path, headers=shape.auth(table.token)) as answer:
                    if answer.status == 200:
                        latest[table.token] = int((await answer.json())["count"])
                    else:
                        self.tally.add(answer.status)
                        await asyncio.sleep(1)
        return latest

    async def probe_survivor(self) -> None:
        """Ask host 2's /healthz directly (not through HAProxy) every second, as HAProxy's check
        does, and keep how long each answer took (a timeout counts as its 10 s)."""
        import aiohttp

        url = f"http://127.0.0.1:{self.hosts[1]}/healthz"
        async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=10)) as session:
            while True:
                started = time.monotonic()
                try:
                    async with session.get(url, headers={"Host": "localhost"}) as answer:
                        await answer.read()
                except (aiohttp.ClientError, TimeoutError):
                    pass
                self.survivor_checks.append(time.monotonic() - started)
                await asyncio.sleep(1)

    def haproxy_took_out(self, since: int) -> int:
        """How many times HAProxy marked host 2 down after the first ``since`` bytes of its log
        (it logs each change of a server's state on stderr)."""
        with (self.logs / "haproxy.log").open("rb") as log:
            log.seek(since)
            return log.read().count(b"Server web/web2 is DOWN")

    def connections(self) -> dict[str, int]:
        """The database connections open now: PgBouncer's to PostgreSQL, PostgreSQL's clients
        (PgBouncer's and the LISTEN connections), and each process group's to each."""
        assert self.services.pgbouncer is not None
        pgbouncer = self.services.pgbouncer
        groups = {
            name: shape.process_group(process.pid)
            for name, process in [
                ("host 1", self.web),
                ("host 2", self.web2),
                ("worker 1", self.worker),
                ("worker 2", self.worker2),
                ("beat", self.beat),
            ]
        }
        now = {
            "PgBouncer server connections": pgbouncer.server_connections(),
            "PostgreSQL client connections": self.postgres.client_connections(),
        }
        to_pgbouncer = shape.connections_to(pgbouncer.port, groups)
        to_postgres = shape.connections_to(self.postgres.port, groups)
        for name in groups:
            now[f"{name} to PgBouncer"] = to_pgbouncer[name]
            now[f"{name} to PostgreSQL"] = to_postgres[name]
        return now

    def cpu_seconds(self) -> dict[str, float]:
        """CPU seconds each part of the drill has spent so far (a killed group's are gone)."""
        assert self.services.pgbouncer is not None
        groups = {"host 1": self.web, "host 2": self.web2, "worker 1": self.worker}
        groups |= {"worker 2": self.worker2, "beat": self.beat}
        spent = {name: shape.cpu_seconds(shape.process_group(p.pid)) for name, p in groups.items()}
        spent["PostgreSQL"] = shape.cpu_seconds(self.postgres.pids())
        spent["PgBouncer"] = shape.cpu_seconds([self.services.pgbouncer.process.pid])
        spent["HAProxy"] = shape.cpu_seconds([self.haproxy.pid])
        usage = resource.getrusage(resource.RUSAGE_SELF)
        spent["this client"] = usage.ru_utime + usage.ru_stime
        spent["the machine"] = shape.machine_busy_seconds()
        return spent

    async def watch_connections(self) -> None:
        """Every 5 s: the connections' peaks so far, the CPU each part has spent, the load."""
        while True:
            for name, count in (await asyncio.to_thread(self.connections)).items():
                self.peaks[name] = max(self.peaks.get(name, 0), count)
            spent = await asyncio.to_thread(self.cpu_seconds)
            self.cpu_first = self.cpu_first or spent
            self.cpu_last = {name: max(self.cpu_last.get(name, 0), s) for name, s in spent.items()}
            self.cpu_wall = (self.cpu_wall[0] or time.monotonic(), time.monotonic())
            self.loads.append(os.getloadavg()[0])
            await asyncio.sleep(5)

    async def run(self) -> None:
        import aiohttp

        connector = aiohttp.TCPConnector(limit=0)
        timeout = aiohttp.ClientTimeout(total=None, sock_read=120)
        async with aiohttp.ClientSession(
            self.base_url, timeout=timeout, connector=connector
        ) as session:
            await shape.wait_until_healthy(session)
            shape.wait_for_port(self.hosts[1], 60, "the second host")
            self.tables = [await self.seat_a_player(session, n) for n in range(self.args.matches)]
            players = [asyncio.create_task(self.play(session, table)) for table in self.tables]
            clients = [
                asyncio.create_task(self.watch_connections()),
                asyncio.create_task(self.probe_survivor()),
            ]
            for number in range(self.args.streams + self.args.polls):
                follower = shape.Follower(self.tables[number % len(self.tables)].token)
                self.followers.append(follower)
                follow = shape.follow_stream if number < self.args.streams else self.poll
                clients.append(asyncio.create_task(follow(session, follower)))
                if number % 50 == 49:
                    await asyncio.sleep(0.5)  # open them in waves, as clients arrive
            await asyncio.sleep(20)
            killed_at = time.monotonic()
            self.killed_at = time.time()
            self.log_at_kill = (self.logs / "haproxy.log").stat().st_size
            self.web.kill()
            self.worker.kill()
            if self.tiers:  # the host's connection tier dies with it
                pushpin, publisher = self.tiers[0]
                pushpin.kill()
                publisher.kill()
            stuck, recovered_in = await self.matches_stuck()
            await asyncio.sleep(max(0.0, 60 - (time.monotonic() - killed_at)))
            for task in players:
                task.cancel()
            stopped_at = time.monotonic()
            await asyncio.sleep(15)  # the clients catch up
            latest_of = await self.latest_seqs(session)
            latest = [latest_of[f.token] for f in self.followers]
            missed = [seq - f.last for f, seq in zip(self.followers, latest, strict=True)]
            caught_up_in = await self.caught_up(latest, stopped_at)
            for task in clients:
                task.cancel()
        self.report(stuck, recovered_in, missed, caught_up_in)

    async def caught_up(self, latest: list[int], stopped_at: float) -> str:
        """Wait (up to CATCH_UP_SECONDS after play stopped) until every follower has its feed's
        ``latest`` seq: were the events it missed late, or lost? (No new event is written once
        the players have stopped.)"""
        while time.monotonic() - stopped_at < CATCH_UP_SECONDS:
            behind = sum(
                max(0, seq - f.last) for f, seq in zip(self.followers, latest, strict=True)
            )
            if not behind:
                seconds = time.monotonic() - stopped_at
                return f"every follower had them all {seconds:.0f} s after play stopped"
            await asyncio.sleep(1)
        return f"{behind} events still not received {CATCH_UP_SECONDS} s after play stopped"

    def report(self, stuck: int, recovered_in: float, missed: list[int], caught_up: str) -> None:
        streams = self.followers[: self.args.streams]
        polls = self.followers[self.args.streams :]
        failures: dict[str, int] = {}
        for follower in self.followers:
            for what, n in follower.failures.items():
                failures[what] = failures.get(what, 0) + n
        answers = dict(sorted(self.tally.statuses.items()))
        print(f"\nlogs: {self.logs}")
        print(
            f"{self.args.matches} players through HAProxy, {len(streams)} streams, {len(polls)} "
            "long polls; host 1 and worker 1 killed after 20 s"
        )
        print(f"player answers {answers}; 500s {self.tally.statuses['500']}")
        print(
            f"matches stuck {stuck} of {len(self.tables)} (all moving {recovered_in:.0f} s after)"
        )
        print(
            f"streams: events {sum(len(f.seqs) for f in streams)}, gaps "
            f"{sum(f.gaps() for f in streams)}, missed 15 s after play stopped "
            f"{sum(missed[: len(streams)])}, "
            f"reconnects {sum(f.reconnects for f in streams)}"
        )
        print(
            f"long polls: events {sum(len(f.seqs) for f in polls)}, gaps "
            f"{sum(f.gaps() for f in polls)}, missed 15 s after "
            f"play stopped {sum(missed[len(streams) :])}"
        )
        for kind, group in (("streams", streams), ("long polls", polls)):
            for when, before_kill in (("before the kill", True), ("after it", False)):
                delays = [
                    delay
                    for f in group
                    for delay, at in zip(f.delays, f.arrived, strict=True)
                    if (at < self.killed_at) == before_kill
                ]
                print(
                    f"{kind}, {when}: {len(delays)} events delivered, p50 "
                    f"{shape.percentile(delays, 0.5) * 1000:.0f} ms, p99 "
                    f"{shape.percentile(delays, 0.99) * 1000:.0f} ms, max "
                    f"{max(delays, default=0):.1f} s after they were written"
                )
        late = [(n, a) for n, f in enumerate(self.followers) for a in f.late]
        print(f"events later than {shape.LATE_SECONDS:.0f} s: {len(late)}")
        for number, arrival in sorted(late, key=lambda item: -item[1].delay)[:20]:
            kind = "stream" if number < len(streams) else "poll"
            print(
                f"  {kind} {number}: seq {arrival.seq} written {arrival.at}, {arrival.delay:.1f} s "
                f"late, on its connection {arrival.connection} after {arrival.into_connection:.1f} s"
            )
        print(f"client-side failures (then reconnected): {failures}")
        print(caught_up)
        checks = self.survivor_checks
        print(
            f"host 2's /healthz asked directly: {len(checks)} answers, slowest "
            f"{max(checks, default=0):.1f} s, {sum(c > 5 for c in checks)} over 5 s; HAProxy took "
            f"host 2 out {self.haproxy_took_out(self.log_at_kill)} times after the kill"
        )
        print(f"connections at the peak ({self.web_processes} web processes a host):")
        for name, count in self.peaks.items():
            print(f"  {name:32} {count:5}")
        seconds = self.cpu_wall[1] - self.cpu_wall[0]
        cores = ", ".join(
            f"{name} {(self.cpu_last[name] - self.cpu_first[name]) / seconds:.2f}"
            for name in self.cpu_first
        )
        print(f"cores busy over {seconds:.0f} s: {cores}")
        print(f"load average (1 min) during the run {min(self.loads):.1f}–{max(self.loads):.1f}")


def main() -> None:
    parser = shape.arguments(__doc__, matches=10, streams=200, workers=shape.DEFAULT_WEB_PROCESSES)
    parser.add_argument("--polls", type=int, default=50, help="long polls of the same feeds")
    parser.add_argument(
        "--tier",
        action="store_true",
        help="each host with its connection tier (Pushpin and the publisher): the first's dies too",
    )
    args = parser.parse_args()
    drill = ScaleOut(args)
    try:
        asyncio.run(drill.run())
    finally:
        drill.stop()


if __name__ == "__main__":
    main()
