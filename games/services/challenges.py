"""Challenges: an invitation to a match that becomes the match, started, when every invitee accepts."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from games import errors
from games.models import Challenge, Invitation, Match
from games.recording import FeedEntry, feed_append
from games.rules import catalog
from games.services.matches import match_create, match_start, validated_bots
from games.services.players import player_profile


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


def challenge_create(
    *, challenger: User, invitees: Sequence[str], settings: MatchSettings
) -> Challenge:
    """Invite players by username to a match: the challenger will sit at seat 0, the invitees at
    seats 1, 2, … in the order given, bots at the seats ``bots`` names — exactly the rest."""
    users = _invitees(challenger, invitees)
    humans = 1 + len(users)
    bot_seats = sorted(bot["seat"] for bot in settings.bots)
    if bot_seats != list(range(humans, settings.seats)):
        raise errors.InvalidChallenge(
            f"{settings.seats} seats: you at seat 0 and {len(users)} invitees at seats 1 to "
            f"{humans - 1} leave seats {list(range(humans, settings.seats))} for bots, but the "
            f"bots are at {bot_seats}"
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
        )
        Invitation.objects.bulk_create(
            Invitation(challenge=challenge, player=user, seat=seat)
            for seat, user in enumerate(users, start=1)
        )
        data = {
            "challenge": challenge.pk,
            "from": challenger.get_username(),
            "ruleset": settings.ruleset,
        }
        feed_append([FeedEntry(user.pk, "challenge", None, data) for user in users])
    return challenge


def _invitees(challenger: User, usernames: Sequence[str]) -> list[User]:
    if not usernames:
        raise errors.InvalidChallenge("Invite at least one player (for bots only, create a match).")
    if len(set(usernames)) != len(usernames):
        raise errors.InvalidChallenge("Each player can be invited once.")
    found = {u.get_username(): u for u in get_user_model().objects.filter(username__in=usernames)}
    unknown = [name for name in usernames if name not in found]
    if unknown:
        raise errors.InvalidChallenge(f"No such players: {', '.join(unknown)}.")
    if challenger.get_username() in found:
        raise errors.InvalidChallenge("You cannot challenge yourself.")
    users = [found[name] for name in usernames]
    for user in users:
        player_profile(user=user)
    return users


def challenge_answer(*, challenge_id: int, user: User, accept: bool) -> Challenge:
    """An invitee accepts or declines. The last acceptance creates and starts the match (every
    player hears ``match_started``); a decline ends the challenge and tells the others."""
    with transaction.atomic():
        challenge = _pending_challenge(challenge_id, user)
        invitation = next((i for i in challenge.invitations.all() if i.player_id == user.pk), None)
        if invitation is None:
            raise errors.NotInvited("Only an invitee can accept or decline; you may cancel it.")
        invitation.answer = Invitation.Answer.ACCEPTED if accept else Invitation.Answer.DECLINED
        invitation.answered_at = timezone.now()
        invitation.save(update_fields=["answer", "answered_at"])
        if not accept:
            _challenge_end(challenge, Challenge.Status.DECLINED, user, "challenge_declined")
        elif all(i.answer == Invitation.Answer.ACCEPTED for i in challenge.invitations.all()):
            challenge.match = _challenge_match(challenge)
            challenge.status = Challenge.Status.ACCEPTED
            challenge.ended_at = timezone.now()
            challenge.save(update_fields=["match", "status", "ended_at"])
    return challenge


def challenge_cancel(*, challenge_id: int, user: User) -> Challenge:
    """The challenger withdraws the challenge; the invitees hear ``challenge_cancelled``."""
    with transaction.atomic():
        challenge = _pending_challenge(challenge_id, user)
        if challenge.challenger_id != user.pk:
            raise errors.NotChallenger("Only the challenger can cancel; you may decline it.")
        _challenge_end(challenge, Challenge.Status.CANCELLED, user, "challenge_cancelled")
    return challenge


def _pending_challenge(challenge_id: int, user: User) -> Challenge:
    """The challenge, locked, if the user takes part in it and it is still pending."""
    taking_part = Q(challenger=user) | Q(
        pk__in=Invitation.objects.filter(player=user).values("challenge")
    )
    challenge = Challenge.objects.select_for_update().filter(taking_part, pk=challenge_id).first()
    if challenge is None:
        raise errors.ChallengeNotFound(f"You have no challenge {challenge_id}.")
    if challenge.status != Challenge.Status.PENDING:
        raise errors.ChallengeNotPending(f"The challenge is {challenge.status}.")
    return challenge


def _challenge_end(challenge: Challenge, status: str, by: User, news: str) -> None:
    challenge.status = status
    challenge.ended_at = timezone.now()
    challenge.save(update_fields=["status", "ended_at"])
    others = {challenge.challenger_id, *(i.player_id for i in challenge.invitations.all())}
    others.discard(by.pk)
    data = {"challenge": challenge.pk, "player": by.get_username()}
    feed_append([FeedEntry(user_id, news, None, data) for user_id in sorted(others)])


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
        players=players,
    )
    return match_start(match_id=match.pk, user=challenge.challenger).match
