"""Pushpin and nchan side by side, as the connection tier of the event streams.

Both engines are Debian's packages (``pushpin``; ``nginx`` with ``libnginx-mod-nchan``), each
started here on free ports with a configuration of this script's own, in a temporary directory
(the machine's own services are never touched). Each holds streams the way the service would have
it hold them: a client's ``GET`` goes through the engine to an *origin* (a small aiohttp process
standing in for Django, which checks the caller and names the channel), which hands the request
over — Pushpin's ``Grip-Hold: stream`` with ``Grip-Channel``, nchan's ``X-Accel-Redirect`` to an
internal subscriber location — and the engine holds it from then on, sending a comment line after
15 s of silence. Then, for one engine after the other:

1. ``--streams`` SSE streams are opened from ``--clients`` client processes (:mod:`sseclient`),
   spread evenly over ``--channels`` channels (a table's audiences: a seat's view, its
   spectators, a player's feed), at most 200 opening at once per client process;
2. after ``--settle`` seconds the engine's memory (PSS, all its processes) is compared with what it
   was before: memory per idle stream;
3. ``--moves`` "moves" a second are published for ``--seconds`` seconds, each to ``--audiences``
   channels at random in one publishing request (as one commit would publish once per audience),
   each message carrying the time it was published; each client process notes, for every message
   received, how long after its publication it arrived;
4. after two seconds more the deliveries are counted against what was published (a channel's
   messages times its subscribers): *lost* is what never arrived.

It prints, per engine: streams opened (and refused), the time to open them, memory per idle
stream, delivery p50 / p95 / p99 / max, lost, and the engine's CPU seconds while publishing.
The client processes share the machine with the engine (run it with ``nice``: the figures are then
the engine's under a loaded machine, as production's would be)::

    nice -n 10 .venv/bin/python -m benchmarks.connection_tier --streams 10000 --moves 50
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import random
import shutil
import signal
import sys
import tempfile
import textwrap
import time
from collections import Counter
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from benchmarks import shape, sseclient

KEEPALIVE_SECONDS = 15
OPENING_AT_ONCE = 200  # per client process
OPEN_ATTEMPTS = 10
DRAIN_SECONDS = 2.0
# After the engine answers, before anything is measured: its processes connect to one another.
WARMUP_SECONDS = 5.0


# --- the origin: what Django's views would answer, minus Django -----------------------------------


def origin_app(engine: str) -> Any:
    from aiohttp import web

    async def stream(request: web.Request) -> web.Response:
        channel = request.match_info["channel"]
        if engine == "pushpin":
            headers = {
                "Content-Type": "text/event-stream",
                "Grip-Hold": "stream",
                "Grip-Channel": channel,
                "Grip-Keep-Alive": f": keepalive\\n\\n; format=cstring; timeout={KEEPALIVE_SECONDS}",
            }
            return web.Response(body=b"retry: 1000\n\n", headers=headers)
        return web.Response(
            headers={"X-Accel-Redirect": f"/internal/sub/{channel}", "X-Accel-Buffering": "no"}
        )

    app = web.Application()
    app.router.add_get("/stream/{channel}", stream)
    return app


def serve_origin(engine: str, port: int) -> None:
    from aiohttp import web

    web.run_app(
        origin_app(engine),
        host="127.0.0.1",
        port=port,
        backlog=4096,
        print=None,
        access_log=None,
    )


# --- the engines --------------------------------------------------------------------------------


class Engine:
    name = ""

    def __init__(self, directory: Path, origin_port: int) -> None:
        self.directory = directory
        self.origin_port = origin_port
        self.port = shape.free_port()
        self.publish_port = shape.free_port()
        self.process: shape.Process | None = None

    def start(self) -> None:
        raise NotImplementedError

    def pids(self) -> list[int]:
        """The engine's processes: the one started and all its descendants."""
        assert self.process is not None
        found, pending = [], [self.process.pid]
        while pending:
            pid = pending.pop()
            found.append(pid)
            pending += shape.children(pid)
        return found

    def stop(self) -> None:
        if self.process is not None:
            self.process.stop(10)

    async def publish(self, session: Any, items: list[tuple[str, str, dict[str, Any]]]) -> None:
        """``items``: (channel, event id, data) — one commit's messages, one per audience."""
        raise NotImplementedError


class Pushpin(Engine):
    name = "pushpin"
    # condure's two buffers per connection; a client's request head must fit in one.
    buffer_size = 8192
    log_level = 2  # 3 logs every message each process passes on

    def start(self) -> None:
        ports = [shape.free_port() for _ in range(3)]
        (self.directory / "run").mkdir()
        (self.directory / "routes").write_text(f"* 127.0.0.1:{self.origin_port}\n")
        config = f"""\
            [global]
            include={{libdir}}/internal.conf
            rundir={self.directory}/run
            ipc_prefix=bench-
            port_offset=0
            stats_connection_ttl=120

            [runner]
            services=condure,zurl,pushpin-proxy,pushpin-handler
            http_port=127.0.0.1:{self.port}
            logdir={self.directory}
            log_level={self.log_level}
            client_buffer_size={self.buffer_size}
            client_maxconn=60000

            [proxy]
            # Requests to the origin go through zurl, started by the runner with this run
            # directory (Debian's internal.conf expects a system zurl in /var/run/zurl).
            zurl_out_specs=ipc://{{rundir}}/{{ipc_prefix}}zurl-in
            zurl_out_stream_specs=ipc://{{rundir}}/{{ipc_prefix}}zurl-in-stream
            zurl_in_specs=ipc://{{rundir}}/{{ipc_prefix}}zurl-out
            routesfile=routes
            sig_key=benchmark-only
            updates_check=off

            [handler]
            push_in_spec=tcp://127.0.0.1:{ports[0]}
            push_in_sub_specs=tcp://127.0.0.1:{ports[1]}
            push_in_http_addr=127.0.0.1
            push_in_http_port={self.publish_port}
            command_spec=tcp://127.0.0.1:{ports[2]}
            stats_spec=ipc://{{rundir}}/{{ipc_prefix}}stats
            # No message_rate: Debian's pushpin.conf sets 2500, and any rate makes the handler
            # deliver in timed batches — at 50 publications a second, p50 130-260 ms.
        """
        conf = self.directory / "pushpin.conf"
        conf.write_text(textwrap.dedent(config))
        self.process = shape.Process(
            "pushpin", ["pushpin", f"--config={conf}", "--merge-output"], os.environ, self.directory
        )
        shape.wait_for_port(self.port, 30, "pushpin")
        shape.wait_for_port(self.publish_port, 30, "pushpin's publishing endpoint")

    async def publish(self, session: Any, items: list[tuple[str, str, dict[str, Any]]]) -> None:
        body = {
            "items": [
                {
                    "channel": channel,
                    "formats": {
                        "http-stream": {
                            "content": f"id: {event_id}\nevent: move\ndata: {json.dumps(data)}\n\n"
                        }
                    },
                }
                for channel, event_id, data in items
            ]
        }
        url = f"http://127.0.0.1:{self.publish_port}/publish/"
        async with session.post(url, json=body) as answer:
            answer.raise_for_status()


class Nchan(Engine):
    name = "nchan"

    def start(self) -> None:
        config = f"""\
            load_module /usr/lib/nginx/modules/ngx_nchan_module.so;
            worker_processes auto;
            worker_rlimit_nofile 20000;
            pid {self.directory}/nginx.pid;
            error_log {self.directory}/error.log warn;
            events {{ worker_connections 19000; }}
            http {{
                access_log off;
                client_body_temp_path {self.directory}/body;
                proxy_temp_path {self.directory}/proxy;
                nchan_shared_memory_size 256M;
                nchan_message_buffer_length 20;
                nchan_message_timeout 1h;
                upstream origin {{ server 127.0.0.1:{self.origin_port}; keepalive 64; }}
                server {{
                    listen 127.0.0.1:{self.port} backlog=4096;
                    location /stream/ {{
                        proxy_pass http://origin;
                        proxy_http_version 1.1;
                        proxy_set_header Connection "";
                    }}
                    location ~ ^/internal/sub/(.+)$ {{
                        internal;
                        nchan_subscriber eventsource;
                        nchan_channel_id $1;
                        nchan_subscriber_first_message newest;
                        nchan_eventsource_ping_interval {KEEPALIVE_SECONDS};
                        nchan_eventsource_ping_comment keepalive;
                    }}
                }}
                server {{
                    listen 127.0.0.1:{self.publish_port};
                    location ~ ^/pub/(.+)$ {{
                        nchan_publisher;
                        nchan_channel_id $1;
                    }}
                }}
            }}
        """
        conf = self.directory / "nginx.conf"
        conf.write_text(textwrap.dedent(config))
        command = ["nginx", "-p", str(self.directory), "-c", str(conf), "-g", "daemon off;"]
        self.process = shape.Process("nginx", command, os.environ, self.directory)
        shape.wait_for_port(self.port, 30, "nginx")

    async def publish(self, session: Any, items: list[tuple[str, str, dict[str, Any]]]) -> None:
        """nchan takes one message a request: the audiences' messages go together, at once."""

        async def one(channel: str, data: dict[str, Any]) -> None:
            url = f"http://127.0.0.1:{self.publish_port}/pub/{channel}"
            headers = {"X-EventSource-Event": "move"}
            async with session.post(url, data=json.dumps(data), headers=headers) as answer:
                answer.raise_for_status()

        await asyncio.gather(*(one(channel, data) for channel, _, data in items))


ENGINES: dict[str, type[Engine]] = {"pushpin": Pushpin, "nchan": Nchan}


# --- the client processes -----------------------------------------------------------------------


@dataclass
class Share:
    """What one client process opens: streams ``first``, ``first + step``, … below ``total``."""

    port: int
    first: int
    step: int
    total: int
    channels: int
    local_address: str


def channel_of(stream: int, channels: int) -> str:
    return f"c{stream % channels}"


def client_process(share: Share, pipe: Connection) -> None:
    import uvloop

    uvloop.run(hold_streams(share, pipe))


async def hold_streams(share: Share, pipe: Connection) -> None:
    loop = asyncio.get_running_loop()
    delays: list[float] = []
    received: Counter[str] = Counter()
    comments = 0

    def on_message(stream: sseclient.SseStream, message: sseclient.SseMessage) -> None:
        data = json.loads(message.data[0])
        delays.append(time.time() - data["t"])
        received[data["c"]] += 1

    def on_comment(stream: sseclient.SseStream) -> None:
        nonlocal comments
        comments += 1

    gate = asyncio.Semaphore(OPENING_AT_ONCE)
    refused: Counter[str] = Counter()

    async def open_one(stream: int) -> sseclient.SseStream | None:
        """Open the stream; refused (an error status, a connection refused or reset), try again
        a second later, as clients do, up to :data:`OPEN_ATTEMPTS` times."""
        path = f"/stream/{channel_of(stream, share.channels)}"
        request = sseclient.get_request(path, f"127.0.0.1:{share.port}")
        for _ in range(OPEN_ATTEMPTS):
            async with gate:
                try:
                    opened = await sseclient.open_stream(
                        "127.0.0.1",
                        share.port,
                        request,
                        on_message,
                        on_comment,
                        local_address=share.local_address,
                    )
                except OSError as error:
                    refused[type(error).__name__] += 1
                    opened = None
            if opened is not None and opened.status == 200:
                return opened
            if opened is not None:
                refused[str(opened.status)] += 1
                opened.close()
            await asyncio.sleep(1)
        return None

    started = time.monotonic()
    streams = await asyncio.gather(
        *(open_one(i) for i in range(share.first, share.total, share.step))
    )
    held = [s for s in streams if s is not None]
    channels = Counter(
        channel_of(i, share.channels)
        for i, s in zip(range(share.first, share.total, share.step), streams, strict=True)
        if s is not None
    )
    pipe.send(("opened", len(held), dict(refused), time.monotonic() - started, channels))
    await loop.run_in_executor(None, pipe.recv)  # "collect"
    ended = sum(1 for s in held if s.closed.is_set())
    pipe.send(("figures", delays, dict(received), comments, ended))
    for stream in held:
        stream.close()


# --- one engine's run ---------------------------------------------------------------------------


@dataclass
class Result:
    engine: str
    opened: int = 0
    refused: dict[str, int] | None = None
    open_seconds: float = 0.0
    kib_per_stream: float = 0.0
    engine_mib_idle: float = 0.0
    kib_per_stream_by_process: dict[str, float] | None = None
    delays: list[float] | None = None
    published: int = 0
    expected: int = 0
    received: int = 0
    ended: int = 0
    comments: int = 0
    cpu_seconds: float = 0.0
    busy_seconds: float = 0.0
    seconds: float = 0.0


def run_engine(name: str, args: argparse.Namespace) -> Result:
    directory = Path(tempfile.mkdtemp(prefix=f"switch-{name}-"))
    origin_port = shape.free_port()
    origin = shape.Process(
        "origin",
        [sys.executable, "-m", "benchmarks.connection_tier", "--origin", name, str(origin_port)],
        os.environ,
        directory,
    )
    engine = ENGINES[name](directory, origin_port)
    if isinstance(engine, Pushpin):
        engine.buffer_size = args.pushpin_buffer
    try:
        shape.wait_for_port(origin_port, 30, "the origin")
        engine.start()
        return measure(engine, args)
    finally:
        engine.stop()
        origin.stop(5)
        if args.keep:
            print(f"(logs and configuration kept in {directory})")
        else:
            shutil.rmtree(directory, ignore_errors=True)


def measure(engine: Engine, args: argparse.Namespace) -> Result:
    result = Result(engine.name)
    time.sleep(WARMUP_SECONDS)
    before = shape.pss_mib(engine.pids())
    before_by_process = pss_by_process(engine.pids())
    context = multiprocessing.get_context("fork")
    pipes, processes = [], []
    for index in range(args.clients):
        share = Share(
            engine.port, index, args.clients, args.streams, args.channels, f"127.0.0.{10 + index}"
        )
        ours, theirs = context.Pipe()
        process = context.Process(target=client_process, args=(share, theirs), daemon=True)
        process.start()
        pipes.append(ours)
        processes.append(process)
    refused: Counter[str] = Counter()
    subscribers: Counter[str] = Counter()
    for pipe in pipes:
        _, opened, refusals, seconds, channels = pipe.recv()
        result.opened += opened
        refused.update(refusals)
        subscribers.update(channels)
        result.open_seconds = max(result.open_seconds, seconds)
    result.refused = dict(refused)
    time.sleep(args.settle)
    result.engine_mib_idle = shape.pss_mib(engine.pids())
    result.kib_per_stream = (result.engine_mib_idle - before) * 1024 / max(result.opened, 1)
    result.kib_per_stream_by_process = {
        name: (mib - before_by_process.get(name, 0.0)) * 1024 / max(result.opened, 1)
        for name, mib in pss_by_process(engine.pids()).items()
    }

    published: Counter[str] = Counter()
    cpu_before, busy_before = shape.cpu_seconds(engine.pids()), shape.machine_busy_seconds()
    started = time.monotonic()
    asyncio.run(publish_moves(engine, args, published))
    result.seconds = time.monotonic() - started
    result.cpu_seconds = shape.cpu_seconds(engine.pids()) - cpu_before
    result.busy_seconds = shape.machine_busy_seconds() - busy_before
    time.sleep(DRAIN_SECONDS)

    result.published = sum(published.values())
    result.expected = sum(count * subscribers[channel] for channel, count in published.items())
    result.delays = []
    for pipe in pipes:
        pipe.send("collect")
    for pipe, process in zip(pipes, processes, strict=True):
        _, delays, received, comments, ended = pipe.recv()
        result.delays += delays
        result.received += sum(received.values())
        result.comments += comments
        result.ended += ended
        process.join(30)
    return result


def pss_by_process(pids: list[int]) -> dict[str, float]:
    """MiB of PSS per program (``/proc/<pid>/comm``): which part of an engine holds the memory."""
    by_name: dict[str, float] = {}
    for pid in pids:
        try:
            name = Path(f"/proc/{pid}/comm").read_text().strip()
        except OSError:
            continue
        by_name[name] = by_name.get(name, 0.0) + shape.pss_mib([pid])
    return by_name


async def publish_moves(engine: Engine, args: argparse.Namespace, published: Counter[str]) -> None:
    import aiohttp

    loop = asyncio.get_running_loop()
    interval = 1 / args.moves
    pending: set[asyncio.Task[None]] = set()
    connector = aiohttp.TCPConnector(limit=64)
    async with aiohttp.ClientSession(connector=connector) as session:
        start = loop.time()
        for number in range(int(args.moves * args.seconds)):
            await asyncio.sleep(max(0.0, start + number * interval - loop.time()))
            channels = random.sample(range(args.channels), args.audiences)
            items = [
                (f"c{c}", str(number), {"t": time.time(), "c": f"c{c}", "n": number})
                for c in channels
            ]
            for channel, _, _ in items:
                published[channel] += 1
            task = asyncio.create_task(engine.publish(session, items))
            pending.add(task)
            task.add_done_callback(pending.discard)
        await asyncio.gather(*pending)


def report(result: Result, args: argparse.Namespace) -> None:
    delays = result.delays or []
    ms = [d * 1000 for d in delays]
    lost = result.expected - result.received
    print(f"== {result.engine}")
    print(
        f"streams: {result.opened:,} opened of {args.streams:,} in {result.open_seconds:.1f} s"
        + (f"; refused at first, then retried: {result.refused}" if result.refused else "")
        + f"; {result.ended} ended before the end"
    )
    print(
        f"memory: {result.engine_mib_idle:.1f} MiB PSS holding them idle,"
        f" {result.kib_per_stream:.1f} KiB per idle stream ("
        + ", ".join(f"{n} {k:.1f}" for n, k in (result.kib_per_stream_by_process or {}).items())
        + ")"
    )
    print(
        f"publishing: {result.published:,} messages ({args.moves} moves/s × {args.audiences}"
        f" audiences, {result.seconds:.0f} s); {result.expected:,} deliveries due,"
        f" {result.received:,} received, lost {lost:,}"
    )
    print(
        "delivery ms: p50 {:.1f}  p95 {:.1f}  p99 {:.1f}  max {:.1f}".format(
            shape.percentile(ms, 0.5),
            shape.percentile(ms, 0.95),
            shape.percentile(ms, 0.99),
            max(ms, default=float("nan")),
        )
    )
    print(
        f"engine CPU: {result.cpu_seconds:.1f} s in {result.seconds:.0f} s"
        f" ({100 * result.cpu_seconds / max(result.seconds, 1e-9):.0f} % of one core);"
        f" machine busy {result.busy_seconds:.1f} s of {2 * result.seconds:.0f};"
        f" keep-alive comments received {result.comments:,}; load {shape.load_average()}"
    )


def main(argv: list[str] | None = None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] == "--origin":
        signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
        serve_origin(argv[1], int(argv[2]))
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engines", default="pushpin,nchan", help="comma-separated, in order")
    parser.add_argument("--streams", type=int, default=2000)
    parser.add_argument("--channels", type=int, default=500)
    parser.add_argument("--clients", type=int, default=2, help="client processes")
    parser.add_argument("--moves", type=float, default=50, help="moves published a second")
    parser.add_argument("--audiences", type=int, default=3, help="channels each move goes to")
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--settle", type=float, default=5)
    parser.add_argument("--pushpin-buffer", type=int, default=Pushpin.buffer_size)
    parser.add_argument("--keep", action="store_true", help="keep each engine's logs")
    args = parser.parse_args(argv)
    print(
        f"{time.strftime('%Y-%m-%d %H:%M')}: {args.streams:,} streams over {args.channels:,}"
        f" channels from {args.clients} client processes; load {shape.load_average()}"
    )
    for name in args.engines.split(","):
        report(run_engine(name, args), args)


if __name__ == "__main__":
    main()
