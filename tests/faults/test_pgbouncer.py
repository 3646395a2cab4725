"""The service through PgBouncer in transaction pooling mode (deploy/pgbouncer.ini): a private
pgbouncer on a free port in front of the test database, ``make serve`` with
``DATABASE_TRANSACTION_POOLING`` pointed at it and ``DATABASE_LISTEN_URL`` straight at PostgreSQL.
Matches are played, long polls are woken by commits, and PostgreSQL sees no more server
connections than the pool allows; every server connection has the service's lock timeout."""

from __future__ import annotations

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

POOL_SIZE = 4


@pytest.fixture
def pgbouncer() -> Iterator[shape.PrivatePgBouncer]:
    """deploy/pgbouncer.ini in front of the test database, its pool cut to POOL_SIZE."""
    if not Path(shape.PrivatePgBouncer.program).exists():
        needs("pgbouncer")
    db = connection.settings_dict
    pooler = shape.PrivatePgBouncer(
        db["HOST"] or "127.0.0.1",
        int(db["PORT"] or 5432),
        db["NAME"],
        db["USER"],
        default_pool_size=str(POOL_SIZE),
    )
    yield pooler
    pooler.stop()


@pytest.fixture
def server(pgbouncer: shape.PrivatePgBouncer, tmp_path: Path) -> Iterator[str]:
    env = shape.service_env(
        pgbouncer.url,
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


def test_play_through_a_transaction_pooler(server: str, pgbouncer: shape.PrivatePgBouncer):
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
    assert pgbouncer.server_connections() <= POOL_SIZE
    lock_timeout = pgbouncer.psql(connection.settings_dict["NAME"], "SHOW lock_timeout")
    assert lock_timeout == [{"lock_timeout": "5s"}]
