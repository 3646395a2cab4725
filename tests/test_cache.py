"""The shared cache (throttle counters, the sweep's marks) on Redis: Django makes a cache object per
request under ASGI, and each must not open a connection of its own (switchsite.cache)."""

import contextvars
from typing import Any

import pytest
import redis
from django.conf import settings
from django.core.cache import caches

from switchsite.cache import PooledRedisCache
from tests.conftest import IN_CI


def require_redis_cache() -> None:
    if not settings.CACHES["default"]["BACKEND"].endswith("RedisCache"):
        if IN_CI:
            pytest.fail("CI=true but the cache is not Redis: the broker's cache is untested")
        pytest.skip("no Redis cache configured (set CELERY_BROKER_URL to a Redis URL)")


def test_requests_each_with_a_cache_of_their_own_share_the_connections_to_redis():
    require_redis_cache()
    location = settings.CACHES["default"]["LOCATION"]
    server = redis.Redis.from_url(location)

    def connections_received() -> int:
        stats: dict[str, Any] = server.info("stats")  # type: ignore[assignment]  # redis-py types every answer as maybe-awaitable
        return int(stats["total_connections_received"])

    def one_request() -> None:  # a fresh context: what ASGI gives each request
        assert caches["default"].get("anything") is None

    contextvars.Context().run(one_request)  # the process's pool connects once
    before = connections_received()
    for _ in range(20):
        contextvars.Context().run(one_request)

    assert connections_received() - before == 0


def test_cache_calls_reuse_one_redis_client():
    """Django builds a redis-py client per call; building one copies its table of callbacks."""
    require_redis_cache()
    clients = []

    def one_request() -> None:
        cache = caches["default"]
        assert isinstance(cache, PooledRedisCache)
        clients.append(cache._cache.get_client("key"))

    for _ in range(5):
        contextvars.Context().run(one_request)

    assert all(client is clients[0] for client in clients)
