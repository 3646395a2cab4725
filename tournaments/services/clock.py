"""The round clock, run from the desk: started for so many minutes, paused, resumed."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from switchgame.tournament.clock import ClockError, RoundClock
from switchsite.problems import said
from tournaments import errors
from tournaments.models import Round, Tournament
from tournaments.powers import Power, require_power
from tournaments.services.common import locked_tournament


def round_clock(
    *,
    tournament_id: int,
    round_number: int,
    user: User,
    minutes: int | None = None,
    pause: bool = False,
    resume: bool = False,
) -> Round:
    """Start the clock of a published round for ``minutes`` (restarting it if need be), or pause
    or resume it. Every screen counts down to the stored end, so they all agree. A cancelled
    tournament has no round in play, so no clock to run."""
    require_power(user, Power.CLOCK)
    with transaction.atomic():
        tournament = locked_tournament(tournament_id)
        if tournament.status == Tournament.Status.CANCELLED:
            raise errors.TournamentCancelled(
                gettext("%(name)s is cancelled.") % {"name": tournament.name}
            )
        played = tournament.rounds.filter(number=round_number, status__in=Round.PLAYED).first()
        if played is None:
            raise errors.RoundNotFound(
                gettext("Round %(round_number)s is not published.") % {"round_number": round_number}
            )
        clock = RoundClock(played.clock_ends_at, played.clock_paused_remaining)
        now = timezone.now()
        try:
            if minutes is not None:
                clock = clock.start(now, minutes)
            elif pause:
                clock = clock.pause(now)
            elif resume:
                clock = clock.resume(now)
        except ClockError as error:
            if minutes is not None:
                raise errors.InvalidSettings(
                    said(error), errors={"minutes": [said(error)]}
                ) from None
            refusal = errors.ClockNotRunning if pause else errors.ClockNotPaused
            raise refusal(said(error)) from None
        played.clock_ends_at, played.clock_paused_remaining = clock.ends_at, clock.paused_remaining
        played.save(update_fields=["clock_ends_at", "clock_paused_remaining"])
        return played
