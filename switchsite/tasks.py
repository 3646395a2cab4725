"""Publishing background work: after commit, and never failing the request that committed it.

A write is answered 2xx once it commits, whatever happens to the broker afterwards. If publishing
fails (the broker is down, a connection is refused), the failure is logged and nothing else
happens: the work is still visible in the database, and the periodic sweep (``games.tasks``,
``tournaments.tasks``) publishes it again. With no broker (the embedded default) tasks run
in-process, and a task that fails there is logged the same way rather than failing the request.
"""

from __future__ import annotations

import logging
from typing import Any

from celery import Task
from django.db import transaction

logger = logging.getLogger(__name__)


def publish(task: Task, *args: Any) -> bool:
    """Enqueue ``task`` now; True if it was handed over (or, in-process, ran without error)."""
    try:
        task.delay(*args)
    except Exception:
        logger.exception(
            "could not publish %s%r; the sweep will find the work again", task.name, args
        )
        return False
    return True


def publish_after_commit(task: Task, *args: Any) -> None:
    """Enqueue ``task`` once the current transaction commits (at once outside a transaction)."""
    transaction.on_commit(lambda: publish(task, *args))
