"""The restart drill: each web host behind HAProxy restarted under load, and every answer counted.

    python -m benchmarks.restarts [--matches 20] [--drain 5] [--rounds 1]

It starts the production shape on ports of its own (:mod:`benchmarks.shape`): a private PostgreSQL
and redis-server, two web hosts as ``deploy/switch-web.service`` runs them (``python -m
switchsite.serve``, two processes each), a worker, beat, and HAProxy from ``deploy/haproxy.cfg``
(plain HTTP, its runtime API on a socket of its own). ``--matches`` players play against server bots
through HAProxy as careful clients do (a move with an ``Idempotency-Key``), each also holding a
long poll of its feed open all the time, so that requests are in flight whenever a host stops.

Then each host in turn is stopped as systemd stops it — SIGTERM to every process of the unit — and
started again once it has exited; the next waits until HAProxy has the first back in rotation.
With ``--drain`` seconds (``SHUTDOWN_DRAIN_SECONDS``) a host first answers its checks 404 and
HAProxy stops sending it new requests; ``--drain 0`` stops at once, as before draining existed.
It prints, for each restart, how long the host took to stop, the states HAProxy saw it in, and the
answers the players got meanwhile; an error is a 5xx or a request cut off or refused. The figures
in docs/performance.md ("Restarts") come from this script.
"""

from __future__ import annotations

import argparse
import asyncio
import csv
import socket
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

from benchmarks import shape
from benchmarks.drill import Drill, Table, Tally
from benchmarks.scaleout import haproxy_config


class Host:
    """A web host as its unit runs it: ``python -m switchsite.serve``, stopped by SIGTERM to the
    whole group (systemd's control-group kill), started again on the same port."""

    def __init__(self, env: dict[str, str], logs: Path, name: str, drain: float) -> None:
        self.port = shape.free_port()
        settings = {"PORT": str(self.port), "WEB_CONCURRENCY": "2", "LOG_LEVEL": "WARNING"}
        command = [sys.executable, "-m", "switchsite.serve"]
        env = {**env, **settings, "SHUTDOWN_DRAIN_SECONDS": str(drain)}
        self.process = shape.Process(name, command, env, logs)

    def restart(self) -> float:
        """Stop (waiting for every process to exit) and start; seconds it took to stop."""
        started = time.monotonic()
        self.process.stop(seconds=60)
        stopped_in = time.monotonic() - started
        self.process.start()
        return stopped_in


class Restarts(Drill):
    bot_strategy = "random"

    def __init__(self, args: argparse.Namespace) -> None:
        super().__init__(args)  # PostgreSQL, Redis, a make serve (not used), a worker, beat
        self.web.stop()
        self.hosts = [Host(self.env, self.logs, f"web{n}", args.drain) for n in (1, 2)]
        for host in self.hosts:
            shape.wait_for_port(host.port, 120, host.process.name)
        self.socket = self.logs / "haproxy.sock"
        balancer_port = shape.free_port()
        config = self.logs / "haproxy.cfg"
        config.write_text(haproxy_config(balancer_port, [h.port for h in self.hosts], self.logs))
        self.haproxy = shape.Process(
            "haproxy", ["/usr/sbin/haproxy", "-f", str(config)], self.env, self.logs
        )
        self.base_url = f"http://127.0.0.1:{balancer_port}"
        self.polls: Counter[str] = Counter()

    def stop(self) -> None:
        self.haproxy.stop()
        for host in self.hosts:
            host.process.stop()
        super().stop()

    def haproxy_says(self, command: str) -> str:
        with socket.socket(socket.AF_UNIX) as runtime:
            runtime.connect(str(self.socket))
            runtime.sendall(command.encode() + b"\n")
            return b"".join(iter(lambda: runtime.recv(65536), b"")).decode()

    def in_rotation(self, name: str) -> bool:
        """Whether HAProxy sends the host new requests: its status UP (not NOLB: draining; not
        DOWN, nor "UP 1/3": going down)."""
        lines = self.haproxy_says("show stat").splitlines()
        header = lines[0].lstrip("# ").split(",")
        for row in csv.DictReader(lines[1:], fieldnames=header):
            if row["pxname"] == "web" and row["svname"] == name:
                return row["status"] == "UP"
        return False

    async def run(self) -> None:
        import aiohttp

        timeout = aiohttp.ClientTimeout(total=60)
        async with aiohttp.ClientSession(self.base_url, timeout=timeout) as session:
            await shape.wait_until_healthy(session)
            while not all(self.in_rotation(f"web{n}") for n in (1, 2)):
                await asyncio.sleep(0.5)
            self.tables = [await self.seat_a_player(session, n) for n in range(self.args.matches)]
            tasks = [asyncio.create_task(self.play(session, t)) for t in self.tables]
            tasks += [asyncio.create_task(self.poll(session, t)) for t in self.tables]
            await asyncio.sleep(10)  # everyone is playing
            lines = []
            for round_number in range(self.args.rounds):
                for n, host in enumerate(self.hosts, 1):
                    lines.append(await self.restart(round_number, n, host))
            await asyncio.sleep(5)
            for task in tasks:
                task.cancel()
        print(f"\nlogs: {self.logs}")
        for line in lines:
            print(line)

    async def poll(self, session: Any, table: Table) -> None:
        """The player's feed, long-polled for 20 s at a time, over and over: always in flight."""
        after = 0
        while True:
            path = f"/api/v1/players/me/events/?after={after}&wait=20&limit=500"
            status, page = await self.request(session, "GET", path, shape.auth(table.token))
            self.polls[str(status)] += 1
            if status == 200:
                after = page["results"][-1]["seq"] if page["results"] else after
            else:
                await asyncio.sleep(1)

    async def restart(self, round_number: int, n: int, host: Host) -> str:
        self.tally = Tally()
        polls_before = Counter(self.polls)
        log = self.logs / "haproxy.log"
        log_before = log.stat().st_size
        started = time.monotonic()
        stopped_in = await asyncio.to_thread(host.restart)
        await asyncio.to_thread(shape.wait_for_port, host.port, 120, host.process.name)
        while not self.in_rotation(f"web{n}"):
            await asyncio.sleep(0.5)
        back_in = time.monotonic() - started
        with log.open("rb") as haproxy_log:
            haproxy_log.seek(log_before)
            states: list[str] = []
            for line in haproxy_log.read().decode(errors="replace").splitlines():
                if f"Server web/web{n} " in line:
                    state = line.split(f"web/web{n} ", 1)[1].split(",")[0]
                    if not states or states[-1] != state:  # HAProxy writes each twice here
                        states.append(state)
        polls = {k: v - polls_before[k] for k, v in self.polls.items() if v > polls_before[k]}
        answers = dict(sorted(self.tally.statuses.items()))
        errors = sum(v for k, v in answers.items() if k in ("500", "503", "5xx", "refused"))
        return (
            f"round {round_number + 1}, web{n}: stopped in {stopped_in:.1f} s, back in rotation "
            f"{back_in:.1f} s after SIGTERM; HAProxy saw it {' → '.join(states) or 'no change'}; "
            f"answers meanwhile {answers} (long polls {polls}); errors {errors}"
        )


def main() -> None:
    parser = shape.arguments(__doc__, matches=20)
    parser.add_argument("--drain", type=float, default=5.0, help="SHUTDOWN_DRAIN_SECONDS")
    parser.add_argument("--rounds", type=int, default=1, help="restarts of each host")
    args = parser.parse_args()
    drill = Restarts(args)
    try:
        asyncio.run(drill.run())
    finally:
        drill.stop()
    print(f"machine load: {shape.load_average()}")


if __name__ == "__main__":
    main()
