"""Challenges: an invitation to a match that becomes the match, started, when every invitee
accepts — and ends when one declines (saying why), the challenger cancels, or it expires."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games import errors
from games.models import Challenge, Invitation, Match
from games.selectors import bot_account
from games.services.matches import match_create, match_start, validated_bots
from games.services.players import player_profile
from games.services.writer import FeedEntry, feed_append
from switchgame import catalog

# How long a challenge waits for its answers unless the challenger says otherwise (seconds).
EXPIRES_IN_DEFAULT = 24 * 3600
EXPIRES_IN_RANGE = (60, 7 * 24 * 3600)
# At most this many challenges expire in one sweep (the next sweep takes the rest).
EXPIRY_BATCH = 500


@dataclass(frozen=True)
class MatchSettings:
    """What a challenge proposes: everything a match is created with, but who sits where."""

    ruleset: str
    seats: int
    options: Mapping[str, Any] = field(default_factory=dict)
    bots: Sequence[Mapping[str, Any]] = ()
    deals: int = 1
    target: int | None = None
    turn_seconds: int | None = None
    rated: bool = False


# Why a challenge takes no answer any more, per status (whole sentences: the status is an API value).
CHALLENGE_ENDED = {
    Challenge.Status.PENDING: _("The challenge is waiting for answers."),
    Challenge.Status.ACCEPTED: _("The challenge was accepted: its match is made."),
    Challenge.Status.DECLINED: _("The challenge was declined."),
    Challenge.Status.CANCELLED: _("The challenge was cancelled."),
    Challenge.Status.EXPIRED: _("The challenge has expired."),
}


def challenge_create(
    *,
    challenger: User,
    invitees: Sequence[str],
    settings: MatchSettings,
    expires_in: int = EXPIRES_IN_DEFAULT,
) -> Challenge:
    """Invite players by username to a match: the challenger will sit at seat 0, the invitees at
    seats 1, 2, … in the order given, bots at the seats ``bots`` names — exactly the rest. Unless
    everyone has answered within ``expires_in`` seconds, the challenge expires."""
    low, high = EXPIRES_IN_RANGE
    if not low <= expires_in <= high:
        raise errors.InvalidChallenge(
            gettext("expires_in must be between %(low)s and %(high)s seconds.")
            % {"low": low, "high": high}
        )
    users = _invitees(challenger, invitees)
    humans = 1 + len(users)
    if humans + len(settings.bots) != settings.seats:
        raise errors.InvalidChallenge(
            gettext(
                "The seats do not add up: you, %(invited)s invited and %(bots)s bots make "
                "%(made)s, not %(seats)s."
            )
            % {
                "invited": len(users),
                "bots": len(settings.bots),
                "made": humans + len(settings.bots),
                "seats": settings.seats,
            }
        )
    bot_seats = sorted(bot["seat"] for bot in settings.bots)
    if bot_seats != list(range(humans, settings.seats)):
        raise errors.InvalidChallenge(
            gettext(
                "%(seats)s seats: you at seat 0 and %(invited)s invitees at seats 1 to %(last)s "
                "leave seats %(free)s for bots, but the bots are at %(bot_seats)s."
            )
            % {
                "seats": settings.seats,
                "invited": len(users),
                "last": humans - 1,
                "free": list(range(humans, settings.seats)),
                "bot_seats": bot_seats,
            }
        )
    info = catalog.find_ruleset(settings.ruleset)
    catalog.new_game(
        settings.ruleset,
        settings.seats,
        settings.options,
        deals=settings.deals,
        target=settings.target,
    )
    validated_bots(settings.bots, seated=[None] * settings.seats, game=info.game)
    with transaction.atomic():
        challenge = Challenge.objects.create(
            challenger=challenger,
            ruleset=settings.ruleset,
            seat_count=settings.seats,
            options=dict(settings.options),
            bots=[dict(bot) for bot in settings.bots],
            deals=settings.deals,
            target=settings.target,
            turn_seconds=settings.turn_seconds,
            rated=settings.rated,
            expires_at=timezone.now() + timedelta(seconds=expires_in),
        )
        Invitation.objects.bulk_create(
            Invitation(challenge=challenge, player=user, seat=seat)
            for seat, user in enumerate(users, start=1)
        )
        data = {
            "challenge": challenge.pk,
            "from": challenger.get_username(),
            "from_bot_account": bot_account(challenger),
            "ruleset": settings.ruleset,
        }
        feed_append([FeedEntry(user.pk, "challenge", None, data) for user in users])
    return challenge


def _invitees(challenger: User, usernames: Sequence[str]) -> list[User]:
    if not usernames:
        raise errors.InvalidChallenge(
            gettext("Invite at least one player (for bots only, create a match).")
        )
    if len(set(usernames)) != len(usernames):
        raise errors.InvalidChallenge(gettext("Each player can be invited once."))
    found = {u.get_username(): u for u in get_user_model().objects.filter(username__in=usernames)}
    unknown = [name for name in usernames if name not in found]
    if unknown:
        raise errors.InvalidChallenge(
            gettext("No such players: %(value)s.") % {"value": ", ".join(unknown)}
        )
    if challenger.get_username() in found:
        raise errors.InvalidChallenge(gettext("You cannot challenge yourself."))
    users = [found[name] for name in usernames]
    for user in users:
        player_profile(user=user)
    return users


def challenge_accept(*, challenge_id: int, user: User) -> Challenge:
    """An invitee accepts. The last acceptance creates and starts the match (every player hears
    ``match_started``)."""
    with transaction.atomic():
        challenge = _pending_challenge(challenge_id, user)
        _answer(challenge, user, Invitation.Answer.ACCEPTED)
        if all(i.answer == Invitation.Answer.ACCEPTED for i in challenge.invitations.all()):
            challenge.match = _challenge_match(challenge)
            challenge.status = Challenge.Status.ACCEPTED
            challenge.ended_at = timezone.now()
            challenge.save(update_fields=["match", "status", "ended_at"])
    return challenge


def challenge_decline(
    *, challenge_id: int, user: User, reason: str = Challenge.Reason.GENERIC
) -> Challenge:
    """An invitee declines, saying why (``reason``): the challenge ends, and the others hear
    ``challenge_declined`` with the reason."""
    if reason not in Challenge.Reason.values:
        raise errors.InvalidChallenge(
            gettext("reason must be one of %(reasons)s.")
            % {"reasons": ", ".join(Challenge.Reason.values)}
        )
    with transaction.atomic():
        challenge = _pending_challenge(challenge_id, user)
        _answer(challenge, user, Invitation.Answer.DECLINED)
        challenge.reason = reason
        challenge.save(update_fields=["reason"])
        _challenge_end(challenge, Challenge.Status.DECLINED, user, "challenge_declined")
    return challenge


def _answer(challenge: Challenge, user: User, answer: str) -> None:
    invitation = next((i for i in challenge.invitations.all() if i.player_id == user.pk), None)
    if invitation is None:
        raise errors.NotInvited(
            gettext("Only an invitee can accept or decline; you may cancel it.")
        )
    invitation.answer = answer
    invitation.answered_at = timezone.now()
    invitation.save(update_fields=["answer", "answered_at"])


def challenge_cancel(*, challenge_id: int, user: User) -> Challenge:
    """The challenger withdraws the challenge; the invitees hear ``challenge_cancelled``."""
    with transaction.atomic():
        challenge = _pending_challenge(challenge_id, user)
        if challenge.challenger_id != user.pk:
            raise errors.NotChallenger(
                gettext("Only the challenger can cancel; you may decline it.")
            )
        _challenge_end(challenge, Challenge.Status.CANCELLED, user, "challenge_cancelled")
    return challenge


def _pending_challenge(challenge_id: int, user: User) -> Challenge:
    """The challenge, locked, if the user takes part in it and it is still pending."""
    taking_part = Q(challenger=user) | Q(
        pk__in=Invitation.objects.filter(player=user).values("challenge")
    )
    challenge = Challenge.objects.select_for_update().filter(taking_part, pk=challenge_id).first()
    if challenge is None:
        raise errors.ChallengeNotFound(
            gettext("You have no challenge %(challenge_id)s.") % {"challenge_id": challenge_id}
        )
    if challenge.status != Challenge.Status.PENDING:
        raise errors.ChallengeNotPending(str(CHALLENGE_ENDED[Challenge.Status(challenge.status)]))
    if challenge.expires_at <= timezone.now():  # the sweep has not ended it yet
        raise errors.ChallengeNotPending(gettext("The challenge has expired."))
    return challenge


def _challenge_end(challenge: Challenge, status: str, by: User, news: str) -> None:
    challenge.status = status
    challenge.ended_at = timezone.now()
    challenge.save(update_fields=["status", "ended_at"])
    others = {challenge.challenger_id, *(i.player_id for i in challenge.invitations.all())}
    others.discard(by.pk)
    data: dict[str, Any] = {"challenge": challenge.pk, "player": by.get_username()}
    if challenge.reason:
        data["reason"] = challenge.reason
    feed_append([FeedEntry(user_id, news, None, data) for user_id in sorted(others)])


def challenges_expire() -> int:
    """End every pending challenge whose time is up: ``expired``, and everyone in it — the
    challenger and every invitee — hears ``challenge_expired``. Run by the periodic sweep; a
    challenge being answered meanwhile is left to the next sweep (it is locked, not waited for).
    Returns how many expired."""
    now = timezone.now()
    with transaction.atomic():
        due = list(
            Challenge.objects.select_for_update(skip_locked=True)
            .filter(status=Challenge.Status.PENDING, expires_at__lte=now)
            .prefetch_related("invitations")
            .order_by("expires_at")[:EXPIRY_BATCH]
        )
        if not due:
            return 0
        Challenge.objects.filter(pk__in=[c.pk for c in due]).update(
            status=Challenge.Status.EXPIRED, ended_at=now
        )
        feed_append(
            [
                FeedEntry(user_id, "challenge_expired", None, {"challenge": challenge.pk})
                for challenge in due
                for user_id in (
                    challenge.challenger_id,
                    *(i.player_id for i in challenge.invitations.all()),
                )
            ]
        )
    return len(due)


def _challenge_match(challenge: Challenge) -> Match:
    invitations = list(challenge.invitations.select_related("player"))
    players: list[User | None] = [challenge.challenger, *(i.player for i in invitations)]
    players += [None] * (challenge.seat_count - len(players))
    match = match_create(
        creator=challenge.challenger,
        ruleset=challenge.ruleset,
        seats=challenge.seat_count,
        options=challenge.options,
        bots_wanted=challenge.bots,
        deals=challenge.deals,
        target=challenge.target,
        turn_seconds=challenge.turn_seconds,
        rated=challenge.rated,
        players=players,
    )
    return match_start(match_id=match.pk, user=challenge.challenger).match
