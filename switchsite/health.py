"""``GET /healthz``: can this process serve? The load balancer's check (deploy/haproxy.cfg).

It fails (503) only on what this process cannot serve without: its database — every request then
answers 503, and a host whose own way to the database is broken (its pooler down, a partition)
must be taken out while the others serve. The broker is reported but never failed on: every host
shares the one Redis, and the service works without it (moves commit; bots and turn clocks wait
for the sweep, which recovers them), so failing on it would take every host out at once and turn
an outage that loses nothing into a full one (docs/operations.md, "Health checks").
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from switchsite.celery import app as celery_app


def check_database() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()


def check_broker() -> None:
    with celery_app.connection_for_write(settings.CELERY_BROKER_URL) as broker:
        broker.ensure_connection(
            max_retries=1,
            interval_start=0,
            # kombu waits any number of seconds; its stubs say int
            timeout=settings.CELERY_BROKER_CONNECTION_TIMEOUT,  # type: ignore[arg-type]
        )


def outcome(check: Callable[[], None]) -> str:
    """``"ok"``, or the error the check met (any failure is the answer, not a crash)."""
    try:
        check()
    except Exception as error:
        return f"error: {type(error).__name__}: {error}"
    return "ok"


def run_checks() -> tuple[str, dict[str, str]]:
    """Every check's outcome, and the status they add up to: ``"ok"``, ``"degraded"`` (the
    broker is down: served all the same) or ``"unavailable"`` (the database is)."""
    checks = {"database": outcome(check_database)}
    if settings.CELERY_BROKER_URL:
        checks["broker"] = outcome(check_broker)
    else:
        checks["broker"] = "not configured (tasks run in-process)"
    if checks["database"] != "ok":
        return "unavailable", checks
    if checks["broker"].startswith("error"):
        return "degraded", checks
    return "ok", checks


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    status, checks = run_checks()
    return JsonResponse(
        {"status": status, "checks": checks}, status=503 if status == "unavailable" else 200
    )
