"""The container image's commands (``deploy/containers/switch-entrypoint.sh``; docs/operations.md,
"One command: the containers"), run here as processes, without an image: compose starts ``web`` at
the same moment as the ``migrate`` service and waits for nothing, so ``web`` waits for the schema —
saying so — and never migrates it itself; on a migrated database it serves, and the container's
health check says so until it stops. (Building and running the images is the drill's,
``benchmarks/containers.py``: minutes, beyond CI's budget.)"""

from __future__ import annotations

import socket
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from django.db import connection

from benchmarks import shape
from tests.faults.conftest import database_url, wait_until
from tests.serving.conftest import PROJECT_ROOT

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="the containers' PostgreSQL"),
]

ENTRYPOINT = str(PROJECT_ROOT / "deploy" / "containers" / "switch-entrypoint.sh")
WAITING = "waiting for the database and its schema"


def image_env(url: str, port: int) -> dict[str, str]:
    """The service's settings as compose gives them, with this environment's Python first on the
    path, as the image's is."""
    env = shape.service_env(url, "", PORT=str(port), WEB_CONCURRENCY="1")
    return {**env, "PATH": f"{Path(sys.executable).parent}:{env['PATH']}"}


def healthy(env: dict[str, str]) -> bool:
    check = [ENTRYPOINT, "health", "web"]
    return subprocess.run(check, cwd=PROJECT_ROOT, env=env, capture_output=True).returncode == 0


@pytest.fixture
def empty_database() -> Iterator[str]:
    """A database of its own with no table, as the volume's is before ``migrate`` runs; its URL."""
    db = connection.settings_dict
    name = f"{db['NAME']}_empty_{uuid.uuid4().hex[:8]}"
    address = ["-h", str(db["HOST"]), "-p", str(db["PORT"] or 5432), "-U", str(db["USER"])]
    subprocess.run(["createdb", *address, name], check=True)
    try:
        yield database_url().rsplit("/", 1)[0] + f"/{name}"
    finally:
        subprocess.run(["dropdb", *address, "--force", "--if-exists", name], check=True)


def test_web_waits_for_the_schema_and_never_migrates_it(tmp_path: Path, empty_database: str):
    port = shape.free_port()
    web = shape.Process("web", [ENTRYPOINT, "web"], image_env(empty_database, port), tmp_path)
    try:
        wait_until(lambda: WAITING in web.log.read_text(), 60, "web says it waits for the schema")
        assert web.alive(), web.log.read_text()
        with pytest.raises(ConnectionRefusedError):  # not serving yet
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
    finally:
        web.stop()
    with psycopg.connect(empty_database) as database:
        tables = database.execute("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'")
        assert tables.fetchone() == (0,)


def test_web_serves_a_migrated_database_and_is_healthy_until_it_stops(tmp_path: Path):
    port = shape.free_port()
    env = image_env(database_url(), port)
    web = shape.Process("web", [ENTRYPOINT, "web"], env, tmp_path)
    try:
        shape.wait_for_port(port, 90, "web")
        assert healthy(env), web.log.read_text()
    finally:
        web.stop()
    assert WAITING not in web.log.read_text()
    assert not healthy(env)
