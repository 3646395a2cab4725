"""Celery tasks: thin wrappers around services, taking ids, re-reading the match, safe to run twice.

No task trusts the state it was enqueued with: each reads the match as it is now, and does nothing
when the work is already done. That is what lets the sweep publish the same work again whenever it
looks stalled — after a dead worker, a lost message or a failed publish.
"""

from __future__ import annotations

import time
from datetime import timedelta

from celery import shared_task
from django.conf import settings

from games import botshare, errors, services
from switchsite.tasks import (
    RETRY_ON_DATABASE_FAULTS,
    publish,
    republish_stalled,
    tasks_run_inline,
)


@shared_task(**RETRY_ON_DATABASE_FAULTS)
def play_bot_turns(match_id: int, payer_id: int | None = None) -> int:
    """Play bot seats while one is to move (a slice of moves, then the rest as a new task), and
    count the time to ``payer_id``, the match's creator (None: published by the sweep).

    Returns the number of moves played: 0 when no bot is to move (the work was done already).
    """
    if tasks_run_inline():  # no worker to hog or share, and re-publishing would nest calls
        try:
            return services.bot_turns_play(match_id=match_id)[0]
        except errors.MatchNotFound:
            return 0
    # A long run of bot moves (a table of bots, a strong bot's turns) is played in slices, the rest
    # as a new task, queued by the player's share of the workers (games.botshare).
    lock = "" if payer_id is None else botshare.slice_begins(payer_id)
    if lock is None:  # a slice of theirs is being played: this one waits its turn
        botshare.publish_bot_turns(match_id, payer_id, later=True)
        return 0
    started = time.monotonic()
    try:
        played, more = services.bot_turns_play(match_id=match_id, seconds=botshare.SLICE_SECONDS)
    except errors.MatchNotFound:
        return 0  # deleted since: nothing left to do
    finally:
        botshare.slice_ends(lock)
    if payer_id is not None:
        botshare.spent(payer_id, time.monotonic() - started)
    if more:
        botshare.publish_bot_turns(match_id, payer_id)
    return played


@shared_task(**RETRY_ON_DATABASE_FAULTS)
def enforce_turn_clock(match_id: int) -> bool:
    """Apply the default action if the match's turn clock has run out (re-read, not trusted)."""
    try:
        return services.turn_timeout_apply(match_id=match_id)
    except errors.MatchNotFound:
        return False  # deleted since: nothing left to do


@shared_task(**RETRY_ON_DATABASE_FAULTS)
def keep_record_deals(match_id: int) -> bool:
    """Keep the deals of the record of a match that has ended (nothing to do if they are kept)."""
    return services.record_deals_keep(match_id=match_id)


@shared_task
def sweep_stalled_matches() -> int:
    """Publish again the background work of every match that shows no progress: a bot to move, a
    turn clock run out, record deals not kept. Run every few seconds by ``celery beat`` (or
    in-process without a broker).

    Returns how many tasks were published.
    """
    due = {
        "bot_to_move": play_bot_turns,
        "clock_overdue": enforce_turn_clock,
        "record_deals": keep_record_deals,
    }
    quiet = timedelta(seconds=settings.SWEEP_STALL_SECONDS)
    return sum(
        republish_stalled(due[kind].name, match_id, stalled_as=f"{kind}:{match_id}:{version}")
        for kind, match_id, version in services.stalled_matches(quiet_for=quiet)
    )


@shared_task(**RETRY_ON_DATABASE_FAULTS)
def replay_ratings(game: str) -> int:
    """Rate the pending results of ``game`` in batches, one transaction and one task each.

    Returns the number of batches run (0 when nothing was pending: the work was done already).
    """
    if tasks_run_inline():  # no worker to hog; re-publishing would nest calls
        batches = 1
        while services.ratings_replay_step(game=game):
            batches += 1
        return batches
    if services.ratings_replay_step(game=game):
        publish(replay_ratings.name, game)
    return 1


@shared_task
def sweep_ratings() -> int:
    """Publish again the rating replay of every game whose pending results show no progress (its
    task was lost, its worker died mid-way). Run every few seconds by ``celery beat``."""
    quiet = timedelta(seconds=settings.SWEEP_STALL_SECONDS)
    return sum(
        republish_stalled(replay_ratings.name, game, stalled_as=f"ratings:{game}")
        for game in services.games_to_replay(quiet_for=quiet)
    )


@shared_task
def expire_challenges() -> int:
    """End the pending challenges whose time is up (``challenge_expired`` to everyone in them).
    Run every few seconds by ``celery beat`` (or in-process without a broker); a run that was
    missed is made up by the next. Returns how many expired."""
    return services.challenges_expire()


# How long one run of the retention sweep works before it leaves the rest to the next run.
PURGE_SECONDS_PER_RUN = 10.0


@shared_task
def purge_old_events() -> tuple[int, int]:
    """Archive the logs of matches that ended ``EVENT_RETENTION_DAYS`` ago and remove their events
    and feed entries, in small batches (``games.services.retention``). Run by ``celery beat`` every
    ``RETENTION_SWEEP_SECONDS``; what one run leaves, the next one does."""
    return services.old_events_purge(seconds=PURGE_SECONDS_PER_RUN)
