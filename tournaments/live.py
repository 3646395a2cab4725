"""Pages that update themselves: the public page, the projector screen and a series' page.

Every write of the tournament service locks the tournament row first
(``services.common.locked_tournament``); that is where :func:`changed` counts one more
``revision`` and wakes the tournament's waiters at commit (``switchsite.serving.notifier``: a ``NOTIFY`` on
PostgreSQL, reaching every serving process). A rolled-back write counts nothing and wakes nobody.

A page is rendered with its revision; its script opens :func:`stream` (Server-Sent Events) after
that revision, and each ``changed`` event makes it fetch the page again and swap its live parts in
place — no reload, no polling. The stream's cursor is the revision, so a reconnecting page
(``Last-Event-ID``) misses nothing and a spurious wake-up sends nothing.

A series' page listens to the topics of its tournaments; its revision is the sum of theirs, which
any write to any of them changes. A stream follows the tournaments the series had when it opened,
and streams stay open for hours: so editing or deleting a series (:func:`series_edited`) ends its
streams, and the pages reconnect and follow the series as it is now (or learn that it is gone).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterable
from typing import Any

from django.db.models import F, Sum
from django.db.models.functions import Coalesce

from games.api import waiting
from switchsite.asyncdb import run_shared
from switchsite.serving import notifier
from tournaments.models import Series, Tournament


def changed(tournament: Tournament) -> None:
    """In a write's transaction, the tournament's row locked: its pages must show something new
    after commit."""
    Tournament.objects.filter(pk=tournament.pk).update(revision=F("revision") + 1)
    tournament.revision += 1
    notifier.wake_on_commit(notifier.tournament_topic(tournament.pk))


def revision_events(tournament_id: int, after: int) -> tuple[list[dict[str, Any]], bool]:
    """One ``changed`` event if the revision is not ``after`` — past it, or behind it after the
    database was restored from a dump; over when the tournament is gone."""
    revision = (
        Tournament.objects.filter(pk=tournament_id).values_list("revision", flat=True).first()
    )
    if revision is None:
        return [], True
    if revision == after:
        return [], False
    return [{"seq": revision, "type": "changed", "tournament": tournament_id}], False


def stream(tournament_id: int, after: int) -> AsyncIterator[str]:
    """The tournament's ``changed`` events as Server-Sent Events, from revision ``after`` on."""
    return waiting.event_stream(
        lambda cursor: run_shared(revision_events, tournament_id, cursor),
        [notifier.tournament_topic(tournament_id)],
        after,
    )


def series_revision(series_id: int) -> int | None:
    """What a series' page shows, as one number: its tournaments' revisions added up (``None``
    once the series is gone). Read it before the page's content, as a tournament page reads its
    row first."""
    return (
        Series.objects.filter(pk=series_id)
        .annotate(revision=Coalesce(Sum("tournaments__revision"), 0))
        .values_list("revision", flat=True)
        .first()
    )


def series_events(series_id: int, after: int) -> tuple[list[dict[str, Any]], bool]:
    """One ``changed`` event if the series' revision is not ``after`` (a tournament taken out of
    the series lowers it); over when the series is gone."""
    revision = series_revision(series_id)
    if revision is None:
        return [], True
    if revision == after:
        return [], False
    return [{"seq": revision, "type": "changed", "series": series_id}], False


def series_stream(series_id: int, tournament_ids: Iterable[int], after: int) -> AsyncIterator[str]:
    """The series' ``changed`` events as Server-Sent Events, woken by any of its tournaments;
    ended when the series is edited."""
    return waiting.event_stream(
        lambda cursor: run_shared(series_events, series_id, cursor),
        [notifier.tournament_topic(tournament_id) for tournament_id in tournament_ids],
        after,
        ends_with=notifier.series_topic(series_id),
    )


def series_edited(series_ids: Iterable[int]) -> None:
    """In the transaction that edits or deletes these series: at commit their open streams end
    (the pages reconnect to the series as it is then)."""
    for series_id in series_ids:
        notifier.wake_on_commit(notifier.series_topic(series_id))
