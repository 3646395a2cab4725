"""``GET /healthz``: 200 when the database (and a configured broker) answer, 503 with what failed."""

import pytest

from switchsite import health

pytestmark = pytest.mark.django_db


def test_healthy_without_a_broker_reports_tasks_run_in_process(client, settings):
    settings.CELERY_BROKER_URL = ""

    response = client.get("/healthz")

    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    assert body["checks"]["database"] == "ok"
    assert body["checks"]["broker"].startswith("not configured")


def test_unreachable_broker_answers_503_naming_the_broker(client, settings):
    settings.CELERY_BROKER_URL = "redis://127.0.0.1:1/0"  # nothing listens on port 1

    response = client.get("/healthz")

    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "unavailable"
    assert body["checks"]["database"] == "ok"
    assert body["checks"]["broker"].startswith("error:")


def test_failing_database_answers_503_naming_the_database(client, settings, monkeypatch):
    settings.CELERY_BROKER_URL = ""

    def database_down() -> None:
        raise ConnectionError("connection refused")

    monkeypatch.setattr(health, "check_database", database_down)

    response = client.get("/healthz")

    assert response.status_code == 503
    assert response.json()["checks"]["database"] == "error: ConnectionError: connection refused"


def test_only_get_is_allowed(client):
    assert client.post("/healthz").status_code == 405
