"""A restore under a running client (docs/operations.md, "Backups and restore"): a client plays a
match through a real server (``make serve`` on a private PostgreSQL cluster), following the match's
stream as docs/api.md asks — with its cursor's incarnation — while the database is dumped, play goes
on, and the dump is restored into a fresh database the server is restarted on. The client's next
request gets 410 ``cursor_expired``; it re-reads the log from ``oldest`` and finishes the match,
and what it holds of the log is then exactly the server's: nothing of the new timeline missed,
nothing of the lost one kept."""

from __future__ import annotations

import json
import random
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from benchmarks import shape
from tests.faults.conftest import needs, wait_until

pytestmark = pytest.mark.fault

PLAYED_BEFORE_DUMP, PLAYED_AFTER_DUMP = 3, 4


class CarefulClient(threading.Thread):
    """Plays seat 0 of a match against a server bot, reading the match's events from its stream
    (``Last-Event-ID`` and ``incarnation``) and moving whenever its view offers moves."""

    def __init__(self, url: str) -> None:
        super().__init__(daemon=True)
        self.http = httpx.Client(base_url=url, timeout=30)
        answer = self.http.post(
            "/api/v1/players/", json={"username": "careful", "password": "a-long-restored-secret"}
        )
        self.http.headers["Authorization"] = f"Token {answer.json()['token']}"
        settings = {"ruleset": "switch", "seats": 2, "deals": 1, "practice_seed": "ab" * 32}
        created = self.http.post(
            "/api/v1/matches/", json={**settings, "bots": [{"seat": 1, "strategy": "random"}]}
        )
        self.match = f"/api/v1/matches/{created.json()['id']}/"
        self.http.post(f"{self.match}start/")
        self.log: dict[int, dict[str, Any]] = {}  # the match's events as received, by seq
        self.incarnation = ""
        self.moves = 0
        self.expired: list[dict[str, Any]] = []  # the 410s it got
        self.finished = threading.Event()
        self.failure: BaseException | None = None
        self.rng = random.Random(7)

    def run(self) -> None:
        try:
            while not self.finished.is_set():
                try:
                    self.follow()
                except httpx.TransportError:  # the server is restarting
                    time.sleep(0.3)
        except BaseException as error:
            self.failure = error
            self.finished.set()

    def follow(self) -> None:
        last = max(self.log, default=0)
        headers = {"Last-Event-ID": str(last), "Accept": "text/event-stream"}
        query = {"incarnation": self.incarnation} if self.incarnation else {}
        with self.http.stream("GET", f"{self.match}stream/", params=query, headers=headers) as s:
            if s.status_code == 410:
                problem = json.loads(s.read())
                self.expired.append(problem)
                # What was received may be of the lost timeline: read the log again, as it is now.
                self.log.clear()
                self.incarnation = problem["incarnation"]
                self.read_log(after=problem["oldest"] - 1)
                self.move()
                return
            if s.status_code >= 500:
                time.sleep(0.3)
                return
            assert s.status_code == 200, s.read()
            self.incarnation = s.headers["Switch-Incarnation"]
            data: list[str] = []
            for line in s.iter_lines():
                if line.startswith("data:"):
                    data.append(line[5:].strip())
                elif not line and data:
                    event = json.loads("\n".join(data))
                    data = []
                    self.log[event["seq"]] = event
                    self.move()
        self.move()  # the stream ended (the match is over, or it is time to reconnect)

    def read_log(self, after: int) -> None:
        self.log.update({event["seq"]: event for event in self.events(after)})

    def events(self, after: int) -> list[dict[str, Any]]:
        """The match's log after ``after``, page by page (each ``next`` carries the incarnation)."""
        events: list[dict[str, Any]] = []
        page: str | None = f"{self.match}events/?after={after}&limit=500"
        while page:
            answer = self.http.get(page).json()
            events += answer["results"]
            page = answer["next"]
        return events

    def move(self) -> None:
        view = self.http.get(self.match).json()
        if view["status"] != "active":
            self.read_log(after=max(self.log, default=0))  # what the stream has not sent yet
            self.finished.set()
        elif view["legal_moves"]:
            time.sleep(0.1)  # a person's pace: the restore happens in the middle of the match
            plays = [m for m in view["legal_moves"] if m["action"] == "play"]
            move = {
                **self.rng.choice(plays or view["legal_moves"]),
                "expected_version": view["version"],
            }
            if self.http.post(f"{self.match}moves/", json=move).status_code == 201:
                self.moves += 1


def fingerprint(event: dict[str, Any]) -> tuple[Any, ...]:
    return event["seq"], event["type"], event["seat"], event["at"]


def postgres(cluster: shape.PrivatePostgres, program: str, *args: str) -> None:
    address = ["-h", "127.0.0.1", "-p", str(cluster.port), "-U", "postgres"]
    subprocess.run([str(cluster.bin / program), *address, *args], check=True)


@pytest.fixture
def cluster() -> Iterator[shape.PrivatePostgres]:
    if not list(Path("/usr/lib/postgresql").glob("*/bin/initdb")):
        needs("initdb")  # a PostgreSQL server is not installed: skip (fail in CI)
    cluster = shape.PrivatePostgres()
    yield cluster
    cluster.stop()


def test_a_client_finishes_its_match_across_a_restore(
    cluster: shape.PrivatePostgres, tmp_path: Path
):
    env = shape.service_env(cluster.url, "", **shape.UNTHROTTLED)
    shape.migrate(env)
    port = shape.free_port()
    env.update(PORT=str(port), WEB_CONCURRENCY="1")
    server = shape.Process("web", ["make", "--no-print-directory", "serve"], env, tmp_path)
    url = f"http://127.0.0.1:{port}"
    try:
        shape.wait_for_port(port, 60, "make serve")
        client = CarefulClient(url)
        client.start()
        wait_until(lambda: client.moves >= PLAYED_BEFORE_DUMP, 60, "the client has played")
        dump = tmp_path / "switch.dump"
        postgres(cluster, "pg_dump", "-Fc", "-f", str(dump), "switch")
        dumped_at = client.moves
        wait_until(lambda: client.moves >= dumped_at + PLAYED_AFTER_DUMP, 60, "play went on")
        before = client.incarnation

        server.stop()  # docs/operations.md: restore into a fresh database, restart on it
        postgres(cluster, "createdb", "switch_restored")
        postgres(
            cluster,
            "pg_restore",
            "--no-owner",
            "--exit-on-error",
            "-d",
            "switch_restored",
            str(dump),
        )
        server.env["DATABASE_URL"] = cluster.url + "_restored"
        server.start()

        assert client.finished.wait(180), f"the match did not finish ({client.moves} moves)"
        assert client.failure is None, client.failure
        server_log = client.events(after=0)
    finally:
        server.stop()

    assert len(client.expired) == 1
    assert client.expired[0]["incarnation"] not in ("", before)
    assert client.incarnation == client.expired[0]["incarnation"]
    # The same events (an event of the lost timeline has another time); their data may differ,
    # since a match that is over reveals every hand.
    assert [fingerprint(client.log[seq]) for seq in sorted(client.log)] == [
        fingerprint(event) for event in server_log
    ]
    assert server_log[-1]["type"] == "match_end"
