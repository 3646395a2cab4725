"""Game records kept: the deals of a match's record, worked out once when it ends (``games.archive``)."""

from __future__ import annotations

from games import archive
from games.models import RecordDeals
from switchsite.encoding import json_text


def record_deals_keep(*, match_id: int) -> bool:
    """Replay the log of a match that is over and keep its record's deals, which its record and a
    player's export then read instead of replaying it again. False, writing nothing, when the
    match is not over or they are kept already: a task delivered twice does no harm."""
    deals = archive.deals_to_keep(match_id=match_id)
    if deals is None:
        return False
    _, created = RecordDeals.objects.get_or_create(
        match_id=match_id, defaults={"deals": json_text(deals)}
    )
    return created
