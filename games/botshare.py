"""The bot workers shared fairly between players (docs/operations.md, "Fair shares").

Every server-bot move is work for the workers, and the broker hands tasks out in the order they
came: a player whose matches keep many strong bots busy (a script moving at once in matches full of
``montecarlo`` bots) had every other player's bots wait behind theirs, their answers seconds late
(docs/performance.md, "Fair shares of the bot workers"). So a match's bot work is put to the
player who created it (a tournament's tables: whoever seated them), and each slice of it a worker
plays is counted to them over the last minute, in the cache (Redis). Their next bot task waits
behind those of players who used less: priority 0 while they used less than ``BOT_SHARE_SECONDS``
of the workers' time in the last minute, 3 below three times that, 6 below six times, 9 above.
The broker keeps a list per priority (kombu's ``priority_steps``) and a worker always takes from
the first one that is not empty. A slice is short (``games.tasks``: at most ``BOT_SLICE_SECONDS``,
at least one move), so a player's task waits for a worker to finish one slice, not a queue.

Priorities order the queue, but every worker may still be busy with a heavy player's slices when
another's task arrives, and one strong bot's move can take seconds. So a player past their share
has one slice played at a time, on whichever worker (a lock in the cache): their other matches'
tasks go back to the queue, behind everyone's, for a moment, and the other workers stay free for
the players within their share.

If the cache does not answer, bot work runs at the first priority, uncounted: a share is a
protection, not a reason to stop the bots.
"""

from __future__ import annotations

import logging
import math
import time

from django.conf import settings
from django.core.cache import cache

from switchsite.tasks import publish

logger = logging.getLogger(__name__)

BUCKET_SECONDS = 10
BUCKETS = 6  # the last minute
# A player's priority by the multiples of BOT_SHARE_SECONDS their bots used in the last minute.
PRIORITY_FROM = ((6, 9), (3, 6), (1, 3))
# How long a slice of bot work lasts (at least one move): games.tasks plays them.
SLICE_SECONDS = 0.5
LOCK_SECONDS = 30


def _keys(payer_id: int, now: float) -> list[str]:
    bucket = math.floor(now / BUCKET_SECONDS)
    return [f"bot-ms:{payer_id}:{bucket - back}" for back in range(BUCKETS)]


def spent(payer_id: int, seconds: float) -> None:
    """Count ``seconds`` of the workers' time to ``payer_id``'s bots."""
    key = _keys(payer_id, time.time())[0]
    try:
        cache.add(key, 0, timeout=BUCKET_SECONDS * (BUCKETS + 1))
        cache.incr(key, max(1, round(seconds * 1000)))
    except Exception:
        logger.exception("bot time uncounted: the cache is unreachable")


def priority(payer_id: int) -> int:
    """The priority of ``payer_id``'s next bot task: 0 (first) to 9 (after everyone else's)."""
    try:
        used = sum(cache.get_many(_keys(payer_id, time.time())).values()) / 1000
    except Exception:
        logger.exception("bot work at the first priority: the cache is unreachable")
        return 0
    for multiple, level in PRIORITY_FROM:
        if used >= multiple * settings.BOT_SHARE_SECONDS:
            return level
    return 0


def publish_bot_turns(match_id: int, payer_id: int | None, *, later: bool = False) -> None:
    """Hand the match's bots to a worker, behind the bot work of players who used less; ``later``:
    no sooner than a slice from now (their player has a slice being played)."""
    chosen = None if payer_id is None else priority(payer_id)
    countdown = SLICE_SECONDS if later else None
    publish("games.tasks.play_bot_turns", match_id, payer_id, priority=chosen, countdown=countdown)


def slice_begins(payer_id: int) -> str | None:
    """Whether a slice of ``payer_id``'s bot work may be played now: always within their share;
    past it, only if no other slice of theirs is being played. The lock taken (to give back to
    :func:`slice_ends`), "" for none needed, or None: not now."""
    if priority(payer_id) == 0:
        return ""
    lock = f"bot-slice:{payer_id}"
    try:
        # Held at most a few slices, should the worker die while it plays.
        return lock if cache.add(lock, True, timeout=LOCK_SECONDS) else None
    except Exception:
        logger.exception("bot work unshared: the cache is unreachable")
        return ""


def slice_ends(lock: str) -> None:
    if lock:
        try:
            cache.delete(lock)
        except Exception:
            logger.exception("a bot slice's lock left to lapse: the cache is unreachable")
