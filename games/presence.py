"""Presence from the waiters a web process holds: who has a feed stream or a long poll open.

Every web host must agree on who is online (the ladders seat the bots that are), so it is kept in
the database (:class:`~games.models.Presence`), not in one process's memory. Writing it once per
waiter would cost a query per long poll and, for a stream, one every few seconds — but an idle
waiter costs no query. So each process counts the users it holds in memory and writes:

- when a user's first waiter opens here, at once (unless this process wrote them within
  :data:`WRITE_GAP`): a bot is online as soon as it connects;
- every :data:`REFRESH_SECONDS`, **one** statement for everyone it holds and for whoever closed
  their last waiter since (at the time they closed): a waiter open for hours stays online, and one
  that closed stays online until a minute after it closed, give or take the refresh.

The refresher runs only while the process holds someone or has closes to write.
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import datetime

from django.db import DatabaseError
from django.utils import timezone

from games.services.presence import presence_write
from switchsite.asyncdb import run_sync

logger = logging.getLogger(__name__)

# Each process writes the presence of the users it holds this often (well inside the minute that
# "online" allows after the last sight).
REFRESH_SECONDS = 20.0
# A user opening waiters one after another (a bot's back-to-back long polls) is written at most
# this often by one process when they open.
WRITE_GAP = 10.0


class Tracker:
    """This process's users with a waiter open, and the refresher that writes them."""

    def __init__(self) -> None:
        self._held: Counter[int] = Counter()
        self._closed: dict[int, datetime] = {}  # left since the last refresh: when
        self._written: dict[int, float] = {}  # user → loop time of this process's last write
        self._refresher: asyncio.Task[None] | None = None

    def holds(self, user_id: int) -> bool:
        return user_id in self._held

    @asynccontextmanager
    async def held(self, user_id: int | None) -> AsyncIterator[None]:
        """Count ``user_id`` online while the block runs (``None``: nobody, a no-op)."""
        if user_id is None:
            yield
            return
        loop = asyncio.get_running_loop()
        self._held[user_id] += 1
        self._closed.pop(user_id, None)
        self._ensure_refreshing(loop)
        try:
            if loop.time() - self._written.get(user_id, -WRITE_GAP) >= WRITE_GAP:
                self._written[user_id] = loop.time()
                await self._write({user_id: timezone.now()})
            yield
        finally:
            self._held[user_id] -= 1
            if self._held[user_id] <= 0:
                del self._held[user_id]
                self._closed[user_id] = timezone.now()

    def _ensure_refreshing(self, loop: asyncio.AbstractEventLoop) -> None:
        task = self._refresher
        if task is None or task.done() or task.get_loop() is not loop:
            self._refresher = loop.create_task(self._refresh(), name="switch-presence")

    async def _refresh(self) -> None:
        loop = asyncio.get_running_loop()
        while self._held or self._closed:
            await asyncio.sleep(REFRESH_SECONDS)
            now = timezone.now()
            seen = {**self._closed, **dict.fromkeys(self._held, now)}
            self._closed = {}
            for user_id in seen:
                self._written[user_id] = loop.time()
            for user_id in [u for u in self._written if u not in self._held]:
                del self._written[user_id]
            await self._write(seen)

    async def _write(self, seen: dict[int, datetime]) -> None:
        try:
            await run_sync(presence_write, seen=seen)
        except DatabaseError:  # presence is a hint: the next refresh writes it again
            logger.warning("Presence not written: the database failed", exc_info=True)


tracker = Tracker()
