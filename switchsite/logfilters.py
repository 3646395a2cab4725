"""Log filters that keep the service's log to one line per thing worth reading, and no secret."""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping
from typing import Any

from django.conf import settings


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


# A seat link's secret is the path of its page (/play/seat/<secret>/) and a named token's begins
# with its prefix: whoever reads the log could otherwise play the guest's seat.
SECRETS = re.compile(r"(/play/seat/)[^/\s?#\"']+|\b(swt_)[A-Za-z0-9_-]+")
REDACTED = "[redacted]"


def redacted(text: str) -> str:
    return SECRETS.sub(lambda found: (found[1] or found[2]) + REDACTED, text)


class RedactSecrets(logging.Filter):
    """Take seat-link secrets and named tokens out of every line: the ASGI server's access log
    (its formatter reads the request's path from the record's arguments, so each argument is
    redacted in place) and the service's own."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = redacted(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(_redacted_argument(arg) for arg in record.args)
        elif isinstance(record.args, Mapping):
            record.args = {key: _redacted_argument(arg) for key, arg in record.args.items()}
        return True


def _redacted_argument(argument: Any) -> Any:
    return redacted(argument) if isinstance(argument, str) else argument
