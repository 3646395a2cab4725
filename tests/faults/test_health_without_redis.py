"""``/healthz`` through a real Redis outage: the balancer's check keeps answering 200 (``degraded``,
the broker's error reported) while a private redis-server is stopped, and ``ok`` once it is back.
Failing it would take every host out at once, since they all share the one Redis."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from benchmarks.shape import PrivateRedis

pytestmark = pytest.mark.django_db


def test_healthz_reports_a_redis_outage_without_failing(
    client, private_redis: PrivateRedis, publishing_to: Callable[[str], None]
):
    publishing_to(private_redis.url)
    assert client.get("/healthz").json()["checks"]["broker"] == "ok"

    private_redis.stop()
    during = client.get("/healthz")

    private_redis.start()
    after = client.get("/healthz")

    assert during.status_code == 200
    assert during.json()["status"] == "degraded"
    assert during.json()["checks"]["database"] == "ok"
    assert during.json()["checks"]["broker"].startswith("error:")
    assert after.status_code == 200
    assert (after.json()["checks"]["database"], after.json()["checks"]["broker"]) == ("ok", "ok")
