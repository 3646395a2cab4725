"""Fixtures for the serving tests: a real ASGI server in a subprocess, and the read threads.

The server is uvicorn running ``switchsite.asgi:application`` exactly as ``make serve`` does, with
the production settings (not the tests'), against the test database. The data a test writes must
be committed for it to see them (``transactional_db``); it sees the test's writes at once.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Coroutine, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import pytest
from django.db import connection, connections

from benchmarks.shape import PLAIN_HTTP, PrivatePushpin, Process, free_port
from games import selectors, services
from switchsite import asyncdb
from tests.conftest import IN_CI
from tests.faults import conftest as faults
from tests.faults.conftest import database_url

T = TypeVar("T")
private_redis = faults.private_redis  # a Redis of the test's own (the streams' leases)
PROJECT_ROOT = Path(__file__).resolve().parents[2]
STARTUP_SECONDS = 60


class Server:
    """A server process on a port (a free one unless given), given the command for a port; stopped
    with SIGTERM."""

    def __init__(
        self,
        command: Callable[[int], list[str]],
        env: dict[str, str],
        log: Path,
        port: int | None = None,
    ) -> None:
        self.port = port or free_port()
        self.base_url = f"http://127.0.0.1:{self.port}"
        self.log = log
        self._log_file = log.open("wb")
        self.process = subprocess.Popen(
            command(self.port),
            cwd=PROJECT_ROOT,
            env={**os.environ, **env},
            stdout=self._log_file,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group: make and uvicorn's workers included
        )
        try:
            self._wait_until_healthy()
        except BaseException:  # the suite interrupted while it starts: no teardown will stop it
            self.stop()
            raise

    def _wait_until_healthy(self) -> None:
        deadline = time.monotonic() + STARTUP_SECONDS
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                break
            try:
                with urllib.request.urlopen(f"{self.base_url}/healthz", timeout=2) as answer:
                    if answer.status == 200:
                        return
            except (OSError, urllib.error.URLError):
                time.sleep(0.2)
        self.stop()
        pytest.fail(f"the server did not come up; its log:\n{self.output()}")

    def terminate(self, timeout: float = 20) -> float:
        """SIGTERM to the server, as a process manager sends it; seconds until it exited."""
        started = time.monotonic()
        self.process.send_signal(signal.SIGTERM)
        self.process.wait(timeout)
        return time.monotonic() - started

    def stop(self) -> None:
        """Make sure nothing of it is left (its process group: make, uvicorn and its workers)."""
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(20)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
        self._log_file.close()

    def output(self) -> str:
        return self.log.read_text(errors="replace")


def serve_command(workers: int) -> Callable[[int], list[str]]:
    """The ASGI server as ``make serve`` starts it."""

    def command(port: int) -> list[str]:
        settings = ("HOST=127.0.0.1", f"PORT={port}", f"WEB_CONCURRENCY={workers}")
        return ["env", *settings, sys.executable, "-m", "switchsite.serve"]

    return command


def production_env(**overrides: Any) -> dict[str, str]:
    env = {
        **PLAIN_HTTP,
        "DJANGO_SETTINGS_MODULE": "switchsite.settings",
        "DEBUG": "false",
        "SECRET_KEY": "serving-tests-only",
        "DATABASE_URL": database_url(),
        "CELERY_BROKER_URL": "",  # bots, if any, play in the server process
        "THROTTLE_USER_RATE": "100000/minute",
        "LOG_LEVEL": "WARNING",
        "SHUTDOWN_DRAIN_SECONDS": "0",  # no balancer to drain from: stop at once
    }
    return {**env, **{key: str(value) for key, value in overrides.items()}}


def require_postgresql() -> None:
    """These tests need PostgreSQL (several processes, commit notifications): skipped on a
    developer's SQLite run, failed in CI."""
    if connection.vendor != "postgresql":
        if IN_CI:
            pytest.fail("CI=true but the database is not PostgreSQL: the serving tests cannot run")
        pytest.skip("needs PostgreSQL (set DATABASE_URL)")


@pytest.fixture(scope="module")
def start_server(django_db_setup: None, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """Start servers on the test database (stopped at the end of the module, before it is dropped)."""
    require_postgresql()
    servers: list[Server] = []

    def start(workers: int = 1, port: int | None = None, **settings: Any) -> Server:
        """A server; on ``port`` if given (say, where one that was stopped served)."""
        log = tmp_path_factory.mktemp("server") / "server.log"
        server = Server(serve_command(workers), production_env(**settings), log, port)
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.stop()


# The key the tier signs with in these tests (GRIP_KEY and pushpin.conf's sig_key).
TEST_GRIP_KEY = "serving-tests-grip-key"


class Tier:
    """The production shape's connection tier in front of ``server``: Pushpin from
    ``deploy/pushpin.conf`` and the publisher (``manage.py publish_events``), each a process of
    its own; clients connect to :attr:`base_url`, Pushpin's."""

    def __init__(self, server: Server, directory: Path) -> None:
        self.server = server
        self.directory = directory
        self.pushpin = PrivatePushpin(directory, server.port, TEST_GRIP_KEY)
        self.base_url = f"http://127.0.0.1:{self.pushpin.port}"
        self.publisher: Process | None = None
        self.start_publisher()

    def start_publisher(self) -> None:
        env = production_env(GRIP_KEY=TEST_GRIP_KEY, TIER_PUBLISH_URLS=self.pushpin.publish_url)
        command = [sys.executable, "manage.py", "publish_events"]
        self.publisher = Process("publisher", command, env, self.directory)

    def stop_publisher(self) -> None:
        if self.publisher is not None:
            self.publisher.stop(10)
            self.publisher = None

    def stop(self) -> None:
        self.stop_publisher()
        self.pushpin.stop()

    def output(self) -> str:
        logs = [self.directory / "pushpin.log", self.directory / "publisher.log"]
        return "\n".join(log.read_text(errors="replace") for log in logs if log.exists())


def require_pushpin() -> None:
    """Pushpin is Debian's package (``.ci/run`` installs it): skipped without it on a
    developer's machine, failed in CI."""
    if shutil.which("pushpin") is None:
        if IN_CI:
            pytest.fail("CI=true but Pushpin is not installed: the tier's tests cannot run")
        pytest.skip("needs Pushpin (apt-get install pushpin)")


@pytest.fixture(scope="module")
def start_tier(start_server: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """Start a server with the connection tier in front (stopped at the end of the module)."""
    require_pushpin()
    tiers: list[Tier] = []

    def start(**settings: Any) -> Tier:
        server = start_server(GRIP_KEY=TEST_GRIP_KEY, **settings)
        tier = Tier(server, tmp_path_factory.mktemp("tier"))
        tiers.append(tier)
        return tier

    yield start
    for tier in tiers:
        tier.stop()


@pytest.fixture
def read_threads(settings: Any) -> Iterator[None]:
    """Waiting requests read through the pool of read threads, as in production."""
    settings.EVENT_READ_THREADS = 4
    yield
    asyncdb.close_connections()


@dataclass
class Table:
    """A started heads-up match between two new players: seat i is users[i]."""

    match_id: int
    users: list[Any]
    tokens: list[str]
    player_ids: list[int]


@pytest.fixture
def table() -> Table:
    users, tokens = zip(
        *(services.player_register(username=name, password="pw") for name in ("ann", "ben")),
        strict=True,
    )
    match = services.match_create(creator=users[0], ruleset="switch", seats=2)
    services.match_join(match_id=match.pk, user=users[1])
    services.match_start(match_id=match.pk, user=users[0])
    players = [services.player_profile(user=user).pk for user in users]
    return Table(match.pk, list(users), list(tokens), players)


def play_one_move(table: Table) -> None:
    """The seat to move plays its first legal action."""
    for seat, user in enumerate(table.users):
        view = selectors.match_view_for(match_id=table.match_id, user=user)
        if view["to_move"] == seat:
            services.action_apply(match_id=table.match_id, user=user, action=view["legal_moves"][0])
            return
    raise AssertionError("nobody is to move")


def run_in_own_loop(coroutine: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run`` in a thread of its own: the main thread may have a loop running already
    (Playwright's sync API keeps one there for the rest of the session after the browser tests)."""
    with ThreadPoolExecutor(max_workers=1) as executor:
        return executor.submit(asyncio.run, coroutine).result()


async def in_thread(function: Callable[..., Any], *args: Any) -> Any:
    """Run sync code in another thread (with a connection of its own, closed afterwards)."""

    def run() -> Any:
        try:
            return function(*args)
        finally:
            connections.close_all()

    return await asyncio.to_thread(run)
