"""Prometheus metrics (docs/operations.md, "Monitoring"), with the official client library.

Each process counts what it does itself: requests and their latencies and the open streams and long
polls in the web processes, moves wherever they are applied (a web process for a player's, a worker
for a bot's or a turn clock's), task failures and the sweeps' finds in the workers. A host runs
several processes that share no memory (uvicorn's ``WEB_CONCURRENCY`` processes, a worker's pool),
so with ``PROMETHEUS_MULTIPROC_DIR`` set — ``make serve``, ``make worker`` and the units give each
kind of process a directory of its own, emptied when it starts — every process writes its values
to files there and a scrape adds them up (prometheus_client's multiprocess mode). Without it (the
embedded default, one process) the values live in memory.

What belongs to the service as a whole rather than to a process — the broker's queue length, the
last heartbeat of any worker and the last tick of beat — is read when a web process is scraped,
from the broker and the shared cache (:mod:`switchsite.heartbeats`): every web host reports the
same values (take their ``max``).
"""

from __future__ import annotations

import logging
import os
from collections.abc import Iterable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

from celery import current_app
from django.conf import settings
from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.multiprocess import MultiProcessCollector, mark_process_dead
from prometheus_client.registry import REGISTRY, Collector

from switchsite import heartbeats

logger = logging.getLogger(__name__)

REQUESTS = Counter(
    "switch_http_requests",
    "HTTP requests answered, by route (the URL pattern), method and status.",
    ["route", "method", "status"],
)
REQUEST_SECONDS = Histogram(
    "switch_http_request_duration_seconds",
    "Time to answer a request, from its arrival to the end of its answer; long polls and event "
    "streams are left out, since they wait on purpose.",
    ["route", "method"],
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0),
)
WAITING = Gauge(
    "switch_waiting_requests",
    "Event streams open and long polls waiting, by kind (stream, long_poll).",
    ["kind"],
    multiprocess_mode="livesum",
)
MOVES = Counter(
    "switch_moves",
    "Actions applied to matches, by game and by whom: a player, a server bot or a turn clock.",
    ["game", "by"],
)
TASK_FAILURES = Counter(
    "switch_task_failures",
    "Background tasks that raised (each try counts; a task retried after a database fault "
    "counts once a try), by task.",
    ["task"],
)
SWEEP_FINDS = Counter(
    "switch_sweep_finds",
    "What the periodic sweeps found and handled — stalled work published again, events "
    "archived, keys removed — by sweep.",
    ["sweep"],
)


@contextmanager
def waiting(kind: str) -> Iterator[None]:
    """Count a stream or long poll as open while the block runs."""
    gauge = WAITING.labels(kind=kind)
    gauge.inc()
    try:
        yield
    finally:
        gauge.dec()


def multiprocess_directory() -> Path | None:
    value = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
    return Path(value) if value else None


def empty(directory: Path) -> None:
    """Remove the files of an earlier run (their counts would be added to this run's)."""
    for path in directory.glob("*.db"):
        path.unlink(missing_ok=True)


def forget_dead_processes(directory: Path) -> None:
    """Drop the live gauges of processes that are gone (uvicorn replaces a worker that died
    without telling anyone): their last value would be added to the living ones' for ever."""
    for path in directory.glob("gauge_live*_*.db"):
        pid = int(path.stem.rsplit("_", 1)[1])
        with suppress(ProcessLookupError, PermissionError):
            os.kill(pid, 0)
            continue
        mark_process_dead(pid, str(directory))


def registry(*extra: Collector) -> CollectorRegistry:
    """What a scrape reports: this process's metrics, or with ``PROMETHEUS_MULTIPROC_DIR`` those
    of every process that writes there, and the ``extra`` collectors."""
    directory = multiprocess_directory()
    if directory is None:
        scraped = REGISTRY
    else:
        forget_dead_processes(directory)
        scraped = CollectorRegistry()
        MultiProcessCollector(scraped, str(directory))
    combined = CollectorRegistry()
    combined.register(_Both(scraped, extra))
    return combined


class _Both(Collector):
    def __init__(self, scraped: CollectorRegistry, extra: Iterable[Collector]) -> None:
        self.scraped, self.extra = scraped, tuple(extra)

    def collect(self) -> Iterable[Metric]:
        yield from self.scraped.collect()
        for collector in self.extra:
            yield from collector.collect()


def exposition(*extra: Collector) -> bytes:
    """The text a scrape gets (Prometheus's text format)."""
    return generate_latest(registry(*extra))


def gauge(name: str, documentation: str, value: float | None) -> Iterator[Metric]:
    """A one-sample gauge, or nothing when the value is unknown."""
    if value is not None:
        yield GaugeMetricFamily(name, documentation, value=value)


class ServiceCollector(Collector):
    """What belongs to the service as a whole, read at scrape time: the broker's queue length and
    the newest heartbeat of a worker and of beat (none without a broker: nothing to watch). A
    dependency that does not answer leaves its metrics out (and is logged as an outage)."""

    def collect(self) -> Iterable[Metric]:
        if not settings.CELERY_BROKER_URL:
            return
        try:
            length = queue_length()
        except Exception:
            logger.exception("could not read the task queue's length")
        else:
            yield from gauge(
                "switch_task_queue_length",
                "Tasks waiting in the broker's queue for a worker.",
                length,
            )
        for kind, documentation in (
            (heartbeats.WORKER, "When any worker last recorded its heartbeat (Unix time)."),
            (heartbeats.BEAT, "When celery beat last ticked (Unix time)."),
        ):
            try:
                last = heartbeats.last(kind)
            except Exception:
                logger.exception("could not read the %s heartbeat", kind)
            else:
                at = last["at"] if last else None
                yield from gauge(
                    f"switch_last_{kind}_heartbeat_timestamp_seconds", documentation, at
                )


def queue_length() -> int:
    """Messages waiting in the default queue (with every priority level: kombu counts them).
    Celery's current app is the service's (``switchsite.celery``, which imports this module)."""
    app = current_app
    with app.connection_for_read() as broker:
        broker.ensure_connection(
            max_retries=1,
            interval_start=0,
            timeout=settings.CELERY_BROKER_CONNECTION_TIMEOUT,  # type: ignore[arg-type]
        )
        channel: Any = broker.default_channel  # kombu's stubs type it without queue_declare
        # Declared as the workers declare it (a queue no worker has declared yet is empty, not
        # an error); the answer counts what waits in it.
        declared = channel.queue_declare(queue=app.conf.task_default_queue)
    return int(declared.message_count)
