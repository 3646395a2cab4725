"""Celery tasks: thin wrappers around services, taking ids, safe to run twice."""

from __future__ import annotations

from datetime import timedelta

from celery import shared_task
from django.conf import settings

from switchsite.tasks import RETRY_ON_DATABASE_FAULTS, republish_stalled
from tournaments import errors, services


@shared_task(**RETRY_ON_DATABASE_FAULTS)
def record_table_result(match_id: int) -> bool:
    """Score a tournament table whose match has ended; a second run rewrites the same lines."""
    return services.table_result_record(match_id=match_id)


@shared_task(**RETRY_ON_DATABASE_FAULTS)
def recompute_tournament(tournament_id: int) -> bool:
    """The full recompute after a correction: score lines re-read, ratings replayed.

    Returns False (doing nothing) for a tournament deleted since the task was enqueued.
    """
    try:
        services.standings_recompute(tournament_id=tournament_id)
    except errors.TournamentNotFound:
        return False
    return True


@shared_task
def sweep_unscored_tables() -> int:
    """Publish again the scoring of every table whose match ended a while ago but has no score
    lines (its task was lost). Run every few seconds by ``celery beat`` (or in-process without a
    broker). Returns how many tasks were published."""
    quiet = timedelta(seconds=settings.SWEEP_STALL_SECONDS)
    return sum(
        republish_stalled(record_table_result.name, match_id, stalled_as=f"unscored:{match_id}")
        for match_id in services.unscored_matches(quiet_for=quiet)
    )
