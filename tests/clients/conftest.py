"""A live server for the tests that play as third-party clients do: a generated Python client,
the TypeScript types' example and the example bot.

It is the embedded default (``make run``'s shape: SQLite, no broker, bots answering in the web
process) on a database of its own, so these tests need no PostgreSQL and no test transaction.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.serving.conftest import PROJECT_ROOT, Server, production_env, uvicorn_command

COMMITTED_SCHEMA = PROJECT_ROOT / "docs" / "openapi.yaml"


@pytest.fixture(scope="module")
def service_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The base URL of a fresh server (one uvicorn process) with its own migrated SQLite file."""
    directory = tmp_path_factory.mktemp("live")
    env = production_env(
        DATABASE_URL=f"sqlite:///{directory / 'db.sqlite3'}",
        THROTTLE_REGISTRATION_RATE="1000/minute",
    )
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
        cwd=PROJECT_ROOT,
        env={**os.environ, **env},
        check=True,
    )
    server = Server(uvicorn_command(1), env, directory / "server.log")
    try:
        yield server.base_url
    finally:
        server.stop()


def run(command: list[str], cwd: Path, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """Run a command, failing the test with its output when it fails."""
    done = subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=timeout)
    if done.returncode != 0:
        pytest.fail(
            f"{' '.join(command)} failed ({done.returncode}):\n{done.stdout}\n{done.stderr}"
        )
    return done
