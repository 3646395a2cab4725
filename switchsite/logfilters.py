"""Log filters that keep the service's log to one line per thing worth reading."""

from __future__ import annotations

import logging
from collections.abc import Mapping

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
