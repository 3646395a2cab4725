"""Ending open streams and long polls when the server is told to stop.

The lifespan's shutdown message is no use for that — servers send it only after every open
connection has finished, and a stream stays open up to ``SSE_MAX_SECONDS`` — so at startup a
handler is chained in front of the server's own for SIGTERM and SIGINT: it asks every waiter to end
(streams end cleanly, clients reconnect with ``Last-Event-ID``), then lets the server go on with
its graceful shutdown as usual.
"""

from __future__ import annotations

import asyncio
import logging
import signal
from types import FrameType
from typing import Any

from games import notifier

logger = logging.getLogger(__name__)

STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)


def close_waiters_on_stop_signals(loop: asyncio.AbstractEventLoop) -> None:
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
