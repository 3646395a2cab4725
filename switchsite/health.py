"""``GET /healthz``: is this process able to serve? For load balancers and orchestrators."""

from __future__ import annotations

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


def run_checks() -> tuple[bool, dict[str, str]]:
    """Run every check; each reports ``"ok"``, ``"not configured"`` or the error it met."""
    checks = {"database": check_database}
    if settings.CELERY_BROKER_URL:
        checks["broker"] = check_broker
    results: dict[str, str] = {}
    healthy = True
    for name, check in checks.items():
        try:
            check()
        except Exception as error:  # any failure is the answer, not a crash
            healthy = False
            results[name] = f"error: {type(error).__name__}: {error}"
        else:
            results[name] = "ok"
    if not settings.CELERY_BROKER_URL:
        results["broker"] = "not configured (tasks run in-process)"
    return healthy, results


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    healthy, checks = run_checks()
    return JsonResponse(
        {"status": "ok" if healthy else "unavailable", "checks": checks},
        status=200 if healthy else 503,
    )
