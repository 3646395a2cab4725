"""Presence: when each player last had a feed stream or a long poll open (see
:class:`~games.models.Presence`), written by the web processes that hold them
(:mod:`games.presence`) and forgotten a day later by the retention sweep."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta

from games.models import Presence

# Presence older than this tells nothing anyone asks (online is the last minute): removed.
PRESENCE_KEPT = timedelta(days=1)


def presence_write(*, seen: Mapping[int, datetime]) -> None:
    """Record that these users (by id) were seen at these times, in one statement."""
    if not seen:
        return
    Presence.objects.bulk_create(
        [Presence(user_id=user_id, seen_at=at) for user_id, at in sorted(seen.items())],
        update_conflicts=True,
        unique_fields=["user"],
        update_fields=["seen_at"],
    )


def old_presence_purge(*, now: datetime) -> int:
    """Forget the presence of players not seen for :data:`PRESENCE_KEPT`; how many."""
    return Presence.objects.filter(seen_at__lt=now - PRESENCE_KEPT).delete()[0]
