"""Reads: ladders, their standings, and quick play's entries as their players see them."""

from __future__ import annotations

from typing import Any

from django.db.models import Count, Q, QuerySet
from django.utils.translation import gettext

from games import selectors as game_selectors
from games.models import Rating
from matchmaking import errors
from matchmaking.models import Ladder, LadderTable, Membership, PoolEntry
from switchgame import matchmaking, ratings

# The latest tables of a ladder in which its standings look for the gatekeepers' last matches.
GATEKEEPERS_LOOKED_FOR_IN = 200


def ladder_list() -> QuerySet[Ladder]:
    """Every ladder, with how many members it has and how many of them are active and online."""
    online = game_selectors.players_online().values("user_id")
    return Ladder.objects.annotate(
        member_count=Count("members", distinct=True),
        online_count=Count(
            "members",
            filter=Q(members__active=True, members__user_id__in=online),
            distinct=True,
        ),
    ).order_by("ruleset", "seats")


def ladder_get(*, ladder_id: int) -> Ladder:
    """The ladder with its counts (404 ``not_found`` if there is none)."""
    ladder = ladder_list().filter(pk=ladder_id).first()
    if ladder is None:
        raise errors.LadderNotFound(
            gettext("There is no ladder %(ladder)s.") % {"ladder": ladder_id}
        )
    return ladder


def ladder_summary(ladder: Ladder) -> dict[str, Any]:
    return {
        "id": ladder.pk,
        "ruleset": ladder.ruleset,
        "game": ladder.game,
        "seats": ladder.seats,
        "interval_seconds": ladder.interval_seconds,
        "turn_seconds": ladder.turn_seconds,
        "members": getattr(ladder, "member_count", None),
        "online": getattr(ladder, "online_count", None),
        "rounds": ladder.rounds,
        "next_round_at": ladder.next_round_at,
        "created_at": ladder.created_at,
    }


def ladder_standings(*, ladder: Ladder) -> list[dict[str, Any]]:
    """Every member, and every server bot that has filled its tables, best first (by the
    conservative rating μ − 3σ in the ladder's game), each with its last match in the ladder."""
    members = list(Membership.objects.filter(ladder=ladder).select_related("user"))
    holders = {ratings.user_holder(m.user_id): m for m in members}
    gatekeepers = _gatekeepers_last(ladder)
    held = {
        r.holder: r
        for r in Rating.objects.filter(
            game=ladder.game,
            holder__in=[*holders, *(ratings.bot_holder(g) for g in gatekeepers)],
        )
    }
    rows = [
        _row(
            held.get(holder),
            player=member.user.get_username(),
            active=member.active,
            last_match=member.last_match_id,
        )
        for holder, member in holders.items()
    ]
    rows += [
        _row(
            held.get(ratings.bot_holder(strategy)),
            player=ratings.bot_holder(strategy),
            active=True,
            last_match=match_id,
        )
        for strategy, match_id in gatekeepers.items()
    ]
    return sorted(rows, key=lambda row: (-row["rating"], row["player"]))


def _row(
    rating: Rating | None, *, player: str, active: bool, last_match: int | None
) -> dict[str, Any]:
    fresh = ratings.initial_rating()
    mu, sigma = (rating.mu, rating.sigma) if rating else (fresh.mu, fresh.sigma)
    return {
        "player": player,
        "bot": True,
        "rating": ratings.conservative_rating(mu, sigma),
        "mu": mu,
        "sigma": sigma,
        "games": rating.games if rating else 0,
        "active": active,
        "last_match": last_match,
    }


def _gatekeepers_last(ladder: Ladder) -> dict[str, int | None]:
    """The ladder's server bots, with the latest match among its latest tables that they filled."""
    last: dict[str, int | None] = dict.fromkeys(matchmaking.GATEKEEPERS[ladder.game])
    tables = (
        ladder.tables.filter(match__isnull=False)
        .order_by("-round", "number")
        .values_list("seating", "match_id")[:GATEKEEPERS_LOOKED_FOR_IN]
    )
    for seating, match_id in tables:
        for seat in seating:
            if "bot" in seat and last.get(seat["bot"]) is None:
                last[seat["bot"]] = match_id
    return last


def ladder_tables(*, ladder: Ladder, limit: int) -> QuerySet[LadderTable]:
    """The ladder's latest tables, newest first."""
    return ladder.tables.select_related("match").order_by("-round", "number")[:limit]


def pool_entry_summary(entry: PoolEntry) -> dict[str, Any]:
    return {
        "id": entry.pk,
        "status": entry.status,
        "ruleset": entry.ruleset,
        "seats": entry.seats,
        "rated": entry.rated,
        "bots_ok": entry.bots_ok,
        "wait_seconds": entry.wait_seconds,
        "match": entry.match_id,
        "created_at": entry.created_at,
    }
