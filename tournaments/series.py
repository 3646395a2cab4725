"""Reads of a series: the series itself and its standings, each tournament's results added up per
person — an account by its player, a guest by display name whatever its case (``core.series``).
Bots are not people and are left out. Costs the standings' fixed number of queries per
tournament, whatever the field sizes."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db.models import Min
from django.urls import reverse
from django.utils.translation import gettext

from switchgame.tournament.series import NightResult, SeriesRow, series_standings
from tournaments import errors, selectors
from tournaments.models import Entry, Series, Tournament


def series_get(*, series_id: int, staff: bool = True) -> Series:
    """A series; only a public one unless ``staff``."""
    shown = Series.objects.all() if staff else Series.objects.filter(public=True)
    series = shown.filter(pk=series_id).first()
    if series is None:
        raise errors.TournamentNotFound(
            gettext("There is no series %(series_id)s.") % {"series_id": series_id}
        )
    return series


def series_detail(*, series: Series, absolute: Callable[[str], str] = str) -> dict[str, Any]:
    public_url = reverse("series-public", args=[series.pk]) if series.public else None
    return {
        "id": series.pk,
        "name": series.name,
        "public": series.public,
        "public_url": absolute(public_url) if public_url else None,
        "tournaments": [
            {"id": t.pk, "name": t.name, "status": t.status}
            for t in series.tournaments.order_by("created_at", "pk")
        ],
        "created_at": series.created_at.isoformat(),
    }


def series_nights(*, series: Series) -> dict[int, dict[str, Any]]:
    """What the series' page adds to each tournament, by id: when it seated its first round
    (``started_at``, ``None`` before), its public page's path (``None`` for a private one) and its
    status in words."""
    nights = series.tournaments.annotate(started_at=Min("rounds__published_at"))
    return {
        pk: {
            "started_at": started_at,
            "url": reverse("tournament-public", args=[pk]) if public else None,
            "status_display": Tournament.Status(status).label,
        }
        for pk, public, started_at, status in nights.values_list(
            "pk", "public", "started_at", "status"
        )
    }


def series_rows(*, series: Series) -> list[SeriesRow]:
    results = []
    for tournament in series.tournaments.order_by("pk"):
        people = {
            pk: (("player", player) if player is not None else ("guest", name.casefold()))
            for pk, player, name in Entry.objects.filter(tournament=tournament)
            .exclude(bot_strategy__gt="")
            .values_list("pk", "player_id", "name")
        }
        for row in selectors.standings_table(tournament=tournament).rows:
            if row["entry"] in people and row["played"] + row["byes"] > 0:
                results.append(
                    NightResult(
                        tournament=tournament.pk,
                        person=people[row["entry"]],
                        name=row["player"],
                        rank=row["rank"],
                        score=row["score"],
                        points=row["points"],
                    )
                )
    return series_standings(results)


def series_standings_rows(*, series: Series) -> list[dict[str, Any]]:
    """The standings as the API and the page show them."""
    return [
        {
            "rank": row.rank,
            "name": row.name,
            "kind": row.person[0],
            "score": row.score,
            "points": row.points,
            "tournaments": row.nights,
            "ranks": {str(tournament): rank for tournament, rank in sorted(row.ranks.items())},
        }
        for row in series_rows(series=series)
    ]
