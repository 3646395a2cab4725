"""The ASGI lifespan protocol, which Django does not speak: what each server process does when it
starts (listen for event notifications, end open streams on a stop signal, run the tasks and the
sweeps without a broker, leave its startup objects out of garbage collection) and when it stops."""

from __future__ import annotations

import asyncio
import gc
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from django.conf import settings

from switchsite import asyncdb
from switchsite.serving import notifier
from switchsite.serving.beat import beat_in_process, beat_schedule
from switchsite.serving.stopping import close_waiters_on_stop_signals
from switchsite.tasks import in_process_worker

# How long a stopping process waits for the task its in-process worker is running (a bot thinking):
# what it does not finish, the sweep publishes again at the next start.
TASK_STOP_SECONDS = 5.0

Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[Mapping[str, Any]], Awaitable[None]]


async def lifespan(receive: Receive, send: Send) -> None:
    beat: asyncio.Task[None] | None = None
    while True:
        message = await receive()
        if message["type"] == "lifespan.startup":
            await notifier.start()
            close_waiters_on_stop_signals(asyncio.get_running_loop())
            if settings.CELERY_TASK_ALWAYS_EAGER:
                in_process_worker.start()
                beat = asyncio.create_task(
                    beat_in_process(beat_schedule()), name="switch-beat-in-process"
                )
            freeze_startup_objects()
            await send({"type": "lifespan.startup.complete"})
        elif message["type"] == "lifespan.shutdown":
            if beat is not None:
                beat.cancel()
                await asyncio.get_running_loop().run_in_executor(
                    None, in_process_worker.stop, TASK_STOP_SECONDS
                )
            await notifier.stop()
            await asyncio.get_running_loop().run_in_executor(None, asyncdb.close_connections)
            await send({"type": "lifespan.shutdown.complete"})
            return


def freeze_startup_objects() -> None:
    """Leave the objects made at startup (Django, the URL and model registries, the modules: about
    half of a serving process's heap) out of every later garbage collection. A full collection
    stops the whole process — every stream, every request — and with a thousand open streams it
    took 50–310 ms, long enough to make a health check miss its 100 ms; ``gc.freeze`` is Python's
    way of saying that these objects live as long as the process."""
    gc.collect()
    gc.freeze()
