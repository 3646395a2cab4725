"""A live server for the tests that play as third-party clients do: a generated Python client,
the TypeScript types' example, the example bot, the bot kit and schemathesis.

It is the embedded default (``make run``'s shape: SQLite, no broker, bots answering in the web
process) on a database of its own, so these tests need no PostgreSQL and no test transaction.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

# The serving tests' servers on the test database (PostgreSQL), for the bot kit's test that stops
# one and starts another: a fixture imported here is this folder's fixture.
from tests.serving.conftest import (
    PROJECT_ROOT,
    Server,
    production_env,
    serve_command,
    start_server,  # noqa: F401
)

COMMITTED_SCHEMA = PROJECT_ROOT / "docs" / "openapi.yaml"


@dataclass(frozen=True)
class Service:
    """A live server: its base URL, and the environment its processes run with (for manage.py)."""

    url: str
    env: dict[str, str]

    def manage(self, *args: str, **env: str) -> None:
        subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=PROJECT_ROOT,
            env={**os.environ, **self.env, **env},
            check=True,
            capture_output=True,
        )


@pytest.fixture(scope="package")
def service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Service]:
    """A fresh server (one uvicorn process) with its own migrated SQLite file, started once for
    this folder's tests in each test process (migrating its database takes most of the start): the
    tests name their own players, so they share it."""
    directory = tmp_path_factory.mktemp("live")
    env = production_env(
        DATABASE_URL=f"sqlite:///{directory / 'db.sqlite3'}",
        THROTTLE_REGISTRATION_RATE="1000/minute",
        THROTTLE_ANON_RATE="100000/minute",
        SSE_MAX_SECONDS="1",  # streams end within a second or so; clients resume them
    )
    live = Service("", env)
    live.manage("migrate", "--noinput", "-v", "0")
    server = Server(serve_command(1), env, directory / "server.log")
    try:
        yield Service(server.base_url, env)
    finally:
        server.stop()


@pytest.fixture(scope="package")
def service_url(service: Service) -> str:
    return service.url


def run(command: list[str], cwd: Path, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """Run a command, failing the test with its output when it fails."""
    done = subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=timeout)
    if done.returncode != 0:
        pytest.fail(
            f"{' '.join(command)} failed ({done.returncode}):\n{done.stdout}\n{done.stderr}"
        )
    return done
