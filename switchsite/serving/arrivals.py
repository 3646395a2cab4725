"""Moves judged by when they arrived: a move that reached the server before its turn clock ran out
is never struck by that clock, however long the server then took to apply it (a thread pool full,
a database slow to answer, a bot thinking beside it on the same cores).

A move is noted as it arrives — in the event loop, before it waits for a thread
(:mod:`switchsite.asgi`) — and forgotten once answered, in a count per match in the shared cache,
which every web process and worker reads. The turn clock of a match with a move in flight
waits (:func:`games.services.matches.turn_timeout_apply`): the sweep comes back to it a few seconds
later, and by then the move has been applied or refused. A move may hold the clock for
:data:`HELD_SECONDS` after the deadline at most, and its count is forgotten that long after it was
made, so that neither a process that died mid-request nor a stream of posts holds it for ever.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import TypeVar

from django.core.cache import cache
from django.urls import Resolver404, resolve

from switchsite.serving.routing import CACHED_PATH_LENGTH

logger = logging.getLogger(__name__)

# The longest a move in flight holds its match's turn clock past the deadline: the time the API
# allows itself for a request (an Idempotency-Key's first request counts as lost after it).
HELD_SECONDS = 60

View = TypeVar("View", bound=type)


def judged_on_arrival(view: View) -> View:
    """Mark a view whose ``POST`` is a move in the match its ``match_id`` names."""
    view.judged_on_arrival = True  # type: ignore[attr-defined]
    return view


def move_of(method: str, path: str) -> int | None:
    """The match that a request posts a move to, or None for any other request."""
    if method != "POST":
        return None
    if len(path) > CACHED_PATH_LENGTH:
        return _move_of(path)
    return _cached_move_of(path)


def _move_of(path: str) -> int | None:
    for candidate in (path,) if path.endswith("/") else (path, path + "/"):
        try:
            found = resolve(candidate)
        except Resolver404:
            continue
        judged = getattr(getattr(found.func, "view_class", None), "judged_on_arrival", False)
        return int(found.kwargs["match_id"]) if judged else None
    return None


_cached_move_of = functools.lru_cache(maxsize=4096)(_move_of)


def _key(match_id: int) -> str:
    return f"moves-in-flight:{match_id}"


def arrived(match_id: int) -> None:
    """Count a move to the match as in flight."""
    try:
        cache.add(_key(match_id), 0, timeout=HELD_SECONDS)
        cache.incr(_key(match_id))
    except Exception:  # the cache is gone: the clock judges as it did before, by its own time
        logger.warning("could not note a move to match %s as arrived", match_id, exc_info=True)


def answered(match_id: int) -> None:
    """The move to the match has been answered (applied or refused)."""
    try:
        cache.decr(_key(match_id))
    except ValueError:
        pass  # forgotten already (HELD_SECONDS passed)
    except Exception:
        logger.warning("could not note a move to match %s as answered", match_id, exc_info=True)


def moves_in_flight(match_id: int) -> bool:
    """Whether a move to the match has arrived and not yet been answered."""
    try:
        return bool(cache.get(_key(match_id), 0) > 0)
    except Exception:
        logger.warning("could not read the moves in flight of match %s", match_id, exc_info=True)
        return False


@asynccontextmanager
async def in_flight(method: str, path: str) -> AsyncIterator[None]:
    """While the block answers a request, count it in flight if it is a move (the cache is read
    from a thread: in production it is Redis, across the network)."""
    match_id = move_of(method, path)
    if match_id is None:
        yield
        return
    loop = asyncio.get_running_loop()
    await loop.run_in_executor(None, arrived, match_id)
    try:
        yield
    finally:
        await loop.run_in_executor(None, answered, match_id)
