"""``GET /healthz``: can this process serve? The load balancer's check (deploy/haproxy.cfg).

It fails (503) only on what this process cannot serve without: its database — every request then
answers 503, and a host whose own way to the database is broken (its pooler down, a partition)
must be taken out while the others serve. The broker is reported but never failed on: every host
shares the one Redis, and the service works without it (moves commit; bots and turn clocks wait
for the sweep, which recovers them), so failing on it would take every host out at once and turn
an outage that loses nothing into a full one.

A worker or beat that has not recorded its heartbeat for ``HEARTBEAT_SILENT_SECONDS`` makes it
``degraded``, naming which (:mod:`switchsite.heartbeats`): the host itself still serves. A host told
to stop answers 404 ``stopping`` while it drains (:mod:`switchsite.serving.stopping`).

Nor does it fail on a dependency that is only slow. Each check runs on a thread of its own and is
waited for :data:`CHECK_SECONDS` at most; one that has not answered by then is reported ``slow``.
A host that is busy (say the last one up, taking every stream of a host that died) must not be
taken out for it: the balancer would cut all its streams and leave no host at all. A database that
refuses connections still fails the check at once (docs/operations.md, "Health checks").
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor, wait
from importlib import metadata

from django.conf import settings
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from switchsite import heartbeats
from switchsite.celery import app as celery_app
from switchsite.outages import outages
from switchsite.serving import stopping

# The release this host runs (pyproject.toml's version): which hosts are upgraded, during a rolling
# upgrade.
VERSION = metadata.version("switch-service")

# How long an answer waits for the checks: well within the balancer's `timeout check` (5 s).
CHECK_SECONDS = 2.0


def check_database() -> None:
    """A query on a connection of the check's own, closed after it: the check's thread serves no
    requests, so nothing else would close a connection the database dropped."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    finally:
        connection.close()


def check_broker() -> None:
    with celery_app.connection_for_write(settings.CELERY_BROKER_URL) as broker:
        broker.ensure_connection(
            max_retries=1,
            interval_start=0,
            # kombu waits any number of seconds; its stubs say int
            timeout=settings.CELERY_BROKER_CONNECTION_TIMEOUT,  # type: ignore[arg-type]
        )


def outcome(check: Callable[[], str | None], dependency: str | None = None) -> str:
    """``"ok"`` (or what the check says is ok), ``"silent: …"`` for a background process that has
    not been heard of, or the error the check met (any failure is the answer, not a crash)."""
    try:
        said = check()
    except heartbeats.Silent as silent:
        return f"silent: {silent}"
    except Exception as error:
        return f"error: {type(error).__name__}: {error}"
    if dependency is not None:
        outages.answered(dependency)
    return said or "ok"


def check_worker() -> str:
    return heartbeats.check(heartbeats.WORKER)


def check_beat() -> str:
    return heartbeats.check(heartbeats.BEAT)


# One thread per check, kept: a check that hangs delays only the later checks of its own kind.
_threads = {
    name: ThreadPoolExecutor(1, thread_name_prefix=f"healthz-{name}")
    for name in ("database", "broker")
}
_dependencies = {"database": "PostgreSQL", "broker": "Redis"}


def run_checks() -> tuple[str, dict[str, str]]:
    """Every check's outcome, and the status they add up to: ``"ok"``, ``"degraded"`` (the
    broker is down, a worker or beat is silent, or a check is slow: served all the same),
    ``"unavailable"`` (the database failed) or ``"stopping"`` (this host is draining before it
    stops: switchsite.serving.stopping)."""
    checks: dict[str, Callable[[], str | None]] = {"database": check_database}
    if settings.CELERY_BROKER_URL:
        checks["broker"] = check_broker
    running: dict[str, Future[str]] = {
        name: _threads[name].submit(outcome, check, _dependencies[name])
        for name, check in checks.items()
    }
    wait(running.values(), timeout=CHECK_SECONDS)
    results = {
        name: future.result() if future.done() else f"slow: no answer within {CHECK_SECONDS:g} s"
        for name, future in running.items()
    }
    if settings.CELERY_BROKER_URL:
        # Reads of the shared cache, each bounded by its socket timeout (1 s): done here.
        results.update(worker=outcome(check_worker), beat=outcome(check_beat))
    else:
        results["broker"] = "not configured (tasks run in-process)"
    if stopping.draining.is_set():
        return "stopping", results
    if results["database"].startswith("error"):
        return "unavailable", results
    if any(result.startswith(("error", "slow", "silent")) for result in results.values()):
        return "degraded", results
    return "ok", results


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    status, checks = run_checks()
    # 404 while draining: HAProxy's `http-check disable-on-404` then stops sending new requests
    # but keeps what the host holds, where a 503 would mark it down and cut every stream.
    code = {"unavailable": 503, "stopping": 404}.get(status, 200)
    return JsonResponse({"status": status, "version": VERSION, "checks": checks}, status=code)
