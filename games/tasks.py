"""Celery tasks: thin wrappers around services, safe to run twice."""

from __future__ import annotations

import threading
from datetime import datetime

from celery import shared_task
from django.conf import settings
from django.db import OperationalError
from django.utils import timezone

from games import errors, services

# A long run of bot seats (an all-bot table) is played in slices so one task never hogs a worker.
BOT_MOVES_PER_TASK = 50


@shared_task(acks_late=True, autoretry_for=(OperationalError,), retry_backoff=True, max_retries=5)
def play_bot_turns(match_id: int, version: int) -> int:
    """Play bot seats in turn while one is to move; does nothing if the match moved past ``version``.

    Returns the number of moves played.
    """
    # In-process (no broker) there is no worker to hog, and re-enqueueing would nest calls.
    limit = None if settings.CELERY_TASK_ALWAYS_EAGER else BOT_MOVES_PER_TASK
    played = 0
    while limit is None or played < limit:
        try:
            moved = services.bot_turn_apply(match_id=match_id, expected_version=version + played)
        except errors.MatchNotFound:
            return played  # deleted since: nothing left to do
        if not moved:
            return played
        played += 1
    play_bot_turns.delay(match_id, version + played)
    return played


@shared_task(acks_late=True, autoretry_for=(OperationalError,), retry_backoff=True, max_retries=5)
def enforce_turn_clock(match_id: int, deadline: str) -> bool:
    """Apply the default action if the match still waits on the turn that ends at ``deadline``."""
    try:
        return services.turn_timeout_apply(
            match_id=match_id, deadline=datetime.fromisoformat(deadline)
        )
    except errors.MatchNotFound:
        return False  # deleted since: nothing left to do


@shared_task(acks_late=True)
def enforce_overdue_turns() -> int:
    """Catch every clock that ran out but was not enforced (a lost task, a restarted process).

    Run periodically by ``celery beat`` (see ``CELERY_BEAT_SCHEDULE``); returns how many it enforced.
    """
    return sum(
        services.turn_timeout_apply(match_id=match_id, deadline=deadline)
        for match_id, deadline in services.overdue_turns()
    )


def schedule_turn_clock(match_id: int, deadline: datetime) -> None:
    """Enforce the clock when it runs out: a task due at ``deadline`` on a worker, or — with no
    broker, where tasks run in-process and would ignore the delay — a timer in this process."""
    if settings.CELERY_TASK_ALWAYS_EAGER:
        delay = max(0.0, (deadline - timezone.now()).total_seconds())
        timer = threading.Timer(
            delay, enforce_turn_clock.delay, args=(match_id, deadline.isoformat())
        )
        timer.daemon = True
        timer.start()
    else:
        enforce_turn_clock.apply_async((match_id, deadline.isoformat()), eta=deadline)
