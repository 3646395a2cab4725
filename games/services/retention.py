"""Retention: what a match and a player's feed leave behind is removed once nobody can need it.

``EVENT_RETENTION_DAYS`` after a match ended, its event rows and the feed entries about it go; its
whole log is first kept as one :class:`~games.models.ArchivedLog` row, which is what its record and
replay are built from (``selectors.match_log``). Feed entries of no match (challenges) go as long
after they were written. A client resuming from a removed ``seq`` gets 410 ``cursor_expired``.

Work is done in small batches, each its own short transaction that touches only rows of finished
matches and old feed entries: nothing a move locks (its match's row, its players' rows) is held.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games.models import ArchivedLog, FeedEvent, Match, MatchEvent
from games.services.presence import old_presence_purge

# Matches archived per transaction, and matchless feed entries removed per statement.
MATCHES_PER_BATCH = 20
FEED_ENTRIES_PER_BATCH = 1000
ENDED = (Match.Status.FINISHED, Match.Status.ABANDONED)


def retention_cutoff(now: datetime | None = None) -> datetime:
    """Events of matches that ended before this are due to be removed."""
    return (now or timezone.now()) - timedelta(days=settings.EVENT_RETENTION_DAYS)


def ended_matches_archive(*, before: datetime, limit: int = MATCHES_PER_BATCH) -> int:
    """Archive the logs of up to ``limit`` matches that ended before ``before`` and remove their
    event rows and feed entries, in one transaction; returns how many matches were archived."""
    due = Match.objects.filter(
        finished_at__lt=before, archived_log__isnull=True, status__in=ENDED
    ).order_by("finished_at")
    with transaction.atomic():
        # Another sweep running at once skips the matches this one took.
        match_ids = list(
            due.select_for_update(skip_locked=True, of=("self",)).values_list("pk", flat=True)[
                :limit
            ]
        )
        if not match_ids:
            return 0
        logs: dict[int, list[dict[str, object]]] = {pk: [] for pk in match_ids}
        for event in MatchEvent.objects.filter(match_id__in=match_ids).order_by("match", "seq"):
            logs[event.match_id].append(
                {
                    "seq": event.seq,
                    "type": event.type,
                    "seat": event.seat,
                    "data": event.data,
                    "private": event.private,
                    "at": event.created_at.isoformat(),
                }
            )
        ArchivedLog.objects.bulk_create(
            ArchivedLog(match_id=pk, events=events) for pk, events in logs.items()
        )
        MatchEvent.objects.filter(match_id__in=match_ids).delete()
        FeedEvent.objects.filter(match_id__in=match_ids).delete()
    return len(match_ids)


def matchless_feed_purge(*, before: datetime, limit: int = FEED_ENTRIES_PER_BATCH) -> int:
    """Remove up to ``limit`` feed entries of no match written before ``before``; how many."""
    old = FeedEvent.objects.filter(match__isnull=True, created_at__lt=before)
    ids = list(old.values_list("pk", flat=True)[:limit])
    return FeedEvent.objects.filter(pk__in=ids).delete()[0] if ids else 0


def old_events_purge(*, seconds: float, now: datetime | None = None) -> tuple[int, int]:
    """Batches of :func:`ended_matches_archive` then :func:`matchless_feed_purge` until nothing is
    due or ``seconds`` have passed (the next run goes on), and the presence of players not seen
    for a day; returns (matches archived, feed entries of no match removed)."""
    old_presence_purge(now=now or timezone.now())
    before = retention_cutoff(now)
    stop_at = timezone.now() + timedelta(seconds=seconds)
    archived = removed = 0
    while timezone.now() < stop_at and (done := ended_matches_archive(before=before)):
        archived += done
    while timezone.now() < stop_at and (done := matchless_feed_purge(before=before)):
        removed += done
    return archived, removed
