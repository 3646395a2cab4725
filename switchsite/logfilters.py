"""Log filters that keep the service's log to one line per thing worth reading, and no secret."""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Mapping
from typing import Any

from django.conf import settings


class UtcFormatter(logging.Formatter):
    """Times in UTC, ISO 8601 with milliseconds (``2026-11-28T05:12:01.123Z``): the same on every
    host, and sorted as text."""

    converter = staticmethod(time.gmtime)
    default_time_format = "%Y-%m-%dT%H:%M:%S"
    default_msec_format = "%s.%03dZ"


class QuietSweeps(logging.Filter):
    """Drop Celery's INFO lines about the periodic sweeps (``CELERY_BEAT_SCHEDULE``) unless a sweep
    found something: beat sending one, a worker receiving one and its success are logged every few
    seconds, and say nothing when the sweep returned 0. A sweep that did something (the sweeps
    return how many things they handled) is still logged, and so is every warning and error."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno >= logging.WARNING:
            return True
        sweeps = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
        args = record.args
        if isinstance(args, Mapping):  # the worker's "received" and "succeeded" lines
            if args.get("name") not in sweeps:
                return True
            # (the return value as Celery logs it: its repr, "0" when the sweep found nothing)
            return "succeeded" in str(record.msg) and str(args.get("return_value")) != "0"
        # beat's "Scheduler: Sending due task <entry> (<task>)"
        return not (isinstance(args, tuple) and len(args) == 2 and args[1] in sweeps)


class UnavailableAnswers(logging.Filter):
    """Drop Django's line for each answer 503: the access log has every answer, and the database
    outage that causes them is logged once a while (:mod:`switchsite.outages`) instead of once a
    request."""

    def filter(self, record: logging.LogRecord) -> bool:
        return getattr(record, "status_code", None) != 503


# A seat link's secret is the path of its page (/play/seat/<secret>/) and a named token's begins
# with its prefix: whoever reads the log could otherwise play the guest's seat.
SECRETS = re.compile(r"(/play/seat/)[^/\s?#\"']+|\b(swt_)[A-Za-z0-9_-]+")
REDACTED = "[redacted]"


def redacted(text: str) -> str:
    return SECRETS.sub(lambda found: (found[1] or found[2]) + REDACTED, text)


# What every log record has; anything else on a record is a field a caller added (``extra``).
_RECORD_ATTRIBUTES = frozenset(vars(logging.makeLogRecord({}))) | {"message", "asctime"}


class RedactSecrets(logging.Filter):
    """Take seat-link secrets and named tokens out of every line: the ASGI server's access log
    (its formatter reads the request's path from the record's arguments, so each argument is
    redacted in place), the service's own, and the fields a line adds (the access log's ``path``,
    written as a member of its own in JSON)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = redacted(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(_redacted_argument(arg) for arg in record.args)
        elif isinstance(record.args, Mapping):
            record.args = {key: _redacted_argument(arg) for key, arg in record.args.items()}
        for name, value in vars(record).items():
            if name not in _RECORD_ATTRIBUTES and isinstance(value, str):
                setattr(record, name, redacted(value))
        return True


def _redacted_argument(argument: Any) -> Any:
    return redacted(argument) if isinstance(argument, str) else argument
