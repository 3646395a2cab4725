"""Django's Redis cache with one connection pool per process.

Django keeps cache objects per asyncio context, so under ASGI every request gets a new
``RedisCache`` and with it a new connection pool: each request opened a TCP connection to Redis
for its throttle counters (a tenth of the CPU a stream's connection cost; Django pull request
18459, open). Here every instance with the same servers and options shares one client, and so one
pool of connections, which redis-py makes safe to share between threads — and one redis-py client
object per pool, where Django builds one per call (each copies redis-py's table of response
callbacks: a few hundred microseconds a request for the two throttle calls).
"""

from __future__ import annotations

import re
import threading
from typing import Any

from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from django.utils.functional import cached_property


class _SharedClient(RedisCacheClient):
    def __init__(self, servers: list[str], **options: Any) -> None:
        super().__init__(servers, **options)
        self._redis_clients: dict[int, Any] = {}

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        # Django's own (private, so not in its type stubs) way to a pool and to a client class.
        pool = self._get_connection_pool(write)  # type: ignore[attr-defined]
        client = self._redis_clients.get(id(pool))
        if client is None:  # two threads may both build one: either is fine
            new_client = self._client(connection_pool=pool)  # type: ignore[attr-defined]
            client = self._redis_clients.setdefault(id(pool), new_client)
        return client


_clients: dict[str, RedisCacheClient] = {}
_clients_lock = threading.Lock()


class PooledRedisCache(RedisCache):
    def __init__(self, server: str | list[str], params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._client_servers = re.split("[;,]", server) if isinstance(server, str) else server
        self._client_options: dict[str, Any] = params.get("OPTIONS", {})

    @cached_property
    def _cache(self) -> RedisCacheClient:
        key = repr((self._client_servers, sorted(self._client_options.items())))
        with _clients_lock:
            if key not in _clients:
                _clients[key] = _SharedClient(self._client_servers, **self._client_options)
            return _clients[key]

    def redis_client(self) -> Any:
        """The redis-py client of this cache's pool, for what the cache's API cannot say (the
        streams' leases: switchsite.serving.streamcaps)."""
        return self._cache.get_client(write=True)
