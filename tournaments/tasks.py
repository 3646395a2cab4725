"""Celery tasks: thin wrappers around services, taking ids, safe to run twice."""

from __future__ import annotations

from celery import shared_task
from django.db import OperationalError

from tournaments import errors, services


@shared_task(acks_late=True, autoretry_for=(OperationalError,), retry_backoff=True, max_retries=5)
def record_table_result(match_id: int) -> bool:
    """Score a tournament table whose match has ended; a second run rewrites the same lines."""
    return services.table_result_record(match_id=match_id)


@shared_task(acks_late=True, autoretry_for=(OperationalError,), retry_backoff=True, max_retries=5)
def recompute_tournament(tournament_id: int) -> bool:
    """The full recompute after a correction: score lines re-read, ratings replayed.

    Returns False (doing nothing) for a tournament deleted since the task was enqueued.
    """
    try:
        services.standings_recompute(tournament_id=tournament_id)
    except errors.TournamentNotFound:
        return False
    return True
