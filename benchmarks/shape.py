"""The production shape started from a script: a private PostgreSQL cluster and redis-server of the
script's own (on free ports, in a temporary directory, so the machine's services are never
touched), and the service's processes as docs/operations.md runs them — ``make serve`` (uvicorn),
``make worker``, ``make beat`` — each of which can be killed, stopped and started again.

Used by the load benchmarks, the fault drill and the tests that start real processes (a free port,
a private redis-server); nothing here is imported by the service.
"""

from __future__ import annotations

import argparse
import asyncio
import configparser
import contextlib
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

PROJECT_ROOT = Path(__file__).resolve().parent.parent


# Debian's headless Chromium as the browser tests and the client's benchmark drive it (through
# Playwright, which never downloads a browser of its own): kept from reaching the network by itself.
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def chromium_path() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_for_port(port: int, seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.1)
    raise SystemExit(f"{what} did not come up on port {port}")


class Process:
    """One of the service's processes in its own process group (so that killing it kills its
    children: uvicorn's and Celery's worker processes), its output in a log file."""

    def __init__(self, name: str, command: list[str], env: Mapping[str, str], logs: Path) -> None:
        self.name, self.command, self.env = name, command, dict(env)
        self.log = logs / f"{name}.log"
        self.popen: subprocess.Popen[bytes] | None = None
        self.start()

    def start(self) -> None:
        with self.log.open("ab") as log:
            self.popen = subprocess.Popen(
                self.command,
                cwd=PROJECT_ROOT,
                env=self.env,
                stdout=log,
                stderr=log,
                start_new_session=True,
            )

    @property
    def pid(self) -> int:
        assert self.popen is not None
        return self.popen.pid

    def alive(self) -> bool:
        return self.popen is not None and self.popen.poll() is None

    def kill(self) -> None:
        """``kill -9`` of the whole group: nothing acknowledged, nothing handed back."""
        self._signal(signal.SIGKILL)
        self._wait(10)

    def stop(self, seconds: float = 30) -> None:
        if self.alive():
            self._signal(signal.SIGTERM)
            if not self._wait(seconds):
                self.kill()

    def _signal(self, signum: int) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.pid, signum)

    def _wait(self, seconds: float) -> bool:
        assert self.popen is not None
        try:
            self.popen.wait(seconds)
        except subprocess.TimeoutExpired:
            return False
        return True


class PrivatePostgres:
    """A PostgreSQL cluster of the script's own: ``initdb`` (as the ``postgres`` user when run as
    root, which PostgreSQL refuses to be), trust authentication, a free port."""

    def __init__(self) -> None:
        self.bin = Path(sorted(Path("/usr/lib/postgresql").glob("*/bin"))[-1])
        directory = Path(tempfile.mkdtemp(prefix="switch-postgres-"))
        self.data = directory / "data"
        self.port = free_port()
        if os.geteuid() == 0:
            shutil.chown(directory, "postgres")
        self._run("initdb", "-D", str(self.data), "-A", "trust", "-U", "postgres", "--no-sync")
        self.start()
        self._run("createdb", "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", "switch")

    @property
    def url(self) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/switch"

    def start(self) -> None:
        options = f"-p {self.port} -k {self.data} -c listen_addresses=127.0.0.1 -c fsync=off"
        self._run(
            "pg_ctl",
            "-D",
            str(self.data),
            "-o",
            options,
            "-w",
            "-l",
            str(self.data / "log"),
            "start",
        )

    def stop(self) -> None:
        self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop")

    def client_connections(self) -> int:
        """The connections open to it from clients (not its own helpers, nor the one asking)."""
        query = (
            "SELECT count(*) FROM pg_stat_activity"
            " WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()"
        )
        command = [
            str(self.bin / "psql"),
            "-h",
            "127.0.0.1",
            "-p",
            str(self.port),
            "-U",
            "postgres",
        ]
        out = subprocess.run(
            [*command, "-d", "switch", "-Atc", query], capture_output=True, text=True, check=True
        )
        return int(out.stdout.split()[0])

    def pids(self) -> list[int]:
        """The postmaster and its children (the backends, one per connection, and the helpers)."""
        postmaster = int((self.data / "postmaster.pid").read_text().split()[0])
        return [postmaster, *children(postmaster)]

    def _run(self, program: str, *args: str) -> None:
        subprocess.run(
            as_postgres_user([str(self.bin / program), *args]),
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )


def as_postgres_user(command: list[str]) -> list[str]:
    """PostgreSQL's programs and PgBouncer refuse to run as root: as root, run them as postgres."""
    return ["runuser", "-u", "postgres", "--", *command] if os.geteuid() == 0 else command


# What PostgreSQL sees from PgBouncer: its server connections, in each state (SHOW POOLS).
PGBOUNCER_SERVER_STATES = ("sv_active", "sv_idle", "sv_used", "sv_tested", "sv_login")


class PrivatePgBouncer:
    """``deploy/pgbouncer.ini`` (transaction pooling) in front of a PostgreSQL database, on a free
    port, trusting its clients, its files in a directory of its own that the postgres user owns.
    ``settings`` replace the shipped file's (a smaller pool, say)."""

    program = "/usr/sbin/pgbouncer"

    def __init__(self, host: str, port: int, database: str, user: str, **settings: str) -> None:
        self.directory = Path(tempfile.mkdtemp(prefix="switch-pgbouncer-"))
        self.database, self.user, self.port = database, user, free_port()
        config = configparser.ConfigParser(interpolation=None, delimiters=("=",))
        config.read(PROJECT_ROOT / "deploy" / "pgbouncer.ini")
        shipped = config["databases"]["switch"]
        config.remove_option("databases", "switch")
        config["databases"][database] = (
            shipped.replace("host=db.internal", f"host={host}")
            .replace("port=5432", f"port={port}")
            .replace("dbname=switch", f"dbname={database}")
        )
        users = self.directory / "userlist.txt"
        users.write_text(f'"{user}" ""\n')
        config["pgbouncer"].update(
            listen_port=str(self.port),
            auth_type="trust",
            auth_file=str(users),
            admin_users=user,
            logfile=str(self.directory / "pgbouncer.log"),
            pidfile=str(self.directory / "pgbouncer.pid"),
            unix_socket_dir="",
            **settings,
        )
        ini = self.directory / "pgbouncer.ini"
        with ini.open("w") as out:
            config.write(out)
        if os.geteuid() == 0:
            for path in (self.directory, ini, users):
                shutil.chown(path, "postgres")
        self.process = subprocess.Popen(  # it logs to its logfile
            as_postgres_user([self.program, str(ini)]),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        wait_for_port(self.port, 20, "pgbouncer")

    @property
    def url(self) -> str:
        return f"postgres://{self.user}@127.0.0.1:{self.port}/{self.database}"

    def psql(self, database: str, query: str) -> list[dict[str, str]]:
        """A query through it (``database`` "pgbouncer": its admin console), one dict a row."""
        command = ["psql", "-h", "127.0.0.1", "-p", str(self.port), "-U", self.user, "-d", database]
        out = subprocess.run(
            [*command, "-AF", "|", "-P", "footer=off", "-c", query],
            capture_output=True,
            text=True,
            check=True,
        )
        header, *rows = out.stdout.splitlines()
        return [dict(zip(header.split("|"), row.split("|"), strict=True)) for row in rows]

    def server_connections(self) -> int:
        """What PostgreSQL sees from it: its server connections, busy, idle or being opened."""
        pools = self.psql("pgbouncer", "SHOW POOLS")
        return sum(
            int(pool[state])
            for pool in pools
            if pool["database"] != "pgbouncer"
            for state in PGBOUNCER_SERVER_STATES
        )

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(10)
        shutil.rmtree(self.directory, ignore_errors=True)


class PrivateRedis:
    """A redis-server of the script's own that keeps nothing on disk: stopping it loses every
    queued message, as a broker that crashes does."""

    def __init__(self, directory: Path) -> None:
        self.port = free_port()
        self.directory = directory
        self.process: subprocess.Popen[bytes] | None = None
        self.start()

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.process = subprocess.Popen(
            [
                *("redis-server", "--port", str(self.port), "--bind", "127.0.0.1"),
                *("--save", "", "--appendonly", "no", "--dir", str(self.directory)),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 10
        while not self.answers():
            if time.monotonic() > deadline:
                raise SystemExit(f"redis-server did not answer on port {self.port}")
            time.sleep(0.1)

    def answers(self) -> bool:
        """Whether it answers PING (listening is not enough: it may still be loading)."""
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as conn:
                conn.sendall(b"PING\r\n")
                return conn.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(10)
            self.process = None


class PrivatePushpin:
    """The connection tier as ``deploy/pushpin.conf`` sets it up, on free ports, with its run and
    log directories in ``directory``, passing requests on to ``origin_port`` and signing them with
    ``grip_key``; its publishing endpoint at :attr:`publish_url`."""

    def __init__(self, directory: Path, origin_port: int, grip_key: str) -> None:
        self.directory = directory
        self.port, self.publish_port = free_port(), free_port()
        config = configparser.ConfigParser(interpolation=None, delimiters=("=",))
        config.optionxform = str  # type: ignore[assignment,method-assign]  # keep names as written
        config.read(PROJECT_ROOT / "deploy" / "pushpin.conf")
        (directory / "run").mkdir(parents=True, exist_ok=True)
        (directory / "pushpin.routes").write_text(f"* 127.0.0.1:{origin_port}\n")
        config["global"]["rundir"] = str(directory / "run")
        config["runner"]["http_port"] = f"127.0.0.1:{self.port}"
        config["runner"]["logdir"] = str(directory)
        config["proxy"]["sig_key"] = grip_key
        handler = config["handler"]
        handler["push_in_http_port"] = str(self.publish_port)
        for name in ("push_in_spec", "push_in_sub_specs", "command_spec"):
            handler[name] = f"tcp://127.0.0.1:{free_port()}"
        self.config = directory / "pushpin.conf"
        with self.config.open("w") as file:
            config.write(file)
        self.process: Process | None = None
        self.start()

    @property
    def publish_url(self) -> str:
        return f"http://127.0.0.1:{self.publish_port}/publish/"

    def start(self) -> None:
        command = ["pushpin", f"--config={self.config}", "--merge-output"]
        self.process = Process("pushpin", command, os.environ, self.directory)
        wait_for_port(self.port, 30, "pushpin")
        wait_for_port(self.publish_port, 30, "pushpin's publishing endpoint")

    def pids(self) -> list[int]:
        """The runner and the programs it started."""
        assert self.process is not None
        found, pending = [], [self.process.pid]
        while pending:
            pid = pending.pop()
            found.append(pid)
            pending += children(pid)
        return found

    def kill(self) -> None:
        """Every one of its processes at once, as when its machine dies."""
        for pid in self.pids():
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        if self.process is not None and self.process.popen is not None:
            self.process.popen.wait(10)

    def stop(self) -> None:
        if self.process is not None:
            self.process.stop(15)


# The switches of a plain-HTTP test install (docs/operations.md, "Behind a TLS proxy"): no redirect
# to HTTPS, no HSTS, cookies sent over HTTP too.
PLAIN_HTTP = {"SECURE_SSL_REDIRECT": "false", "SECURE_HSTS_SECONDS": "0", "SECURE_COOKIES": "false"}


def service_env(database_url: str, broker_url: str, **extra: str) -> dict[str, str]:
    """The environment of every process of the service (docs/operations.md, "Settings"): a
    plain-HTTP install, since the scripts and tests speak HTTP to it."""
    return {
        **os.environ,
        **PLAIN_HTTP,
        "DATABASE_URL": database_url,
        "CELERY_BROKER_URL": broker_url,
        "SECRET_KEY": "benchmark-only",
        "DJANGO_SETTINGS_MODULE": "switchsite.settings",
        "LOG_LEVEL": "WARNING",
        # A script that stops a web host means it to stop (the restart drill sets a drain).
        "SHUTDOWN_DRAIN_SECONDS": "0",
        **extra,
    }


def migrate(env: Mapping[str, str]) -> None:
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v0"],
        cwd=PROJECT_ROOT,
        env=dict(env),
        check=True,
    )


# The scripts' clients ask as fast as answers come, register many players and follow one feed
# from many streams: no throttle or fair-share cap may answer them 429 or 409.
UNTHROTTLED = {
    "THROTTLE_USER_RATE": "10000000/minute",
    "THROTTLE_REGISTRATION_RATE": "10000000/minute",
    "STREAMS_PER_TOKEN": "1000000",
    "STREAMS_PER_ADDRESS": "1000000",
    "USER_OPEN_MATCHES": "1000000",
    "USER_BOT_SEATS": "1000000",
}


class PrivateServices:
    """What every script of the production shape starts from: a private PostgreSQL and
    redis-server, the service's environment pointed at them (with ``settings`` added: a script's
    throttles, its sweep), and the database migrated. Its logs go to a temporary directory.

    With ``pooler`` the service reaches PostgreSQL through a private PgBouncer in transaction mode,
    as docs/operations.md sets it up ("A pooler"): only ``LISTEN`` (and the migration) go straight.
    """

    def __init__(self, prefix: str, settings: Mapping[str, str], pooler: bool = False) -> None:
        self.logs = Path(tempfile.mkdtemp(prefix=prefix))
        self.postgres = PrivatePostgres()
        self.redis = PrivateRedis(self.logs)
        self.pgbouncer: PrivatePgBouncer | None = None
        self.env = service_env(
            self.postgres.url,
            self.redis.url,
            **{"ALLOWED_HOSTS": "127.0.0.1,localhost", **settings},
        )
        try:
            migrate(self.env)
            if pooler:
                self.pgbouncer = PrivatePgBouncer(
                    "127.0.0.1", self.postgres.port, "switch", "postgres"
                )
                self.env.update(
                    DATABASE_URL=self.pgbouncer.url,
                    DATABASE_TRANSACTION_POOLING="true",
                    DATABASE_LISTEN_URL=self.postgres.url,
                )
        except BaseException:
            self.stop()
            raise

    def stop(self) -> None:
        if self.pgbouncer is not None:
            self.pgbouncer.stop()
        self.redis.stop()
        self.postgres.stop()

    def __enter__(self) -> PrivateServices:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.stop()


# make serve's default WEB_CONCURRENCY (the Makefile says why).
DEFAULT_WEB_PROCESSES = 2 * (os.cpu_count() or 1)


def web(
    env: Mapping[str, str],
    logs: Path,
    workers: int,
    app: str = "switchsite.asgi:application",
    name: str = "web",
) -> tuple[Process, str]:
    """``make serve`` with ``workers`` uvicorn processes on a free port, serving ``app`` (the
    service's own by default); returns it and its URL. ``name`` names it and its log."""
    port = free_port()
    server = Process(
        name
        if app == "switchsite.asgi:application"
        else f"{name}-{app.split(':')[0].split('.')[-1]}",
        ["make", "--no-print-directory", "serve"],
        {**env, "WEB_CONCURRENCY": str(workers), "PORT": str(port), "ASGI_APP": app},
        logs,
    )
    return server, f"http://127.0.0.1:{port}"


def worker(env: Mapping[str, str], logs: Path, name: str, concurrency: int = 2) -> Process:
    """``make worker``'s command, with a name of its own (several may run)."""
    command = [sys.executable, "-m", "celery", "-A", "switchsite", "worker", "--loglevel=INFO"]
    command += ["--concurrency", str(concurrency), "--hostname", f"{name}@%h"]
    return Process(name, command, env, logs)


def beat(env: Mapping[str, str], logs: Path) -> Process:
    command = [sys.executable, "-m", "celery", "-A", "switchsite", "beat", "--loglevel=INFO"]
    command += ["--schedule", str(logs / "celerybeat-schedule")]
    return Process("beat", command, env, logs)


# The command-line options the scripts share: their type and what they mean.
OPTIONS: dict[str, tuple[type, str]] = {
    "matches": (int, "players, each playing a match against three bots through the API"),
    "streams": (int, "feed streams of those players kept open (reconnecting with Last-Event-ID)"),
    "clients": (int, "concurrent clients, each playing a heads-up match"),
    "seconds": (float, "seconds each round of play lasts"),
    "workers": (int, "WEB_CONCURRENCY of make serve (default: make serve's own, two per core)"),
}


def arguments(doc: str, **defaults: float) -> argparse.ArgumentParser:
    """A script's parser (its docstring's first line as description) with the shared options named
    by ``defaults``, each with its default; the script adds its own."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    for name, default in defaults.items():
        kind, meaning = OPTIONS[name]
        parser.add_argument(f"--{name}", type=kind, default=default, help=meaning)
    return parser


def process_group(pgid: int) -> list[int]:
    return _processes_where(2, pgid)


def children(pid: int) -> list[int]:
    return _processes_where(1, pid)


def _processes_where(stat_field: int, value: int) -> list[int]:
    """The processes whose ``stat_field``-th field after the name (1: parent, 2: process group)
    in ``/proc/<pid>/stat`` is ``value``."""
    pids = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[stat_field]) == value:
                pids.append(int(entry.name))
    return pids


def connections_to(port: int, groups: Mapping[str, list[int]]) -> dict[str, int]:
    """The established TCP connections each group of processes holds to ``port`` on this
    machine (a socket's inode in ``/proc/net/tcp``, and among the processes' descriptors)."""
    connected = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            established = fields[3] == "01"
            if established and int(fields[2].rsplit(":", 1)[1], 16) == port:
                connected.add(fields[9])
    return {name: len(sockets_of(pids) & connected) for name, pids in groups.items()}


def sockets_of(pids: list[int]) -> set[str]:
    """The inodes of the sockets these processes hold."""
    inodes = set()
    for pid in pids:
        with contextlib.suppress(OSError):
            for descriptor in Path(f"/proc/{pid}/fd").iterdir():
                with contextlib.suppress(OSError):
                    target = os.readlink(descriptor)
                    if target.startswith("socket:["):
                        inodes.add(target[8:-1])
    return inodes


def rss_mib(pids: list[int]) -> float:
    """Resident memory summed: pages shared between the processes are counted once for each."""
    return _proc_field_kib(pids, "status", "VmRSS:") / 1024


def pss_mib(pids: list[int], kind: str = "") -> float:
    """Proportional memory summed: a page shared by n processes counts 1/n for each, so the sum
    over a group counts the group's shared memory (PostgreSQL's shared buffers) once. ``kind``
    ``Anon`` counts anonymous memory alone (the heap, which only a group's own forks share),
    ``Shmem`` shared memory, ``File`` mapped files (shared with every process on the machine that
    maps the same libraries)."""
    field = f"Pss_{kind}:" if kind else "Pss:"
    return _proc_field_kib(pids, "smaps_rollup", field) / 1024


def _proc_field_kib(pids: list[int], file: str, field: str) -> int:
    """The sum of a ``/proc/<pid>/<file>`` line's figure (in kB) over the processes still alive."""
    total_kib = 0
    for pid in pids:
        try:
            for line in Path(f"/proc/{pid}/{file}").read_text().splitlines():
                if line.startswith(field):
                    total_kib += int(line.split()[1])
        except OSError:
            pass
    return total_kib


def cpu_seconds(pids: list[int]) -> float:
    ticks = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        ticks += int(fields[11]) + int(fields[12])  # utime, stime
    return ticks / os.sysconf("SC_CLK_TCK")


def machine_busy_seconds() -> float:
    """CPU seconds every core of the machine has spent busy since boot (``/proc/stat``): what the
    processes measured did not spend of it, other jobs did."""
    fields = [int(n) for n in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle, iowait = fields[3], fields[4]
    return (sum(fields[:8]) - idle - iowait) / os.sysconf("SC_CLK_TCK")


def load_average() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Token {token}"}


async def wait_until_healthy(session: Any, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            async with session.get("/healthz") as answer:
                if answer.status == 200:
                    return
        except OSError:
            pass
        await asyncio.sleep(0.3)
    raise SystemExit("the server did not answer /healthz")


# An event that reaches a follower later than this after it was written is listed by the drills.
LATE_SECONDS = 5.0
_AT = re.compile(rb'"at":"([^"]+)"')


@dataclass
class Follower:
    """One client following a player's feed (a stream or a long poll): the seqs it received, how
    long after it was written each arrived, and the late ones with the connection that brought
    them."""

    token: str
    started: float = field(default_factory=time.time)  # when it first asked for its feed
    seqs: list[int] = field(default_factory=list)
    delays: list[float] = field(default_factory=list)
    arrived: list[float] = field(default_factory=list)  # when each arrived (epoch seconds)
    late: list[Arrival] = field(default_factory=list)
    reconnects: int = 0
    failures: dict[str, int] = field(default_factory=dict)
    connected_at: float = 0.0  # when the connection now open was answered (epoch seconds)

    @property
    def last(self) -> int:
        return self.seqs[-1] if self.seqs else 0

    def gaps(self) -> int:
        return sum(1 for a, b in zip(self.seqs, self.seqs[1:], strict=False) if b != a + 1)

    def fail(self, what: str) -> None:
        self.failures[what] = self.failures.get(what, 0) + 1

    def connected(self) -> None:
        self.connected_at = time.time()

    def receive(self, seq: int, at: str) -> None:
        """An event arrived now; ``at`` is when the service wrote it (ISO 8601). Its delay counts
        from then, or from when the follower started if it was written before."""
        now = time.time()
        delay = now - max(datetime.fromisoformat(at).timestamp(), self.started)
        self.seqs.append(seq)
        self.delays.append(delay)
        self.arrived.append(now)
        if delay > LATE_SECONDS:
            self.late.append(Arrival(seq, at, delay, self.reconnects, now - self.connected_at))


@dataclass(frozen=True)
class Arrival:
    """A late event: its seq and time written, its delay, the follower's connection that brought it
    (how many reconnections before it) and how long that connection had been open."""

    seq: int
    at: str
    delay: float
    connection: int
    into_connection: float


async def follow_stream(session: Any, follower: Follower) -> None:
    """Keep the player's feed stream open, reconnecting with ``Last-Event-ID`` as a browser does
    when it ends, is cut or is refused."""
    while True:
        headers = {**auth(follower.token), "Last-Event-ID": str(follower.last)}
        try:
            async with session.get("/api/v1/players/me/stream/", headers=headers) as answer:
                if answer.status != 200:
                    follower.fail(str(answer.status))
                    await asyncio.sleep(1)
                    continue
                follower.connected()
                seq = 0
                async for line in answer.content:
                    if line.startswith(b"id: "):
                        seq = int(line[4:])
                    elif line.startswith(b"data: ") and (at := _AT.search(line)):
                        follower.receive(seq, at.group(1).decode())
        except Exception as error:  # cut (a host killed, a timeout): reconnect
            follower.fail(type(error).__name__)
            await asyncio.sleep(1)
        follower.reconnects += 1


def percentile(values: list[float], share: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]
