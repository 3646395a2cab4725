"""Series: tournaments ranked together (monthly nights), made by staff."""

from __future__ import annotations

from collections.abc import Sequence

from django.contrib.auth.models import User
from django.db import transaction

from tournaments import errors
from tournaments.models import Series, Tournament
from tournaments.powers import Power, require_power


def series_create(
    *, user: User, name: str, tournament_ids: Sequence[int], public: bool = False
) -> Series:
    """A series of existing tournaments (each once, in any order; results are added up)."""
    require_power(user, Power.CREATE)
    wanted = set(tournament_ids)
    found = set(Tournament.objects.filter(pk__in=wanted).values_list("pk", flat=True))
    missing = sorted(wanted - found)
    if missing:
        message = f"No tournament {', '.join(map(str, missing))}."
        raise errors.InvalidSettings(message, errors={"tournaments": [message]})
    with transaction.atomic():
        series = Series.objects.create(name=name, public=public, created_by=user)
        series.tournaments.set(sorted(found))
    return series
