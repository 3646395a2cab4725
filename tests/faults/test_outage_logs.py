"""A Redis outage under a running server is a few log lines, not a traceback per request
(docs/operations.md, "Logs"): ``make serve`` on the test database with a private redis-server as
broker and cache; while it is stopped, requests that count a rate limit and publish a bot's turn
are all answered, and the server's log says that Redis does not answer once, then once every
``OUTAGE_LOG_SECONDS`` with a count, then that it answers again — with no traceback."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from django.db import connection

from benchmarks import shape
from benchmarks.shape import PrivateRedis
from tests.faults.conftest import database_url

pytestmark = [
    pytest.mark.fault,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="a server process of its own"),
]

OUTAGE_SECONDS, INTERVAL_SECONDS = 8, 3


@pytest.fixture
def server(private_redis: PrivateRedis, tmp_path: Path) -> Iterator[tuple[str, shape.Process]]:
    env = shape.service_env(
        database_url(),
        private_redis.url,
        LOG_LEVEL="INFO",
        OUTAGE_LOG_SECONDS=str(INTERVAL_SECONDS),
        **shape.UNTHROTTLED,  # the client starts a match a request: no cap on them
    )
    web, url = shape.web(env, tmp_path, workers=1)
    try:
        shape.wait_for_port(int(url.rsplit(":", 1)[1]), 60, "make serve")
        yield url, web
    finally:
        web.stop()


def test_a_redis_outage_is_logged_once_a_while_with_a_count(
    server: tuple[str, shape.Process], private_redis: PrivateRedis
):
    url, web = server
    token = httpx.post(
        f"{url}/api/v1/players/", json={"username": "steady", "password": "a-long-steady-secret"}
    ).json()["token"]
    client = httpx.Client(base_url=url, headers={"Authorization": f"Token {token}"}, timeout=30)
    against_a_bot = {"ruleset": "switch", "seats": 2, "bots": [{"seat": 1, "strategy": "random"}]}

    def play_a_little() -> list[int]:
        """A match started against a bot (its turn is published) and a read (rate-limited)."""
        match = client.post("/api/v1/matches/", json=against_a_bot).json()["id"]
        started = client.post(f"/api/v1/matches/{match}/start/")
        return [started.status_code, client.get("/api/v1/rulesets/").status_code]

    assert play_a_little() == [200, 200]
    private_redis.stop()
    statuses: list[int] = []
    until = time.monotonic() + OUTAGE_SECONDS
    while time.monotonic() < until:
        statuses += play_a_little()
    private_redis.start()
    time.sleep(0.5)
    statuses += play_a_little()
    time.sleep(0.5)
    log = web.log.read_text()

    assert set(statuses) == {200}
    assert "Traceback" not in log
    outage = [line for line in log.splitlines() if "switch.outages" in line]
    assert len(statuses) > 10 * len(outage)
    assert "Redis does not answer" in outage[0]
    still = [line for line in outage if "Redis still does not answer" in line]
    assert 1 <= len(still) <= OUTAGE_SECONDS // INTERVAL_SECONDS + 1
    assert all(" failures in the last " in line for line in still)
    assert "Redis answers again after" in outage[-1]
