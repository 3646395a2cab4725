"""Real processes for fault tests: a private redis-server on a free port and Celery workers in
subprocesses, pointed at the test database. Nothing here stops or touches the machine's own
services; each test starts, kills and restarts only what it started."""

from __future__ import annotations

import shutil
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.db import connection

from benchmarks.shape import PrivateRedis, Process, service_env
from switchsite.celery import app as celery_app
from tests.api import conftest as api
from tests.conftest import IN_CI

make_client = api.make_client


def wait_until(condition: Callable[[], bool], timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout:.0f} s waiting until {what}")
        time.sleep(0.2)


def needs(program: str) -> str:
    path = shutil.which(program)
    if path is None:
        message = f"{program} is not installed"
        if IN_CI:
            pytest.fail(f"{message}: CI must run the fault tests")
        pytest.skip(message)
    return path


@pytest.fixture
def private_redis(tmp_path: Path) -> Iterator[PrivateRedis]:
    """A redis-server of the test's own on a free port, keeping nothing on disk: stopping and
    starting it again is an outage of the broker."""
    needs("redis-server")
    server = PrivateRedis(tmp_path)
    yield server
    server.stop()


def database_url() -> str:
    """The test database, as the subprocesses must reach it."""
    db = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{db['NAME']}"
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    return f"postgres://{db['USER']}{password}@{db['HOST']}:{db['PORT']}/{db['NAME']}"


def celery_worker(broker_url: str, directory: Path, name: str) -> Process:
    """``celery worker`` with its beat (the sweep every second), in a process group of its own: a
    ``kill -9`` then takes the beat child along too (killing only the worker left it running)."""
    env = service_env(
        database_url(),
        broker_url,
        LOG_LEVEL="INFO",  # the log says what each task did, for a failure's report
        SWEEP_INTERVAL_SECONDS="1",
        SWEEP_STALL_SECONDS="2",
    )
    command = [sys.executable, "-m", "celery", "-A", "switchsite", "worker", "--beat"]
    command += ["--pool", "solo", "--loglevel", "INFO", "--hostname", f"{name}@%h"]
    command += ["--schedule", str(directory / f"{name}-beat-schedule")]
    return Process(name, command, env, directory)


@pytest.fixture
def start_worker(tmp_path: Path) -> Iterator[Callable[[str, str], Process]]:
    workers: list[Process] = []

    def start(broker_url: str, name: str) -> Process:
        worker = celery_worker(broker_url, tmp_path, name)
        workers.append(worker)
        return worker

    yield start
    for worker in workers:
        worker.stop()


@pytest.fixture
def publishing_to(monkeypatch: pytest.MonkeyPatch, settings: Any) -> Callable[[str], None]:
    """Make this process (the web side) publish to the given broker instead of running tasks."""

    def point(broker_url: str) -> None:
        # Celery reads its configuration from Django's settings as they are now.
        settings.CELERY_BROKER_URL = broker_url
        settings.CELERY_TASK_ALWAYS_EAGER = False
        monkeypatch.setattr(celery_app, "_pool", None)

    return point
