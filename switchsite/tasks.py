"""Publishing background work: after commit, and never failing the request that committed it.

A write is answered 2xx once it commits, whatever happens to the broker afterwards. If publishing
fails (the broker is down, a connection is refused), the failure is logged and nothing else
happens: the work is still visible in the database, and the periodic sweep (``games.tasks``,
``tournaments.tasks``) publishes it again. With no broker (the embedded default) tasks run
in-process, and a task that fails there is logged the same way rather than failing the request:
in a served process (``make run``) on a thread of their own (:class:`InProcessWorker`), so that no
request waits for a bot to think; elsewhere (tests, management commands) in the publishing thread.

Tasks are published by name (``"games.tasks.play_bot_turns"``), as a worker and ``celery beat``
know them: a service that publishes work does not import the tasks module that calls it back.
"""

from __future__ import annotations

import logging
import queue
import threading
from typing import Any

from celery import Task, current_app, shared_task
from django.conf import settings
from django.core.cache import cache
from django.db import OperationalError, close_old_connections, connections, transaction

from switchsite.api.idempotency import expired_keys_purge
from switchsite.outages import outages

logger = logging.getLogger(__name__)

# Every task of the service: a database fault is retried with backoff (it re-reads everything).
RETRY_ON_DATABASE_FAULTS: dict[str, Any] = {
    "autoretry_for": (OperationalError,),
    "retry_backoff": True,
    "max_retries": 5,
}


def registered_task(name: str) -> Task:
    """The task called ``name``; every app's tasks module is imported on first need, as a worker
    does when it starts. An unknown name raises KeyError: a mistake, not a lost message."""
    if name not in current_app.tasks:
        current_app.loader.import_default_modules()
    return current_app.tasks[name]


class InProcessWorker:
    """Without a broker, a served process runs the tasks it publishes on one thread of its own, in
    the order they were published, as a worker with one process would: never on the request that
    published them, which is answered at once. (Run on the request, three ``montecarlo`` bots
    thinking in turn held the answer to a move for seconds, past the next turn clock.)

    A task still queued when the process stops is lost with it, as a broker without persistence
    loses its queue: the sweep finds the work in the database and publishes it again."""

    def __init__(self) -> None:
        self._queue: queue.SimpleQueue[tuple[str, tuple[Any, ...]] | None] = queue.SimpleQueue()
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None

    @property
    def running(self) -> bool:
        return self._thread is not None

    def start(self) -> None:
        self._queue, self._stopping = queue.SimpleQueue(), threading.Event()
        self._thread = threading.Thread(
            target=self._work, args=(self._queue, self._stopping), name="switch-tasks", daemon=True
        )
        self._thread.start()

    def stop(self, seconds: float) -> None:
        """Stop after the task being run, waiting ``seconds`` at most; those queued are dropped."""
        thread, self._thread = self._thread, None
        if thread is not None:
            self._stopping.set()
            self._queue.put(None)  # wakes the thread if it waits for a task
            thread.join(seconds)

    def submit(self, task: str, args: tuple[Any, ...]) -> None:
        self._queue.put((task, args))

    @staticmethod
    def _work(
        tasks: queue.SimpleQueue[tuple[str, tuple[Any, ...]] | None], stopping: threading.Event
    ) -> None:
        while (item := tasks.get()) is not None and not stopping.is_set():
            task, args = item
            close_old_connections()
            try:
                registered_task(task).delay(*args)
            except Exception:
                logger.exception("%s%r failed; the sweep will find the work again", task, args)
        connections.close_all()


in_process_worker = InProcessWorker()


def tasks_run_inline() -> bool:
    """Whether a task published now runs in the publishing thread (no broker, no in-process
    worker): a task that would publish its own continuation must then go on itself instead."""
    return settings.CELERY_TASK_ALWAYS_EAGER and not in_process_worker.running


def publish(
    task: str, *args: Any, priority: int | None = None, countdown: float | None = None
) -> bool:
    """Enqueue the task named ``task`` now; True if it was handed over (or, run in the publishing
    thread, ran without error). A ``priority`` (0, the default's, first to 9 last) puts it behind
    the tasks of a lower number on the broker, a ``countdown`` runs it no sooner than that many
    seconds from now (games.botshare); in-process, tasks run in order, at once."""
    registered = registered_task(task)
    if settings.CELERY_TASK_ALWAYS_EAGER and in_process_worker.running:
        in_process_worker.submit(task, args)
        return True
    try:
        options: dict[str, Any] = {"priority": priority, "countdown": countdown}
        registered.apply_async(args, **{k: v for k, v in options.items() if v is not None})
    except Exception:
        logger.exception("could not publish %s%r; the sweep will find the work again", task, args)
        return False
    if not settings.CELERY_TASK_ALWAYS_EAGER:
        outages.answered("Redis")
    return True


def publish_after_commit(task: str, *args: Any) -> None:
    """Enqueue the task named ``task`` once the current transaction commits (at once outside a
    transaction)."""
    registered_task(task)  # a name that names no task fails its caller, not the commit
    transaction.on_commit(lambda: publish(task, *args))


def republish_stalled(task: str, *args: Any, stalled_as: str) -> bool:
    """A sweep found work that shows no progress: publish the task named ``task`` again — once per
    ``SWEEP_STALL_SECONDS`` for the same ``stalled_as`` (say, a match and its version), so a slow
    queue does not fill up with copies while the first is still on its way."""
    if not cache.add(f"swept:{stalled_as}", True, timeout=settings.SWEEP_STALL_SECONDS):
        return False
    return publish(task, *args)


@shared_task
def purge_expired_idempotency_keys() -> int:
    """Remove the ``Idempotency-Key`` rows older than 24 hours, a batch at a time, until none is
    left. Run by ``celery beat`` every ``RETENTION_SWEEP_SECONDS``; returns how many went."""
    removed = 0
    while done := expired_keys_purge():
        removed += done
    return removed
