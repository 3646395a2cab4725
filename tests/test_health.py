"""``GET /healthz``: 200 while the database answers (``degraded`` when the broker does not, or a worker
or beat is silent: served all the same, as when a check is slow), 503 naming the database when it
fails, 404 ``stopping`` while the host drains before it stops."""

import threading
import time

import pytest

from switchsite import health, heartbeats
from switchsite.serving import stopping

pytestmark = pytest.mark.django_db


def test_healthy_without_a_broker_reports_tasks_run_in_process(client, settings):
    settings.CELERY_BROKER_URL = ""

    response = client.get("/healthz")

    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    assert body["checks"]["database"] == "ok"
    assert body["checks"]["broker"].startswith("not configured")


def test_unreachable_broker_is_reported_but_not_failed_on(client, settings):
    settings.CELERY_BROKER_URL = "redis://127.0.0.1:1/0"  # nothing listens on port 1

    response = client.get("/healthz")

    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "degraded"
    assert body["checks"]["database"] == "ok"
    assert body["checks"]["broker"].startswith("error:")


def test_failing_database_answers_503_naming_the_database(client, settings, monkeypatch):
    settings.CELERY_BROKER_URL = ""

    def database_down() -> None:
        raise ConnectionError("connection refused")

    monkeypatch.setattr(health, "check_database", database_down)

    response = client.get("/healthz")

    assert response.status_code == 503
    assert response.json()["status"] == "unavailable"
    assert response.json()["checks"]["database"] == "error: ConnectionError: connection refused"


def test_only_get_is_allowed(client):
    assert client.post("/healthz").status_code == 405


def test_slow_database_is_reported_without_failing(client, settings, monkeypatch):
    settings.CELERY_BROKER_URL = ""
    monkeypatch.setattr(health, "CHECK_SECONDS", 0.05)
    answered = threading.Event()  # the database answers only after the check has: slow, whatever
    monkeypatch.setattr(health, "check_database", lambda: answered.wait(10))  # the machine's load

    try:
        response = client.get("/healthz")
    finally:
        answered.set()

    assert response.status_code == 200
    assert response.json()["status"] == "degraded"
    assert response.json()["checks"]["database"] == "slow: no answer within 0.05 s"


def test_a_silent_worker_is_degraded_naming_it_while_beat_ticks(client, settings, monkeypatch):
    settings.CELERY_BROKER_URL = "redis://127.0.0.1:1/0"
    settings.HEARTBEAT_SILENT_SECONDS = 30
    monkeypatch.setattr(heartbeats.time, "time", lambda: time_now - 47)
    heartbeats.record(heartbeats.WORKER, "worker1@host")
    monkeypatch.setattr(heartbeats.time, "time", lambda: time_now)
    heartbeats.record(heartbeats.BEAT, "beat-host")

    body = client.get("/healthz").json()

    assert body["status"] == "degraded"
    assert (
        body["checks"]["worker"] == "silent: no worker heartbeat for 47 s (last from worker1@host)"
    )
    assert body["checks"]["beat"] == "ok: beat-host 0 s ago"


def test_a_host_told_to_stop_answers_404_stopping_while_it_drains(client, settings):
    settings.CELERY_BROKER_URL = ""
    stopping.draining.set()
    try:
        response = client.get("/healthz")
    finally:
        stopping.draining.clear()

    assert response.status_code == 404
    assert response.json()["status"] == "stopping"
    assert response.json()["checks"]["database"] == "ok"


time_now = time.time()
