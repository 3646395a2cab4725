"""ASGI entry point: ``uvicorn switchsite.asgi:application`` (``make serve``, ``make run``).

Two ways in, chosen per request by the view its path resolves to:

- the **waiting** views (long polls and event streams, Django async views) go to Django's ASGI
  handler: they wait on the event loop, holding no thread (:mod:`switchsite.asyncdb`);
- every **other** view — synchronous, as most of Django and DRF are — goes to Django's WSGI handler
  on a fixed pool of ``SYNC_REQUEST_THREADS`` threads per process (a2wsgi). Under the ASGI handler
  a synchronous view costs a new thread per request, a hop between threads for each synchronous
  middleware on the way in and out, and (the thread being new) a new database connection; on the
  pool the whole request runs in one thread that keeps its connection (``CONN_MAX_AGE``).

Django's ASGI handler serves HTTP only. ``application`` adds the ASGI *lifespan* protocol around it,
so that each server process, at startup, starts its listener for event notifications
(:mod:`games.notifier`) — and, with no broker (the embedded default), runs ``celery beat``'s
schedule itself — and, when told to stop, ends its open event streams and long polls at once:
they would otherwise keep the process alive for up to ``SSE_MAX_SECONDS``.

The lifespan's shutdown message is no use for that — servers send it only after every open
connection has finished — so startup chains a handler in front of the server's own for SIGTERM and
SIGINT: it asks every waiter to end (streams end cleanly, clients reconnect with ``Last-Event-ID``),
then lets the server go on with its graceful shutdown as usual.
"""

from __future__ import annotations

import asyncio
import functools
import gc
import logging
import os
import signal
from collections.abc import Awaitable, Callable, Mapping
from types import FrameType
from typing import Any

from a2wsgi import WSGIMiddleware
from asgiref.sync import iscoroutinefunction
from django.core.asgi import get_asgi_application
from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "switchsite.settings")

waiting_application = get_asgi_application()

from django.conf import settings  # noqa: E402
from django.urls import Resolver404, resolve  # noqa: E402
from django.utils.module_loading import import_string  # noqa: E402

from games import notifier  # noqa: E402  (needs the app registry that get_asgi_application set up)
from switchsite import asyncdb  # noqa: E402

logger = logging.getLogger(__name__)

Scope = dict[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[Mapping[str, Any]], Awaitable[None]]

STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)

ordinary_application = WSGIMiddleware(
    get_wsgi_application(),  # type: ignore[arg-type]  # Django's WSGIHandler is a WSGI app
    workers=settings.SYNC_REQUEST_THREADS,
)


async def application(scope: Scope, receive: Receive, send: Send) -> None:
    if scope["type"] == "lifespan":
        await _lifespan(receive, send)
    elif scope["type"] == "http" and not waits(scope["path"].removeprefix(scope["root_path"])):
        await ordinary_application(scope, receive, send)  # type: ignore[arg-type]
    else:
        await waiting_application(scope, receive, send)


def waits(path: str) -> bool:
    """Whether ``path`` is served by an async view — the ones that wait. Tried as given, then with
    a trailing slash, as :class:`switchsite.middleware.OptionalTrailingSlash` serves it. Resolving
    costs more than the rest of the choice and clients ask the same paths again, so the answers for
    paths of ordinary length are kept (a bounded cache: long made-up paths cannot fill memory)."""
    if len(path) > CACHED_PATH_LENGTH:
        return _resolves_to_async_view(path)
    return _cached_resolves_to_async_view(path)


CACHED_PATH_LENGTH = 200


def _resolves_to_async_view(path: str) -> bool:
    for candidate in (path,) if path.endswith("/") else (path, path + "/"):
        try:
            return iscoroutinefunction(resolve(candidate).func)
        except Resolver404:
            continue
    return False


_cached_resolves_to_async_view = functools.lru_cache(maxsize=4096)(_resolves_to_async_view)


async def _lifespan(receive: Receive, send: Send) -> None:
    beat: asyncio.Task[None] | None = None
    while True:
        message = await receive()
        if message["type"] == "lifespan.startup":
            await notifier.start()
            _close_waiters_on_stop_signals(asyncio.get_running_loop())
            if settings.CELERY_TASK_ALWAYS_EAGER:
                beat = asyncio.create_task(
                    _beat_in_process(_beat_schedule()), name="switch-beat-in-process"
                )
            _freeze_startup_objects()
            await send({"type": "lifespan.startup.complete"})
        elif message["type"] == "lifespan.shutdown":
            if beat is not None:
                beat.cancel()
            await notifier.stop()
            await asyncio.get_running_loop().run_in_executor(None, asyncdb.close_connections)
            await send({"type": "lifespan.shutdown.complete"})
            return


def _freeze_startup_objects() -> None:
    """Leave the objects made at startup (Django, the URL and model registries, the modules: about
    half of a serving process's heap) out of every later garbage collection. A full collection
    stops the whole process — every stream, every request — and with a thousand open streams it
    took 50–310 ms, long enough to make a health check miss its 100 ms; ``gc.freeze`` is Python's
    way of saying that these objects live as long as the process."""
    gc.collect()
    gc.freeze()


def _beat_schedule() -> list[tuple[Any, float]]:
    """``celery beat``'s schedule: (task, interval in seconds) for each entry."""
    return [
        (import_string(entry["task"]), float(entry["schedule"]))
        for entry in settings.CELERY_BEAT_SCHEDULE.values()
    ]


async def _beat_in_process(schedule: list[tuple[Any, float]]) -> None:
    """Without a broker there is no ``celery beat``: run its schedule (the sweeps) here, each task
    in a thread, as the embedded default runs every task in-process. One server process only."""
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


def _close_waiters_on_stop_signals(loop: asyncio.AbstractEventLoop) -> None:
    for stop_signal in STOP_SIGNALS:
        server_handler = signal.getsignal(stop_signal)

        def handler(
            signum: int, frame: FrameType | None, server_handler: Any = server_handler
        ) -> None:
            loop.call_soon_threadsafe(notifier.close)
            if callable(server_handler):
                server_handler(signum, frame)
            else:  # no server handler: behave as if ours were not there
                signal.signal(signum, server_handler or signal.SIG_DFL)
                signal.raise_signal(signum)

        try:
            signal.signal(stop_signal, handler)
        except ValueError:  # not the main thread (a server embedded in a thread): nothing to chain
            logger.info("Not in the main thread: open streams end only at SSE_MAX_SECONDS")
            return
