"""The desk's ways back: check-in before seating, a round withdrawn, the event cancelled or deleted.

Nothing may leave a tournament that can neither go on nor be removed: until a result is recorded
it can always be deleted, and until it is finished it can always be cancelled.
"""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Q, QuerySet
from django.utils.translation import gettext, ngettext

from games import services as game_services
from games.models import Match
from switchgame.words import quoted
from tournaments import errors, selectors
from tournaments.models import Entry, Round, Table, Tournament
from tournaments.powers import Power, require_power
from tournaments.services.common import locked_tournament
from tournaments.services.seat_links import guest_users, guest_users_retire

ROUND_WITHDRAWN = "round_withdrawn"
TOURNAMENT_CANCELLED = "tournament_cancelled"
TOURNAMENT_DELETED = "tournament_deleted"


def entry_checkin(*, tournament_id: int, user: User, name: str, present: bool) -> Entry:
    """Mark an entry present or absent (staff). Seating seats present entries only; an absent
    entry gets no bye and no result for the rounds it misses."""
    require_power(user, Power.REGISTER)
    with transaction.atomic():
        tournament = locked_tournament(tournament_id)
        _require_open(tournament)
        entry = Entry.objects.filter(tournament=tournament, name__iexact=name.strip()).first()
        if entry is None:
            raise errors.NotRegistered(
                gettext("Nobody named %(value)s is entered.") % {"value": quoted(name.strip())}
            )
        entry.present = present
        entry.save(update_fields=["present"])
        return entry


def round_unpublish(*, tournament_id: int, user: User, round_number: int) -> Round:
    """The latest round, while none of its tables has a result, back to a draft (staff).

    Online, its matches are abandoned with reason ``round_withdrawn`` — after their tables let
    go of them, so their end is nobody's result. ``start/`` or ``next-round/`` seat it again.
    """
    require_power(user, Power.SEAT)
    with transaction.atomic():
        tournament = locked_tournament(tournament_id)
        _require_open(tournament)
        latest = tournament.rounds.exclude(status=Round.Status.DRAFT).order_by("number").last()
        if latest is None or latest.number != round_number:
            raise errors.NotLatestRound(
                (
                    gettext(
                        "Round %(number)s is not the latest published round (round %(latest)s is)."
                    )
                    if latest
                    else gettext(
                        "Round %(number)s is not the latest published round; none is published."
                    )
                )
                % {"number": round_number, "latest": latest.number if latest else None}
            )
        ended = Q(recorded_at__isnull=False) | Q(match__status=Match.Status.FINISHED)
        ended_numbers = latest.tables.filter(ended).order_by("number").values_list("number")
        ended_tables = [str(number) for (number,) in ended_numbers]
        if ended_tables:
            raise errors.RoundHasResults(
                ngettext(
                    "Round %(number)s has results (table %(tables)s): correct them instead of "
                    "withdrawing it.",
                    "Round %(number)s has results (tables %(tables)s): correct them instead of "
                    "withdrawing it.",
                    len(ended_tables),
                )
                % {"number": round_number, "tables": ", ".join(ended_tables)}
            )
        tournament.rounds.filter(status=Round.Status.DRAFT).delete()
        _abandon(Table.objects.filter(round=latest), ROUND_WITHDRAWN)
        latest.status, latest.published_at = Round.Status.DRAFT, None
        latest.save(update_fields=["status", "published_at"])
        earlier = tournament.rounds.exclude(status=Round.Status.DRAFT).exists()
        tournament.status = (
            Tournament.Status.ROUND_COMPLETE if earlier else Tournament.Status.REGISTERING
        )
        tournament.save(update_fields=["status"])
    return latest


def tournament_cancel(*, tournament_id: int, user: User) -> Tournament:
    """Cancel a tournament that is not finished (staff): its open matches are abandoned and it
    leaves the public index; its results so far stay on record."""
    require_power(user, Power.CANCEL)
    with transaction.atomic():
        tournament = locked_tournament(tournament_id)
        _require_open(tournament)
        _abandon(Table.objects.filter(round__tournament=tournament), TOURNAMENT_CANCELLED)
        tournament.status = Tournament.Status.CANCELLED
        tournament.save(update_fields=["status"])
    return tournament


def tournament_delete(*, tournament_id: int, user: User) -> None:
    """Remove a tournament that has no recorded result (staff), whatever its state; its open
    matches are abandoned first, and its guests' users go unless a match seats them. A
    tournament with results is cancelled instead (409)."""
    require_power(user, Power.DELETE)
    with transaction.atomic():
        tournament = locked_tournament(tournament_id)
        tables = Table.objects.filter(round__tournament=tournament)
        if selectors.has_results(tournament=tournament):
            raise errors.HasResults(
                gettext("%(name)s has recorded results: cancel it instead of deleting it.")
                % {"name": tournament.name}
            )
        _abandon(tables, TOURNAMENT_DELETED)
        # Seats, byes and score lines protect their entries, entries their guests' users: the
        # rounds go first, the users last.
        tournament.rounds.all().delete()
        guests = guest_users(tournament)
        tournament.entries.all().delete()
        guest_users_retire(guests)
        tournament.delete()


def _require_open(tournament: Tournament) -> None:
    if tournament.status == Tournament.Status.FINISHED:
        raise errors.TournamentFinished(gettext("Every round has been played."))
    if tournament.status == Tournament.Status.CANCELLED:
        raise errors.TournamentCancelled(
            gettext("%(name)s is cancelled.") % {"name": tournament.name}
        )


def _abandon(tables: QuerySet[Table], reason: str) -> None:
    """Abandon the tables' matches still playing, after the tables let go of them: their end is
    then nobody's result."""
    playing = tables.filter(match__status=Match.Status.ACTIVE)
    match_ids = list(playing.values_list("match_id", flat=True))
    playing.update(match=None)
    for match_id in match_ids:
        if match_id is not None:
            game_services.match_abandon(match_id=match_id, reason=reason)
