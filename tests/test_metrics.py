"""Monitoring and the access log (docs/operations.md, "Monitoring" and "Logs"): every request is one
access line and counted by route and status, the machines' checks are logged at DEBUG only,
moves and the sweeps' finds are counted where they happen, the heartbeats of workers and beat are
recorded, and a host's processes add up their metrics through PROMETHEUS_MULTIPROC_DIR — a process
that died leaving its open streams counted is forgotten."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import subprocess
import sys
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.utils import timezone
from prometheus_client import REGISTRY
from pythonjsonlogger.json import JsonFormatter

from games.models import Match
from games.tasks import purge_old_events
from switchsite import heartbeats
from switchsite.celery import app as celery_app
from switchsite.logfilters import RedactSecrets
from switchsite.serving.observing import observed
from tests.api.conftest import bob, make_client, staff
from tests.api.test_matches import started_match
from tests.serving.conftest import PROJECT_ROOT

__all__ = ["bob", "make_client", "staff"]  # fixtures

SEAT_PAGE = "/play/seat/swt_sEcReT-42/"


def value(name: str, **labels: str) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


def request(path: str, method: str = "GET", status: int = 201) -> None:
    """One request through the access log and the metrics, to an application that answers
    ``status`` with a body of 11 bytes."""

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        await send({"type": "http.response.start", "status": status, "headers": []})
        await send({"type": "http.response.body", "body": b'{"id": 12}\n'})

    async def receive() -> dict[str, Any]:
        return {"type": "http.request"}

    async def send(message: Any) -> None:
        pass

    scope = {
        "type": "http",
        "method": method,
        "path": path,
        "root_path": "",
        "query_string": b"token=not-logged",
        "client": ("203.0.113.7", 4711),
    }

    async def observing() -> None:
        await observed(app)(scope, receive, send)

    asyncio.run(observing())


def test_a_request_is_one_access_line_and_is_counted_by_route_and_status(caplog):
    route = "api/v1/matches/<id:match_id>/moves/"
    before = value("switch_http_requests_total", route=route, method="POST", status="201")

    with caplog.at_level(logging.INFO, logger="switch.access"):
        request("/api/v1/matches/12/moves/", "POST")

    (line,) = caplog.records
    assert line.getMessage().startswith('203.0.113.7 "POST /api/v1/matches/12/moves/" 201 11 ')
    assert line.getMessage().endswith(" ms")
    assert "not-logged" not in line.getMessage()
    assert value("switch_http_requests_total", route=route, method="POST", status="201") == (
        before + 1
    )
    assert value("switch_http_request_duration_seconds_count", route=route, method="POST") >= 1


def test_health_checks_and_scrapes_are_logged_at_debug_only(caplog):
    with caplog.at_level(logging.INFO, logger="switch.access"):
        request("/healthz", status=200)
        request("/metrics", status=200)
    assert caplog.records == []

    with caplog.at_level(logging.DEBUG, logger="switch.access"):
        request("/healthz", status=200)
    assert [r.levelno for r in caplog.records] == [logging.DEBUG]


def test_a_json_access_line_has_its_fields_and_no_seat_secret(caplog):
    with caplog.at_level(logging.INFO, logger="switch.access"):
        request(SEAT_PAGE, status=200)
    (line,) = caplog.records
    logging_config: dict[str, Any] = settings.LOGGING
    configured = dict(logging_config["formatters"]["json"])
    configured.pop("()")
    RedactSecrets().filter(line)

    written = json.loads(JsonFormatter(**configured).format(line))

    assert written["logger"] == "switch.access"
    assert written["level"] == "INFO"
    assert written["time"].endswith("+00:00")
    assert written["path"] == "/play/seat/[redacted]/"
    assert (written["method"], written["status"], written["bytes"]) == ("GET", 200, 11)
    assert written["duration_ms"] >= 0
    assert "sEcReT" not in json.dumps(written)


@pytest.mark.django_db
def test_moves_and_what_the_sweeps_found_are_counted(staff, bob):
    match_id = started_match(staff, bob)
    moves = value("switch_moves_total", game="shedding", by="player")
    view = staff.get(f"/api/v1/matches/{match_id}/").json()
    mover = staff if view["to_move"] == 0 else bob
    legal = mover.get(f"/api/v1/matches/{match_id}/").json()["legal_moves"]
    assert mover.post(f"/api/v1/matches/{match_id}/moves/", legal[0]).status_code == 201
    assert value("switch_moves_total", game="shedding", by="player") == moves + 1

    Match.objects.filter(pk=match_id).update(
        status=Match.Status.FINISHED, finished_at=timezone.now() - timedelta(days=40)
    )
    archived = value("switch_sweep_finds_total", sweep="purge_old_events")
    purge_old_events.apply()
    assert value("switch_sweep_finds_total", sweep="purge_old_events") == archived + 1


def test_a_failed_task_is_counted():
    @celery_app.task(name="tests.failing_task")
    def failing_task() -> None:
        raise RuntimeError("failed on purpose")

    before = value("switch_task_failures_total", task="tests.failing_task")
    failing_task.apply(throw=False)
    assert value("switch_task_failures_total", task="tests.failing_task") == before + 1


def test_beat_records_its_heartbeat_as_it_ticks(tmp_path: Path):
    scheduler = heartbeats.RecordingScheduler(
        app=celery_app, schedule_filename=str(tmp_path / "schedule"), lazy=True
    )
    scheduler.setup_schedule()
    try:
        assert scheduler.tick() <= heartbeats.INTERVAL_SECONDS
    finally:
        scheduler.close()

    last = heartbeats.last(heartbeats.BEAT)
    assert last is not None
    assert last["name"]


PROCESS = """
import os, sys
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "switchsite.settings")
import django
django.setup()
from switchsite import metrics
if sys.argv[1] == "stream":
    metrics.WAITING.labels(kind="stream").inc()  # and dies with it open
else:
    sys.stdout.write(metrics.exposition().decode())
"""


def test_a_hosts_processes_add_up_and_a_dead_ones_streams_are_forgotten(tmp_path: Path):
    env = {**os.environ, "PROMETHEUS_MULTIPROC_DIR": str(tmp_path), "DEBUG": "true"}

    def run(*args: str) -> str:
        done = subprocess.run(
            [sys.executable, "-c", PROCESS, *args],
            cwd=PROJECT_ROOT,
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
        return done.stdout

    run("stream")
    run("stream")

    assert len(list(tmp_path.glob("gauge_livesum_*.db"))) == 2
    assert 'switch_waiting_requests{kind="stream"}' not in run("scrape")
    assert list(tmp_path.glob("gauge_livesum_*.db")) == []
