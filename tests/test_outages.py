"""A dependency that does not answer is logged once per OUTAGE_LOG_SECONDS with a count, never with a
traceback per request (docs/operations.md, "Logs"); the whole path with a real redis-server going
away under a server: tests/faults/test_outage_logs.py."""

from __future__ import annotations

import logging

import pytest
from django.db import OperationalError
from kombu.exceptions import OperationalError as BrokerError
from redis.exceptions import ConnectionError as RedisConnectionError

from switchsite.outages import Collapse, Outages, dependency_of, outages


def test_errors_name_the_dependency_that_does_not_answer_and_others_none():
    refused = RedisConnectionError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")
    wrapped = BrokerError(str(refused))
    wrapped.__cause__ = refused  # as kombu raises it: `raise … from error`

    assert dependency_of(wrapped) == "Redis"
    assert dependency_of(OperationalError("server closed the connection")) == "PostgreSQL"
    assert dependency_of(KeyError("a bug")) is None


def test_an_outage_is_one_line_then_one_per_interval_with_the_count_then_its_end(
    caplog: pytest.LogCaptureFixture, settings, monkeypatch: pytest.MonkeyPatch
):
    settings.OUTAGE_LOG_SECONDS = 60
    clock = [1000.0]
    monkeypatch.setattr("switchsite.outages.time.monotonic", lambda: clock[0])
    down = Outages()
    error = RedisConnectionError("Connection refused.")

    with caplog.at_level(logging.INFO, logger="switch.outages"):
        for _ in range(40):  # 40 requests in the first second
            down.failed("Redis", "publishing a task", error)
        clock[0] += 61
        down.failed("Redis", "publishing a task", error)
        for _ in range(9):
            down.failed("Redis", "publishing a task", error)
        clock[0] += 5
        down.answered("Redis")
        down.answered("Redis")

    lines = [r.getMessage() for r in caplog.records]
    assert len(lines) == 3
    assert lines[0].startswith("Redis does not answer (publishing a task): ConnectionError")
    assert lines[1].startswith("Redis still does not answer: 40 failures in the last 61 s")
    assert lines[2] == "Redis answers again after 66 s (9 failures since the last line)"
    assert [r.exc_info for r in caplog.records] == [None, None, None]


def test_the_log_filter_turns_a_dependencys_traceback_into_a_count_and_keeps_a_bugs():
    collapse = Collapse()

    def line(error: BaseException) -> logging.LogRecord:
        return logging.getLogger("celery.beat").makeRecord(
            "celery.beat",
            logging.ERROR,
            __file__,
            1,
            "Message Error: %s",
            (error,),
            (
                type(error),
                error,
                None,
            ),
        )

    before = outages._down.copy()
    try:
        assert not collapse.filter(line(BrokerError("Error 111 connecting")))
        assert "Redis" in outages._down
        assert collapse.filter(line(ZeroDivisionError("a bug")))
    finally:
        outages._down = before
