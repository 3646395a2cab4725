"""Long polls and Server-Sent Events that sleep until the notifier wakes them.

Both subscribe to their topics *before* reading, and clear the wake-up flag just before each read,
so an event committed at any moment is either in the read or wakes them again afterwards. Between
wake-ups they make no query and hold no thread (``release_request_thread``); they read only after
their cursor, so a spurious or repeated wake-up costs one read and sends nothing twice.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator, Callable, Iterable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import DatabaseError

from games import notifier
from switchsite.asyncdb import release_request_thread, run_sync

logger = logging.getLogger(__name__)

# How long a client waits before reconnecting after a stream ends (the SSE ``retry:`` field).
RECONNECT_MILLISECONDS = 1000


@dataclass(frozen=True)
class Batch:
    """What one read found after the cursor."""

    results: list[dict[str, Any]]  # the first events after the cursor, oldest first
    count: int  # how many events there are after the cursor in all
    over: bool = False  # nothing will ever follow these (a finished match)


async def long_poll(
    read: Callable[[], Batch], topics: Iterable[notifier.Topic], wait: float
) -> Batch:
    """``read()`` now; if it found nothing, again each time the topics are woken, until it finds
    something or ``wait`` seconds pass (or the server stops)."""
    if wait <= 0:
        return await run_sync(read)
    loop = asyncio.get_running_loop()
    deadline = loop.time() + wait
    with notifier.subscribe(topics) as subscription:
        while True:
            subscription.clear()
            batch = await run_sync(read)
            if batch.results or notifier.hub.closing:
                return batch
            release_request_thread()
            if not await subscription.wait(deadline - loop.time()) or notifier.hub.closing:
                return batch


def sse_message(event: dict[str, Any]) -> str:
    return f"id: {event['seq']}\nevent: {event['type']}\ndata: {json.dumps(event)}\n\n"


async def event_stream(
    read: Callable[[int], Batch], topics: Iterable[notifier.Topic], after: int
) -> AsyncIterator[str]:
    """Server-Sent Events: each event after ``after`` once, with ``id`` = seq for Last-Event-ID.

    Ends when ``read`` says nothing more will come and all was sent, after ``SSE_MAX_SECONDS``
    (the client reconnects), when the server stops, or if the database fails; sends a comment line
    after ``SSE_KEEPALIVE_SECONDS`` of silence so that proxies keep the connection.
    """
    loop = asyncio.get_running_loop()
    ends_at = loop.time() + settings.SSE_MAX_SECONDS
    keepalive = settings.SSE_KEEPALIVE_SECONDS
    yield f"retry: {RECONNECT_MILLISECONDS}\n\n"
    last_sent = loop.time()
    with notifier.subscribe(topics) as subscription:
        while True:
            subscription.clear()
            try:
                batch = await run_sync(read, after)
            except DatabaseError:
                logger.warning("Event stream ended: the database failed", exc_info=True)
                return
            for event in batch.results:
                after = event["seq"]
                yield sse_message(event)
            if batch.results:
                last_sent = loop.time()
            if batch.count > len(batch.results):
                continue
            if batch.over:
                return
            release_request_thread()
            while True:  # idle: no query until the notifier wakes us
                now = loop.time()
                if now >= ends_at or notifier.hub.closing:
                    return
                if now - last_sent >= keepalive:
                    yield ": keepalive\n\n"
                    last_sent = now
                woken = await subscription.wait(min(ends_at, last_sent + keepalive) - now)
                if notifier.hub.closing:
                    return
                if woken:
                    break
