"""The service's log: one line per 4xx (the server's access line, not Django's as well), and the
periodic sweeps quiet at INFO unless they found something."""

from __future__ import annotations

import logging

import pytest
from rest_framework.test import APIClient

from switchsite.logfilters import QuietSweeps, RedactSecrets

SWEEP = "games.tasks.sweep_stalled_matches"
RECEIVED = "Task %(name)s[%(id)s] received"
SUCCEEDED = "Task %(name)s[%(id)s] succeeded in %(runtime)ss: %(return_value)s"


def record(
    logger: str, message: str, *args: object, level: int = logging.INFO
) -> logging.LogRecord:
    return logging.getLogger(logger).makeRecord(logger, level, __file__, 1, message, args, None)


def task(name: str, **fields: object) -> dict[str, object]:
    return {"name": name, "id": "4f1c", "runtime": 0.01, "args": "()", "kwargs": "{}", **fields}


@pytest.mark.django_db
def test_a_4xx_gets_no_log_line_from_django_besides_the_servers_access_line(caplog):
    with caplog.at_level(logging.INFO):
        assert APIClient().get("/api/v1/nowhere/").status_code == 404
        assert APIClient().get("/api/v1/rulesets/").status_code == 401

    assert [r for r in caplog.records if r.name == "django.request"] == []


def test_a_sweep_that_found_nothing_is_not_logged_at_info():
    quiet = QuietSweeps()

    assert not quiet.filter(
        record("celery.beat", "Scheduler: Sending due task %s (%s)", "sweep", SWEEP)
    )
    assert not quiet.filter(record("celery.worker.strategy", RECEIVED, task(SWEEP)))
    assert not quiet.filter(record("celery.app.trace", SUCCEEDED, task(SWEEP, return_value="0")))


def test_a_sweep_that_found_something_other_tasks_and_warnings_are_logged():
    quiet = QuietSweeps()

    assert quiet.filter(record("celery.app.trace", SUCCEEDED, task(SWEEP, return_value="3")))
    other = "games.tasks.play_bot_turns"
    assert quiet.filter(record("celery.worker.strategy", RECEIVED, task(other)))
    assert quiet.filter(record("celery.app.trace", SUCCEEDED, task(other, return_value="0")))
    assert quiet.filter(record("celery.beat", "Scheduler: Sending due task %s (%s)", "x", other))
    failed = record(
        "celery.app.trace", "Task %(name)s[%(id)s] raised", task(SWEEP), level=logging.ERROR
    )
    assert quiet.filter(failed)


SEAT_PATH = "/play/seat/swt_Zk3Pq9xV-sEcReT_/"


def test_the_servers_access_line_names_the_seat_page_without_its_secret():
    """uvicorn's access formatter reads the request from the record's arguments: they are redacted
    in place, and the filter is on uvicorn's own logger (its handlers are not the settings')."""
    access = logging.getLogger("uvicorn.access")
    line = record(
        "uvicorn.access", '%s - "%s %s HTTP/%s" %d', "203.0.113.7:0", "GET", SEAT_PATH, "1.1", 200
    )

    assert access.filter(line)  # the logger's filters, as logging runs them

    assert line.args == ("203.0.113.7:0", "GET", "/play/seat/[redacted]/", "1.1", 200)


@pytest.mark.parametrize(
    "message",
    [
        ("Internal Server Error: %s", SEAT_PATH),
        ("Token %s was used after its match ended", "swt_Zk3Pq9xV-sEcReT_"),
        (f"GET {SEAT_PATH}?lang=fr failed",),
    ],
)
def test_the_services_own_lines_never_carry_a_secret(message):
    (redacting,) = [  # on the settings' one handler, which every logger of the service reaches
        f
        for handler in logging.getLogger().handlers
        for f in handler.filters
        if isinstance(f, RedactSecrets)
    ]

    line = record("django.request", *message, level=logging.ERROR)
    redacting.filter(line)

    assert "sEcReT" not in line.getMessage()
    assert "[redacted]" in line.getMessage()
