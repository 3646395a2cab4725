"""Stopping a server process without dropping a request: drain, then end the waiters, then stop.

On SIGTERM (what systemd, podman and ``kill`` send) a process first *drains*: for
``SHUTDOWN_DRAIN_SECONDS`` it goes on serving everything, but ``/healthz`` answers 404 ``stopping``
(:data:`draining`), which takes the host out of the balancer's rotation without cutting what it
holds (HAProxy's ``http-check disable-on-404``; any balancer stops sending to a host that fails its
check). Then it asks every waiter to end — streams end cleanly and their clients reconnect with
``Last-Event-ID`` to a host still in rotation, long polls answer — and lets the server go on with
its graceful shutdown: no new connection, the requests in progress finished (within the server's
graceful timeout), then exit. A second SIGTERM while draining changes nothing (uvicorn's
supervisor sends one after systemd's); SIGINT (Ctrl-C) skips the drain.

The lifespan's shutdown message is no use for any of this — servers send it only after every open
connection has finished, and a stream stays open as long as its client keeps it — so at startup a
handler is chained in front of the server's own for SIGTERM and SIGINT.
"""

from __future__ import annotations

import asyncio
import logging
import signal
import threading
from types import FrameType
from typing import Any

from django.conf import settings

from switchsite.serving import notifier

logger = logging.getLogger(__name__)

STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)

# Set from the first SIGTERM on: /healthz answers 404 "stopping" (switchsite.health).
draining = threading.Event()


def close_waiters_on_stop_signals(loop: asyncio.AbstractEventLoop) -> None:
    for stop_signal in STOP_SIGNALS:
        server_handler = signal.getsignal(stop_signal)

        def stop_now(
            signum: int, frame: FrameType | None, server_handler: Any = server_handler
        ) -> None:
            loop.call_soon_threadsafe(notifier.close)
            if callable(server_handler):
                server_handler(signum, frame)
            else:  # no server handler: behave as if ours were not there
                signal.signal(signum, server_handler or signal.SIG_DFL)
                signal.raise_signal(signum)

        def handler(signum: int, frame: FrameType | None, stop_now: Any = stop_now) -> None:
            seconds = settings.SHUTDOWN_DRAIN_SECONDS
            if signum == signal.SIGINT or seconds <= 0:
                stop_now(signum, frame)
            elif not draining.is_set():
                draining.set()
                logger.info(
                    "Stopping: draining for %g s, then ending streams and requests", seconds
                )
                loop.call_soon_threadsafe(loop.call_later, seconds, stop_now, signum, None)

        try:
            signal.signal(stop_signal, handler)
        except ValueError:  # not the main thread (a server embedded in a thread): nothing to chain
            logger.info("Not in the main thread: open streams end only at SSE_MAX_SECONDS")
            return
