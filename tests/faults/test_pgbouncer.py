"""The service through PgBouncer in transaction pooling mode (deploy/pgbouncer.ini): a private
pgbouncer on a free port in front of the test database, ``make serve`` with
``DATABASE_TRANSACTION_POOLING`` pointed at it and ``DATABASE_LISTEN_URL`` straight at PostgreSQL.
Matches are played, long polls are woken by commits, and PostgreSQL sees no more server
connections than the pool allows; every server connection has the service's lock timeout."""

from __future__ import annotations

import configparser
import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest
from django.db import connection

from benchmarks import shape
from tests.faults.conftest import database_url, needs

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="a PostgreSQL pooler"),
]

PGBOUNCER = "/usr/sbin/pgbouncer"
POOL_SIZE = 4


def as_postgres_user(command: list[str]) -> list[str]:
    """PgBouncer refuses to run as root."""
    return ["runuser", "-u", "postgres", "--", *command] if os.geteuid() == 0 else command


@pytest.fixture
def pgbouncer() -> Iterator[int]:
    """deploy/pgbouncer.ini with the test database, ports and files of this test's own (in a
    directory the postgres user can read: pytest's own are root's alone)."""
    if not Path(PGBOUNCER).exists():
        needs("pgbouncer")
    directory = Path(tempfile.mkdtemp(prefix="switch-pgbouncer-"))
    try:
        yield from _pgbouncer(directory)
    finally:
        shutil.rmtree(directory, ignore_errors=True)


def _pgbouncer(tmp_path: Path) -> Iterator[int]:
    db = connection.settings_dict
    config = configparser.ConfigParser(interpolation=None, delimiters=("=",))
    config.read(shape.PROJECT_ROOT / "deploy" / "pgbouncer.ini")
    shipped = config["databases"]["switch"]
    config.remove_option("databases", "switch")
    config["databases"][db["NAME"]] = (
        shipped.replace("host=db.internal", f"host={db['HOST']}")
        .replace("port=5432", f"port={db['PORT'] or 5432}")
        .replace("dbname=switch", f"dbname={db['NAME']}")
    )
    port = shape.free_port()
    users = tmp_path / "userlist.txt"
    users.write_text(f'"{db["USER"]}" ""\n')
    config["pgbouncer"].update(
        listen_port=str(port),
        auth_type="trust",
        auth_file=str(users),
        default_pool_size=str(POOL_SIZE),
        admin_users=str(db["USER"]),
        logfile=str(tmp_path / "pgbouncer.log"),
        pidfile=str(tmp_path / "pgbouncer.pid"),
        unix_socket_dir="",
    )
    ini = tmp_path / "pgbouncer.ini"
    with ini.open("w") as out:
        config.write(out)
    if os.geteuid() == 0:
        shutil.chown(tmp_path, "postgres")
        for path in (ini, users):
            shutil.chown(path, "postgres")
    process = subprocess.Popen(as_postgres_user([PGBOUNCER, str(ini)]))
    try:
        shape.wait_for_port(port, 20, "pgbouncer")
        yield port
    finally:
        process.terminate()
        process.wait(10)


def psql(port: int, database: str, query: str) -> list[list[str]]:
    db = connection.settings_dict
    out = subprocess.run(
        [
            *("psql", "-h", "127.0.0.1", "-p", str(port), "-U", str(db["USER"]), "-d", database),
            *("-AtF", "|", "-c", query),
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    return [line.split("|") for line in out.stdout.splitlines()]


def server_connections(port: int) -> int:
    """What PostgreSQL sees from the pooler: its server connections, busy or idle."""
    pools = psql(port, "pgbouncer", "SHOW POOLS")
    return sum(int(row[4]) + int(row[5]) for row in pools if row[0] != "pgbouncer")


@pytest.fixture
def server(pgbouncer: int, tmp_path: Path) -> Iterator[str]:
    db = connection.settings_dict
    pooled = f"postgres://{db['USER']}@127.0.0.1:{pgbouncer}/{db['NAME']}"
    env = shape.service_env(
        pooled,
        "",
        DATABASE_TRANSACTION_POOLING="true",
        DATABASE_LISTEN_URL=database_url(),
        THROTTLE_REGISTRATION_RATE="1000/minute",
    )
    web, url = shape.web(env, tmp_path, workers=2)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(f"{url}/healthz", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline, (tmp_path / "web.log").read_text()[-3000:]
            time.sleep(0.3)
        yield url
    finally:
        web.stop()


def player(url: str, name: str) -> httpx.Client:
    answer = httpx.post(
        f"{url}/api/v1/players/", json={"username": name, "password": "a-long-pooled-password"}
    )
    assert answer.status_code == 201, answer.text
    token = answer.json()["token"]
    return httpx.Client(base_url=url, headers={"Authorization": f"Token {token}"}, timeout=30)


def long_poll(client: httpx.Client, path: str) -> tuple[httpx.Response, float]:
    started = time.monotonic()
    answer = client.get(path)
    return answer, time.monotonic() - started


def test_play_through_a_transaction_pooler(server: str, pgbouncer: int):
    alice, bob = player(server, "alice"), player(server, "bob")
    match_id = alice.post("/api/v1/matches/", json={"ruleset": "switch", "seats": 2}).json()["id"]
    assert bob.post(f"/api/v1/matches/{match_id}/join/").status_code == 200
    assert alice.post(f"/api/v1/matches/{match_id}/start/").status_code == 200
    seats = {0: alice, 1: bob}
    match = f"/api/v1/matches/{match_id}/"
    statuses: list[int] = []
    woken_after: list[float] = []

    with ThreadPoolExecutor(1) as pool:
        for _ in range(30):
            view = alice.get(match).json()
            if view["status"] != "active":
                break
            mover, waiter = seats[view["to_move"]], seats[1 - view["to_move"]]
            last = alice.get(f"{match}events/?after=0&limit=500").json()["results"][-1]["seq"]
            polling = pool.submit(long_poll, waiter, f"{match}events/?after={last}&wait=20")
            time.sleep(0.3)  # the long poll is waiting
            legal = mover.get(match).json()["legal_moves"]
            statuses.append(mover.post(f"{match}moves/", json=legal[0]).status_code)
            answer, seconds = polling.result(30)
            assert answer.status_code == 200
            assert answer.json()["results"]
            woken_after.append(seconds)

    assert statuses
    assert set(statuses) == {201}
    assert max(woken_after) < 10  # woken by the commit's NOTIFY, not by the 20 s wait running out
    assert server_connections(pgbouncer) <= POOL_SIZE
    assert psql(pgbouncer, connection.settings_dict["NAME"], "SHOW lock_timeout") == [["5s"]]
