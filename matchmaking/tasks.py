"""Celery tasks: thin wrappers around services, idempotent, safe to run twice at once."""

from __future__ import annotations

from celery import shared_task
from django.utils import timezone

from matchmaking import services
from switchsite.tasks import RETRY_ON_DATABASE_FAULTS, republish_stalled


@shared_task(**RETRY_ON_DATABASE_FAULTS)
def run_ladders() -> int:
    """The ladders' scheduler: mark inactive bots, then publish the seating of every round that
    is due (a task per ladder, so that ladders are seated side by side on the worker's
    processes) and the start of every table a dead worker left. Run every few seconds by
    ``celery beat`` (exactly one; or in-process without a broker): a round is seated once however
    often it runs, and published once per ``SWEEP_STALL_SECONDS``. Returns the tasks published."""
    now = timezone.now()
    services.inactive_mark()
    due = services.ladders_due(now=now)
    published = sum(
        republish_stalled(seat_ladder_round.name, pk, stalled_as=f"ladder:{pk}:{rounds}")
        for pk, rounds in due
    )
    return published + sum(
        republish_stalled(start_ladder_table.name, pk, stalled_as=f"ladder-table:{pk}")
        for pk in services.tables_unstarted(now=now)
    )


@shared_task(**RETRY_ON_DATABASE_FAULTS)
def seat_ladder_round(ladder_id: int) -> int:
    """Seat the ladder's round and start its tables, if it is due and no one else is doing it;
    returns the tables seated (none: it was done already)."""
    return len(services.ladder_round_seat(ladder_id=ladder_id))


@shared_task(**RETRY_ON_DATABASE_FAULTS)
def start_ladder_table(table_id: int) -> bool:
    """Start a seated table's match unless it has one."""
    return services.ladder_table_start(table_id=table_id)


@shared_task(**RETRY_ON_DATABASE_FAULTS)
def match_pool() -> int:
    """Start the quick-play matches the waiting entries make now. Published when a player
    enters, and run every few seconds by ``celery beat`` for the entries that become overdue."""
    return services.pool_match()


@shared_task
def purge_matchmaking() -> tuple[int, int]:
    """Retention: ladder tables kept ``EVENT_RETENTION_DAYS``, ended quick-play entries a day."""
    return services.matchmaking_purge(now=timezone.now())
