"""``celery beat``'s schedule run by the web process itself when there is no broker (the embedded
default, ``make run``): the sweeps must run somewhere, and every task already runs in-process."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from django.conf import settings
from django.utils.module_loading import import_string

logger = logging.getLogger(__name__)


def beat_schedule() -> list[tuple[Any, float]]:
    """``celery beat``'s schedule: (task, interval in seconds) for each entry."""
    return [
        (import_string(entry["task"]), float(entry["schedule"]))
        for entry in settings.CELERY_BEAT_SCHEDULE.values()
    ]


async def beat_in_process(schedule: list[tuple[Any, float]]) -> None:
    """Run ``schedule``, each task in a thread, until cancelled. One server process only."""
    loop = asyncio.get_running_loop()
    due = {task.name: loop.time() + interval for task, interval in schedule}
    while True:
        await asyncio.sleep(min(due.values()) - loop.time())
        for task, interval in schedule:
            if due[task.name] <= loop.time():
                due[task.name] = loop.time() + interval
                try:
                    await loop.run_in_executor(None, task.apply)
                except Exception:  # the next round tries again; the server must stay up
                    logger.exception("The in-process sweep %s failed", task.name)
