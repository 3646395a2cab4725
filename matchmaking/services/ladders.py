"""Ladders: created by staff, joined and left by bot accounts, and their rounds seated by the
scheduler (``matchmaking.tasks.run_ladders``, from ``celery beat``).

A round is claimed and seated in one short transaction that locks the ladder's row alone (no row
a move needs): it reads who is online, their ratings and whom they met in the last hour, seats
them (:func:`switchgame.matchmaking.seat_round`) and writes the tables. Each table's match is
then created and started in a transaction of its own (:func:`ladder_table_start`), so that a
round of a hundred tables never holds the players' rows together; a table whose match was not
started (a worker died) is found by the next tick and started then.
"""

from __future__ import annotations

import math
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import Exists, OuterRef
from django.utils import timezone
from django.utils.translation import gettext

from games import selectors as game_selectors
from games import services as game_services
from games.models import Rating, Seat
from matchmaking import errors
from matchmaking.models import Ladder, LadderTable, Membership
from matchmaking.powers import Power, has_power
from switchgame import catalog, matchmaking, ratings

# A bot that lets its clock run out this often in one ladder match loses its seat to a server
# bot and is made inactive.
LADDER_STRIKES = 2
# Opponents met within this long are avoided where it costs little.
MET_WITHIN = timedelta(hours=1)
# A table whose match was not started this long after it was seated (its worker died) is
# started by the sweep: longer than a round of a hundred tables takes to start.
UNSTARTED_FOR = timedelta(seconds=30)


def ladder_create(
    *, user: User, ruleset: str, seats: int, interval_seconds: int, turn_seconds: int
) -> Ladder:
    """A new ladder (one per ruleset and table size); its first round is seated an interval on."""
    if not has_power(user, Power.CREATE):
        raise errors.LadderForbidden(
            gettext("You need the permission to %(allows)s.") % {"allows": Power.CREATE.allows}
        )
    info = catalog.find_ruleset(ruleset)  # raises UnknownRuleset: 400 invalid_ruleset
    low, high = info.players
    if not low <= seats <= high:
        raise errors.InvalidLadder(
            gettext("%(ruleset)s is played by %(low)s to %(high)s players.")
            % {"ruleset": ruleset, "low": low, "high": high},
            errors={
                "seats": [gettext("Between %(low)s and %(high)s.") % {"low": low, "high": high}]
            },
        )
    now = timezone.now()
    try:
        with transaction.atomic():
            return Ladder.objects.create(
                ruleset=ruleset,
                game=info.game,
                seats=seats,
                interval_seconds=interval_seconds,
                turn_seconds=turn_seconds,
                created_by=user,
                next_round_at=now + timedelta(seconds=interval_seconds),
            )
    except IntegrityError:
        raise errors.LadderExists(
            gettext("There is a ladder of %(ruleset)s for %(seats)s already.")
            % {"ruleset": ruleset, "seats": seats}
        ) from None


def _ladder(ladder_id: int) -> Ladder:
    ladder = Ladder.objects.filter(pk=ladder_id).first()
    if ladder is None:
        raise errors.LadderNotFound(
            gettext("There is no ladder %(ladder)s.") % {"ladder": ladder_id}
        )
    return ladder


def ladder_join(*, ladder_id: int, user: User) -> Membership:
    """A bot account joins (once; joining again makes an inactive member active again)."""
    ladder = _ladder(ladder_id)
    if not game_selectors.bot_account(User.objects.select_related("player").get(pk=user.pk)):
        raise errors.BotsOnly(
            gettext('Ladders are for bot accounts: register one with "bot": true.')
        )
    membership, _ = Membership.objects.update_or_create(
        ladder=ladder, user=user, defaults={"active": True, "joined_at": timezone.now()}
    )
    return membership


def ladder_leave(*, ladder_id: int, user: User) -> None:
    """The user leaves the ladder (nothing happens if it was not in it); its matches go on."""
    ladder = _ladder(ladder_id)
    Membership.objects.filter(ladder=ladder, user=user).delete()


def inactive_mark() -> int:
    """Make inactive every active member with :data:`LADDER_STRIKES` strikes in a match its
    ladder seated since it joined; how many."""
    struck = Seat.objects.filter(
        player_id=OuterRef("user_id"),
        strikes__gte=LADDER_STRIKES,
        match__ladder_table__ladder_id=OuterRef("ladder_id"),
        match__ladder_table__seated_at__gte=OuterRef("joined_at"),
    )
    return Membership.objects.filter(active=True).filter(Exists(struck)).update(active=False)


def ladders_due(*, now: datetime) -> list[tuple[int, int]]:
    """(ladder, rounds seated so far) of every ladder whose next round is due."""
    due = Ladder.objects.filter(next_round_at__lte=now).order_by("pk")
    return list(due.values_list("pk", "rounds"))


def ladder_round_seat(*, ladder_id: int, now: datetime | None = None) -> list[int]:
    """Seat the ladder's round if it is due (and no one else is seating it), then start its
    tables; returns the ids of the tables seated (none when it was not due)."""
    now = now or timezone.now()
    with transaction.atomic():
        ladder = (
            Ladder.objects.select_for_update(skip_locked=True)
            .filter(pk=ladder_id, next_round_at__lte=now)
            .first()
        )
        if ladder is None:
            return []
        tables = _round_tables(ladder, now)
        ladder.rounds += 1
        ladder.next_round_at = _next_round(ladder, now)
        ladder.save(update_fields=["rounds", "next_round_at"])
        seated = LadderTable.objects.bulk_create(
            LadderTable(
                ladder=ladder, round=ladder.rounds, number=number, seating=seating, seated_at=now
            )
            for number, seating in enumerate(tables, start=1)
        )
    table_ids = [table.pk for table in seated]
    for table_id in table_ids:
        ladder_table_start(table_id=table_id)
    return table_ids


def _next_round(ladder: Ladder, now: datetime) -> datetime:
    """The next round on the ladder's beat: a round missed (no beat for a while) is not made up."""
    interval = timedelta(seconds=ladder.interval_seconds)
    missed = math.floor((now - ladder.next_round_at) / interval)
    return ladder.next_round_at + interval * (missed + 1)


def _round_tables(ladder: Ladder, now: datetime) -> list[list[dict[str, Any]]]:
    """Who sits where this round: every active member online now."""
    online = game_selectors.players_online(now=now).values("user_id")
    members = list(
        Membership.objects.filter(ladder=ladder, active=True, user_id__in=online)
        .order_by("user_id")
        .values_list("user_id", flat=True)
    )
    if not members:
        return []
    gatekeepers = matchmaking.GATEKEEPERS[ladder.game]
    holders = [ratings.user_holder(u) for u in members] + [
        ratings.bot_holder(g) for g in gatekeepers
    ]
    held = {r.holder: r.mu for r in Rating.objects.filter(game=ladder.game, holder__in=holders)}
    fresh = ratings.initial_rating().mu
    rating = {u: held.get(ratings.user_holder(u), fresh) for u in members}
    tables = matchmaking.seat_round(
        members,
        size=ladder.seats,
        rating=rating,
        met=_met(ladder, now),
        gatekeepers=[
            matchmaking.Gatekeeper(g, held.get(ratings.bot_holder(g), fresh)) for g in gatekeepers
        ],
    )
    return [
        [{"user": u} for u in table.players] + [{"bot": g} for g in table.gatekeepers]
        for table in tables
    ]


def _met(ladder: Ladder, now: datetime) -> set[frozenset[int]]:
    """The pairs of members who sat at one of the ladder's tables within :data:`MET_WITHIN`."""
    recent = LadderTable.objects.filter(ladder=ladder, seated_at__gte=now - MET_WITHIN)
    met: set[frozenset[int]] = set()
    for seating in recent.values_list("seating", flat=True):
        users = [seat["user"] for seat in seating if "user" in seat]
        met.update(frozenset((a, b)) for i, a in enumerate(users) for b in users[i + 1 :])
    return met


def ladder_table_start(*, table_id: int) -> bool:
    """Create and start the table's rated match, unless it has one (or another worker is making
    it); returns whether it did. One short transaction: this table's players' rows only."""
    with transaction.atomic():
        table = (
            LadderTable.objects.select_for_update(skip_locked=True, of=("self",))
            .select_related("ladder__created_by")
            .filter(pk=table_id, match__isnull=True)
            .first()
        )
        if table is None:
            return False
        ladder = table.ladder
        wanted = [seat["user"] for seat in table.seating if "user" in seat]
        users = {user.pk: user for user in User.objects.filter(pk__in=wanted)}
        players = [users.get(seat.get("user", 0)) for seat in table.seating]
        # A gatekeeper plays for a member whose account was deleted since the round was seated.
        stand_in = matchmaking.GATEKEEPERS[ladder.game][0]
        match = game_services.match_create(
            creator=ladder.created_by,
            ruleset=ladder.ruleset,
            seats=ladder.seats,
            bots_wanted=[
                {"seat": index, "strategy": seat.get("bot", stand_in)}
                for index, (seat, player) in enumerate(zip(table.seating, players, strict=True))
                if player is None
            ],
            turn_seconds=ladder.turn_seconds,
            players=players,
            rated=True,
            strikes_allowed=LADDER_STRIKES,
        )
        game_services.match_start(match_id=match.pk, user=ladder.created_by)
        table.match = match
        table.save(update_fields=["match"])
        Membership.objects.filter(ladder=ladder, user_id__in=users).update(last_match=match)
    return True


def tables_unstarted(*, now: datetime) -> list[int]:
    """Tables seated a while ago whose match was never started (its worker died)."""
    stalled = LadderTable.objects.filter(match__isnull=True, seated_at__lte=now - UNSTARTED_FOR)
    return list(stalled.values_list("pk", flat=True))


# Tables removed per statement by the retention sweep.
TABLES_PER_BATCH = 1000


def old_tables_purge(*, now: datetime) -> int:
    """Remove the tables seated ``EVENT_RETENTION_DAYS`` ago (their matches stay, as every
    match does); one batch, how many."""
    before = now - timedelta(days=settings.EVENT_RETENTION_DAYS)
    old = LadderTable.objects.filter(seated_at__lt=before).values_list("pk", flat=True)
    ids = list(old[:TABLES_PER_BATCH])
    return LadderTable.objects.filter(pk__in=ids).delete()[0] if ids else 0
