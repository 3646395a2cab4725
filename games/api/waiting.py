"""Long polls and Server-Sent Events that sleep until the notifier wakes them.

Both subscribe to their topics *before* reading, and clear the wake-up flag just before each read,
so an event committed at any moment is either in the read or wakes them again afterwards. Between
wake-ups they make no query and hold no thread (``release_request_thread``); they read only after
their cursor, so a spurious or repeated wake-up costs one read and sends nothing twice. Their reads
are awaitables that the views build on ``switchsite.asyncdb.run_shared``: the waiters of a topic,
woken together, share one read.
"""

from __future__ import annotations

import asyncio
import logging
import math
import random
from collections.abc import AsyncGenerator, AsyncIterator, Awaitable, Callable, Iterable
from contextlib import aclosing
from typing import Any

from django.conf import settings
from django.db import DatabaseError

from games import errors
from games.presence import tracker
from switchsite import metrics
from switchsite.asyncdb import release_request_thread
from switchsite.encoding import json_text
from switchsite.serving import notifier

logger = logging.getLogger(__name__)

# How long a client waits before reconnecting after a stream ends (the SSE ``retry:`` field).
RECONNECT_MILLISECONDS = 1000
# With SSE_MAX_SECONDS set, a stream lasts that long and up to this share more, chosen at random
# for each stream.
MAX_EXTRA_SHARE = 0.25
# Events one read of a stream returns at most (it reads again at once after a full batch).
STREAM_BATCH = 100


Page = tuple[list[dict[str, Any]], int]  # events after the cursor, and how many in all
# At most STREAM_BATCH events after a cursor, and whether nothing will follow them.
Batch = tuple[list[dict[str, Any]], bool]


async def long_poll(
    read: Callable[[], Awaitable[Page]],
    topics: Iterable[notifier.Topic],
    wait: float,
    *,
    present: int | None = None,
) -> Page:
    """``read()`` now; if it found nothing, again each time the topics are woken, until it finds
    something or ``wait`` seconds pass (or the server stops). The user ``present`` (an id) is
    online while it waits (:mod:`games.presence`)."""
    if wait <= 0:
        return await read()
    loop = asyncio.get_running_loop()
    deadline = loop.time() + wait
    async with tracker.held(present):
        return await _poll(read, topics, deadline, loop)


async def _poll(
    read: Callable[[], Awaitable[Page]],
    topics: Iterable[notifier.Topic],
    deadline: float,
    loop: asyncio.AbstractEventLoop,
) -> Page:
    with notifier.subscribe(topics) as subscription, metrics.waiting("long_poll"):
        while True:
            subscription.clear()
            results, count = await read()
            if results or notifier.hub.closing:
                return results, count
            release_request_thread()
            if not await subscription.wait(deadline - loop.time()) or notifier.hub.closing:
                return results, count


def sse_message(event: dict[str, Any]) -> str:
    return f"id: {event['seq']}\nevent: {event['type']}\ndata: {json_text(event)}\n\n"


async def event_stream(
    read: Callable[[int], Awaitable[Batch]],
    topics: Iterable[notifier.Topic],
    after: int,
    *,
    ends_with: notifier.Topic | None = None,
    present: int | None = None,
) -> AsyncIterator[str]:
    """Server-Sent Events: each event after ``after`` once, with ``id`` = seq for Last-Event-ID.
    The user ``present`` (an id) is online while it is open (:mod:`games.presence`).

    ``read(after)`` returns at most :data:`STREAM_BATCH` events after ``after`` and whether nothing
    will follow them (a finished match). The stream stays open as long as the client keeps it; it
    ends when nothing will follow and all was sent, when the server stops, if the database fails,
    when ``ends_with`` is woken (the token that opened it was revoked: nothing more is sent to it),
    or — only if the operator set ``SSE_MAX_SECONDS`` — after that long and up to a quarter more
    (the client reconnects). It sends a comment line after ``SSE_KEEPALIVE_SECONDS`` of silence,
    so that proxies keep the connection and clients can tell a quiet stream from a dead one.
    """
    loop = asyncio.get_running_loop()
    ends_at = math.inf
    if settings.SSE_MAX_SECONDS is not None:
        # Up to a quarter longer, at random: streams opened together (after a restart, say) then
        # end, and reconnect, spread out rather than all at once.
        ends_at = loop.time() + settings.SSE_MAX_SECONDS * random.uniform(1, 1 + MAX_EXTRA_SHARE)
    yield f"retry: {RECONNECT_MILLISECONDS}\n\n"
    subscribed = [*topics, *([ends_with] if ends_with is not None else [])]
    stream = _stream(read, subscribed, after, ends_at, ends_with)
    async with tracker.held(present), aclosing(stream):
        async for message in stream:
            yield message


async def _stream(
    read: Callable[[int], Awaitable[Batch]],
    subscribed: list[notifier.Topic],
    after: int,
    ends_at: float,
    ends_with: notifier.Topic | None,
) -> AsyncGenerator[str]:
    loop = asyncio.get_running_loop()
    keepalive = settings.SSE_KEEPALIVE_SECONDS
    last_sent = loop.time()
    with notifier.subscribe(subscribed) as subscription, metrics.waiting("stream"):
        while True:
            if ends_with is not None and subscription.woken_by(ends_with):
                return
            subscription.clear()
            try:
                events, over = await read(after)
            except DatabaseError:
                logger.warning("Event stream ended: the database failed", exc_info=True)
                return
            except errors.CursorExpired:
                return  # retention removed what follows the cursor: reconnecting gets 410
            for event in events:
                after = event["seq"]
                yield sse_message(event)
            if events:
                last_sent = loop.time()
            if len(events) >= STREAM_BATCH:  # perhaps more: read on at once
                continue
            if over:
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


def change_stream(
    topics: Iterable[notifier.Topic], after: int, *, ends_with: notifier.Topic | None = None
) -> AsyncIterator[str]:
    """Server-Sent Events that keep no history: a ``changed`` event when the stream opens and
    another whenever the topics are woken, numbered on from ``after``. A client reads what it shows
    at each of them, so that nothing changed while it was away, or between its read and the
    subscription, is missed; a spurious wake-up costs it one read. It ends as
    :func:`event_stream` ends (``ends_with``: its token revoked)."""

    async def read(cursor: int) -> Batch:
        return [{"seq": cursor + 1, "type": "changed"}], False

    return event_stream(read, topics, after, ends_with=ends_with)
