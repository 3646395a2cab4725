"""Quick play: a player asks for a game (ruleset, seats, rated) and waits; a match starts as soon
as enough players want the same game, or — for those who accept bots — once they have waited
their ``wait_seconds``, with server bots in the empty seats. The players' feeds get
``match_started``, as for any match.

Entering publishes the matching at once (``matchmaking.tasks.match_pool``); ``celery beat`` runs
it every few seconds too, for the entries that become overdue and for work that was lost. Each
match is made in its own short transaction that locks only the entries it takes (``SKIP
LOCKED``: two runs at once never take one entry twice).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext

from games import services as game_services
from matchmaking import errors
from matchmaking.models import PoolEntry
from switchgame import catalog, matchmaking
from switchsite.tasks import publish_after_commit

# Ended entries (matched or left) are kept this long for their players to read, then removed.
ENDED_ENTRIES_KEPT = timedelta(days=1)
# Matches quick play makes per run at most (the next run goes on).
MATCHES_PER_RUN = 100


def pool_enter(
    *,
    user: User,
    ruleset: str,
    seats: int,
    rated: bool = False,
    bots_ok: bool = False,
    wait_seconds: int | None = None,
) -> PoolEntry:
    """The player waits for a game; refused while they wait for another (409 already_waiting)."""
    info = catalog.find_ruleset(ruleset)  # raises UnknownRuleset: 400 invalid_ruleset
    catalog.new_game(ruleset, seats)  # raises InvalidOptions for a number of seats it refuses
    game_services.player_profile(user=user)
    try:
        with transaction.atomic():
            entry = PoolEntry.objects.create(
                user=user,
                ruleset=info.name,
                seats=seats,
                rated=rated,
                bots_ok=bots_ok,
                wait_seconds=settings.POOL_WAIT_SECONDS if wait_seconds is None else wait_seconds,
                created_at=timezone.now(),
            )
            publish_after_commit("matchmaking.tasks.match_pool")
    except IntegrityError:
        raise errors.AlreadyWaiting(
            gettext("You are waiting for a game already: leave that one first.")
        ) from None
    return entry


def pool_entry_get(*, entry_id: int, user: User) -> PoolEntry:
    """One of the user's own entries; anyone else's is as good as absent (404)."""
    entry = PoolEntry.objects.filter(pk=entry_id, user=user).first()
    if entry is None:
        raise errors.PoolEntryNotFound(
            gettext("You have no quick play entry %(entry)s.") % {"entry": entry_id}
        )
    return entry


def pool_leave(*, entry_id: int, user: User) -> None:
    """Stop waiting (nothing happens for an entry that was left already)."""
    with transaction.atomic():
        pool_entry_get(entry_id=entry_id, user=user)
        entry = PoolEntry.objects.select_for_update().get(pk=entry_id)
        if entry.status == PoolEntry.Status.MATCHED:
            raise errors.AlreadyMatched(
                gettext("Your game has started already: match %(match)s.")
                % {"match": entry.match_id}
            )
        if entry.status == PoolEntry.Status.WAITING:
            entry.status, entry.ended_at = PoolEntry.Status.LEFT, timezone.now()
            entry.save(update_fields=["status", "ended_at"])


def pool_match(*, now: datetime | None = None) -> int:
    """Start every match the waiting entries make now (:func:`switchgame.matchmaking.match_pool`),
    one transaction each; returns how many."""
    made = 0
    while made < MATCHES_PER_RUN and _one_match(now or timezone.now()):
        made += 1
    return made


def _one_match(now: datetime) -> bool:
    with transaction.atomic():
        entries = list(
            PoolEntry.objects.select_for_update(skip_locked=True)
            .filter(status=PoolEntry.Status.WAITING)
            .select_related("user")
            .order_by("created_at", "pk")
        )
        waiting = [
            matchmaking.Waiting(
                player=entry.pk,
                wants=(entry.ruleset, entry.seats, entry.rated),
                bots_ok=entry.bots_ok,
                overdue=entry.created_at + timedelta(seconds=entry.wait_seconds) <= now,
            )
            for entry in entries
        ]
        seats = {(e.ruleset, e.seats, e.rated): e.seats for e in entries}
        found = matchmaking.match_pool(waiting, seats=seats)
        if not found:
            return False
        chosen = found[0]
        by_id = {entry.pk: entry for entry in entries}
        taken = [by_id[pk] for pk in chosen.players]
        first = taken[0]
        strategy = matchmaking.GATEKEEPERS[catalog.find_ruleset(first.ruleset).game][0]
        match = game_services.match_create(
            creator=first.user,
            ruleset=first.ruleset,
            seats=first.seats,
            bots_wanted=[
                {"seat": seat, "strategy": strategy} for seat in range(len(taken), first.seats)
            ],
            turn_seconds=settings.POOL_TURN_SECONDS,
            players=[entry.user for entry in taken] + [None] * chosen.bots,
            rated=first.rated,
        )
        game_services.match_start(match_id=match.pk, user=first.user)
        PoolEntry.objects.filter(pk__in=[entry.pk for entry in taken]).update(
            status=PoolEntry.Status.MATCHED, match=match, ended_at=now
        )
    return True


def ended_entries_purge(*, now: datetime) -> int:
    """Remove the entries that ended :data:`ENDED_ENTRIES_KEPT` ago; how many."""
    return PoolEntry.objects.filter(ended_at__lt=now - ENDED_ENTRIES_KEPT).delete()[0]
