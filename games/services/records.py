"""Game records kept: the deals of a match's record, worked out once when it ends (``games.archive``)."""

from __future__ import annotations

import logging

from games import archive, errors
from games.models import RecordDeals
from switchsite.encoding import json_text

logger = logging.getLogger(__name__)


def record_deals_keep(*, match_id: int) -> bool:
    """Replay the log of a match that is over and keep its record's deals, which its record and a
    player's export then read instead of replaying it again. False, writing nothing, when the
    match is not over or they are kept already: a task delivered twice does no harm.

    A log that does not replay is kept as that, with why (``failure``): logged once, listed in the
    admin, and not tried again by every sweep. False then too."""
    try:
        deals = archive.deals_to_keep(match_id=match_id)
    except errors.RecordUnavailable as unavailable:
        _, failed_now = RecordDeals.objects.get_or_create(
            match_id=match_id, defaults={"deals": "", "failure": unavailable.reason}
        )
        if failed_now:
            logger.error(
                "The record of match %s cannot be built; it is not tried again until its row "
                "among the records that cannot be built is deleted in the admin.",
                match_id,
                exc_info=unavailable.__cause__,
            )
        return False
    if deals is None:
        return False
    _, created = RecordDeals.objects.get_or_create(
        match_id=match_id, defaults={"deals": json_text(deals)}
    )
    return created
