"""Real processes for fault tests: a private redis-server on a free port and Celery workers in
subprocesses, pointed at the test database. Nothing here stops or touches the machine's own
services; each test starts, kills and restarts only what it started."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.db import connection

from benchmarks.shape import PrivateRedis
from switchsite.celery import app as celery_app
from tests.api import conftest as api
from tests.conftest import IN_CI

make_client = api.make_client

REPO = Path(__file__).resolve().parents[2]


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


class Worker:
    """``celery worker`` with its beat (the sweep every second) in a subprocess."""

    def __init__(self, broker_url: str, directory: Path, name: str) -> None:
        self.log = directory / f"{name}.log"
        env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "switchsite.settings",
            "DATABASE_URL": database_url(),
            "CELERY_BROKER_URL": broker_url,
            "SECRET_KEY": "fault-tests-only",
            "SWEEP_INTERVAL_SECONDS": "1",
            "SWEEP_STALL_SECONDS": "2",
            "PYTHONPATH": str(REPO),
        }
        command = [sys.executable, "-m", "celery", "-A", "switchsite", "worker", "--beat"]
        command += ["--pool", "solo", "--loglevel", "INFO", "--hostname", f"{name}@%h"]
        command += ["--schedule", str(directory / f"{name}-beat-schedule")]
        with self.log.open("wb") as log:
            self.process = subprocess.Popen(command, env=env, cwd=REPO, stdout=log, stderr=log)

    def alive(self) -> bool:
        return self.process.poll() is None

    def kill(self) -> None:
        """``kill -9``: no goodbye, no acknowledgements, nothing handed back."""
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)

    def stop(self) -> None:
        if self.alive():
            self.process.terminate()
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.kill()


@pytest.fixture
def start_worker(tmp_path: Path) -> Iterator[Callable[[str, str], Worker]]:
    workers: list[Worker] = []

    def start(broker_url: str, name: str) -> Worker:
        worker = Worker(broker_url, tmp_path, name)
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
