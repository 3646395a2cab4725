"""How many streams one holder may keep open at once, across every web process and host: a token
(the API's streams), or an address (the anonymous live pages of tournaments and series).

A stream is counted from the moment its view accepts it to the moment its response is closed
(Django closes every response when it is done, the client gone or the stream ended), so a holder
over the cap is refused at once with a problem document, never cut off half-way.

Where the service has Redis (the cache, ``CACHES``), each open stream holds a *lease* there: a
member of its holder's sorted set, scored by the moment it lapses. Opening a stream drops the
holder's lapsed leases, counts the others and adds its own in one script, so two processes can
never both take the last place; closing it removes its lease; and every process renews the leases
of its open streams each third of ``STREAM_LEASE_SECONDS``, all in one round trip. A process that
is killed renews nothing more: its streams' places come free within ``STREAM_LEASE_SECONDS``. The
moments are Redis's own, so the hosts' clocks need not agree.

Without Redis (one process on a developer's machine) the count is this process's own. When Redis
does not answer, a stream is counted in this process only and the fault logged — a cap is a
protection, not a reason to refuse service (as the rate limits: :mod:`switchsite.api.throttling`).
"""

from __future__ import annotations

import logging
import threading
import time
import uuid
import weakref
from collections import Counter
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.cache import caches
from django.http import HttpRequest, StreamingHttpResponse
from django.utils.translation import gettext
from redis.exceptions import RedisError

from switchsite.asyncdb import run_sync
from switchsite.cache import PooledRedisCache
from switchsite.outages import outages
from switchsite.problems import TooManyStreams

logger = logging.getLogger(__name__)

RETRY_AFTER_SECONDS = 10

# KEYS[1]: the holder's leases. ARGV: the streams allowed, the new lease, the lease's seconds.
# 1 if the lease was taken, 0 if the holder has as many streams open as allowed.
_TAKE = """
local clock = redis.call('TIME')
local now = tonumber(clock[1]) + tonumber(clock[2]) / 1000000
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then
  return 0
end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[3]), ARGV[2])
redis.call('EXPIRE', KEYS[1], math.ceil(tonumber(ARGV[3])))
return 1
"""

# KEYS: holders' leases. ARGV[1]: the lease's seconds; ARGV[i + 1]: a lease of KEYS[i], renewed
# if it is still there (one that lapsed or was given back is not taken again).
_RENEW = """
local clock = redis.call('TIME')
local until_ = tonumber(clock[1]) + tonumber(clock[2]) / 1000000 + tonumber(ARGV[1])
for i, key in ipairs(KEYS) do
  if redis.call('ZADD', key, 'XX', 'CH', until_, ARGV[i + 1]) == 1 then
    redis.call('EXPIRE', key, math.ceil(tonumber(ARGV[1])))
  end
end
return #KEYS
"""


def _shared_redis() -> PooledRedisCache | None:
    """The cache, when it is Redis."""
    shared = caches["default"]
    return shared if isinstance(shared, PooledRedisCache) else None


class OpenStreams:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._here: Counter[str] = Counter()  # streams counted in this process only
        self._leases: dict[str, tuple[Any, str]] = {}  # lease -> (its client, its holder's key)
        _renewer.watch(self)

    async def hold(self, holder: str, allowed: int, limit: str) -> Callable[[], None]:
        """Count one more stream of ``holder`` and return what ends it (once); refuse (429
        ``too_many_streams``, naming ``limit``) if it already has ``allowed`` open."""
        shared = _shared_redis()
        if shared is not None:
            try:
                # Off the event loop, as the request's other calls to Redis (its rate limits).
                return await run_sync(self._hold_shared, shared, holder, allowed, limit)
            except RedisError:
                logger.exception("a stream counted in this process only: Redis is unreachable")
        return self._hold_here(holder, allowed, limit)

    def _hold_shared(
        self, shared: PooledRedisCache, holder: str, allowed: int, limit: str
    ) -> Callable[[], None]:
        client = shared.redis_client()
        key = shared.make_key(f"streams:{holder}")
        lease = uuid.uuid4().hex
        taken = client.eval(_TAKE, 1, key, allowed, lease, settings.STREAM_LEASE_SECONDS)
        outages.answered("Redis")
        if not taken:
            raise _refusal(allowed, limit)
        with self._lock:
            self._leases[lease] = (client, key)
        _renewer.start()

        def end() -> None:
            with self._lock:
                if self._leases.pop(lease, None) is None:
                    return
            try:
                client.zrem(key, lease)
            except RedisError:  # its lease lapses unrenewed
                logger.exception("a stream's place given back late: Redis is unreachable")

        return end

    def _hold_here(self, holder: str, allowed: int, limit: str) -> Callable[[], None]:
        with self._lock:
            if self._here[holder] >= allowed:
                raise _refusal(allowed, limit)
            self._here[holder] += 1
        ended = threading.Event()

        def end() -> None:
            if ended.is_set():
                return
            ended.set()
            with self._lock:
                self._here[holder] -= 1
                if self._here[holder] <= 0:
                    del self._here[holder]

        return end

    def leases(self) -> list[tuple[Any, str, str]]:
        """The leases of this process's open streams: (client, key, lease)."""
        with self._lock:
            return [(client, key, lease) for lease, (client, key) in self._leases.items()]


def _refusal(allowed: int, limit: str) -> TooManyStreams:
    return TooManyStreams(
        gettext(
            "You have %(allowed)d streams open already: close one, or follow more "
            "matches from your feed's stream."
        )
        % {"allowed": allowed},
        limit=limit,
        allowed=allowed,
        retry_after=RETRY_AFTER_SECONDS,
    )


class _Renewer:
    """One thread per process that renews the leases of every open stream, each third of
    ``STREAM_LEASE_SECONDS``, in one script per Redis client; started by the first lease."""

    def __init__(self) -> None:
        self._counters: weakref.WeakSet[OpenStreams] = weakref.WeakSet()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    def watch(self, streams: OpenStreams) -> None:
        self._counters.add(streams)

    def start(self) -> None:
        with self._lock:
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name="stream-leases", daemon=True)
                self._thread.start()

    def _run(self) -> None:
        while True:
            time.sleep(settings.STREAM_LEASE_SECONDS / 3)
            self.renew()

    def renew(self) -> None:
        by_client: dict[int, tuple[Any, list[str], list[str]]] = {}
        for streams in list(self._counters):
            for client, key, lease in streams.leases():
                _, keys, leases = by_client.setdefault(id(client), (client, [], []))
                keys.append(key)
                leases.append(lease)
        for client, keys, leases in by_client.values():
            try:
                client.eval(_RENEW, len(keys), *keys, settings.STREAM_LEASE_SECONDS, *leases)
            except RedisError:
                logger.exception("streams' leases not renewed: Redis is unreachable")


_renewer = _Renewer()
open_streams = OpenStreams()


def counted(response: StreamingHttpResponse, end: Callable[[], None]) -> StreamingHttpResponse:
    """The stream stops counting when its response is closed (whether or not it was ever sent)."""
    response._resource_closers.append(end)  # type: ignore[attr-defined]  # run by close()
    return response


def address_holder(request: HttpRequest) -> str:
    """An anonymous viewer, by the client's address (switchsite.serving.addresses)."""
    return f"address:{request.META.get('REMOTE_ADDR', '')}"
