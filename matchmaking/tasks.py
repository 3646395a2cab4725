"""Celery tasks: thin wrappers around services, idempotent, safe to run twice at once."""

from __future__ import annotations

from celery import shared_task
from django.utils import timezone

from matchmaking import services
from switchsite.tasks import RETRY_ON_DATABASE_FAULTS


@shared_task(**RETRY_ON_DATABASE_FAULTS)
def run_ladders() -> int:
    """The ladders' scheduler: mark inactive bots, seat the rounds that are due, start tables a
    dead worker left. Run every few seconds by ``celery beat`` (exactly one; or in-process
    without a broker): a round is seated once however often it runs."""
    return services.ladders_tick()


@shared_task(**RETRY_ON_DATABASE_FAULTS)
def match_pool() -> int:
    """Start the quick-play matches the waiting entries make now. Published when a player
    enters, and run every few seconds by ``celery beat`` for the entries that become overdue."""
    return services.pool_match()


@shared_task
def purge_matchmaking() -> tuple[int, int]:
    """Retention: ladder tables kept ``EVENT_RETENTION_DAYS``, ended quick-play entries a day."""
    return services.matchmaking_purge(now=timezone.now())
