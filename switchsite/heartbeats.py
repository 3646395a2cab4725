"""Heartbeats of the background processes, so that a dead worker or beat is seen.

Every worker records one every :data:`INTERVAL_SECONDS` from its main process's timer (whatever its
pool is doing), and beat one as it ticks; both in the shared cache, the newest of each kind only:
the question is whether *any* worker still runs, and whether beat does. ``/healthz`` reports a kind
silent for longer than ``HEARTBEAT_SILENT_SECONDS`` as ``degraded``, naming it, and ``/metrics``
gives the times (docs/operations.md, "Monitoring"). With no broker there is no worker nor beat
process to watch (tasks and sweeps run in the web process).
"""

from __future__ import annotations

import logging
import socket
import time
from typing import Any

from celery import bootsteps
from celery.beat import PersistentScheduler
from django.conf import settings
from django.core.cache import cache

logger = logging.getLogger(__name__)

WORKER, BEAT = "worker", "beat"
KINDS = (WORKER, BEAT)
INTERVAL_SECONDS = 5.0
# Kept in the cache long after any alert would have fired; then the kind reads as never seen.
KEPT_SECONDS = 7 * 24 * 3600


def _key(kind: str) -> str:
    return f"heartbeat:{kind}"


def record(kind: str, name: str) -> None:
    """``name`` (a worker's hostname, beat's host) of ``kind`` is alive now. Never raises: a cache
    that does not answer is logged as an outage (:mod:`switchsite.outages`)."""
    try:
        cache.set(_key(kind), {"at": time.time(), "name": name}, timeout=KEPT_SECONDS)
    except Exception:
        logger.exception("could not record the %s heartbeat", kind)


def last(kind: str) -> dict[str, Any] | None:
    """The newest heartbeat of ``kind``: ``{"at": unix time, "name"}``, or None if none is kept."""
    value = cache.get(_key(kind))
    return value if isinstance(value, dict) else None


class Silent(Exception):
    """A kind of process whose last heartbeat is older than ``HEARTBEAT_SILENT_SECONDS``."""


def check(kind: str) -> str:
    """``"ok: …"`` with how long ago and who, or raise :class:`Silent`."""
    beat = last(kind)
    if beat is None:
        raise Silent(f"no {kind} heartbeat recorded")
    age = time.time() - beat["at"]
    if age > settings.HEARTBEAT_SILENT_SECONDS:
        raise Silent(f"no {kind} heartbeat for {age:.0f} s (last from {beat['name']})")
    return f"ok: {beat['name']} {age:.0f} s ago"


class WorkerHeartbeat(bootsteps.StartStopStep):
    """A worker's heartbeat, on the timer of its main process (added to the worker's steps by
    :mod:`switchsite.celery`)."""

    requires = ("celery.worker.components:Timer",)

    def __init__(self, worker: Any, **options: Any) -> None:
        super().__init__(worker, **options)
        self.timer_entry: Any = None

    def start(self, worker: Any) -> None:
        record(WORKER, worker.hostname)
        self.timer_entry = worker.timer.call_repeatedly(
            INTERVAL_SECONDS, record, (WORKER, worker.hostname)
        )

    def stop(self, worker: Any) -> None:
        if self.timer_entry is not None:
            self.timer_entry.cancel()


class RecordingScheduler(PersistentScheduler):
    """``celery beat``'s scheduler (its schedule kept in a file, as by default) that records a
    heartbeat as it ticks, at most every :data:`INTERVAL_SECONDS`."""

    recorded_at = 0.0

    def tick(self, *args: Any, **kwargs: Any) -> float:
        interval: float = super().tick(*args, **kwargs)
        now = time.monotonic()
        if now - self.recorded_at >= INTERVAL_SECONDS:
            self.recorded_at = now
            record(BEAT, socket.gethostname())
        return min(interval, INTERVAL_SECONDS)
