"""Players: registration, API tokens, game profiles and their own feeds."""

from __future__ import annotations

import unicodedata
from typing import Any

from django.conf import settings
from django.contrib.auth import authenticate, get_user_model
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.http import HttpRequest
from django.utils.translation import gettext

from games import errors
from games.models import Match, Player
from games.services.tokens import account_token
from games.services.writer import FeedEntry, feed_append
from switchgame.words import quoted
from switchsite.models import ApiToken

# Names that are paths beside /api/v1/players/<username>/: a player of that name would have no page.
RESERVED_NAME_KEYS = frozenset({"me", "online"})


def player_register(*, username: str, password: str, bot: bool = False) -> tuple[User, str]:
    """Create a user with a game profile (a ``bot`` account or not) and an API token; returns the
    user and the token key.

    The username is stored in NFKC form and compared case-folded, so look-alikes made of
    full-width letters or of another case are the same name (and refused as taken).
    """
    if not settings.REGISTRATION_OPEN:
        raise errors.RegistrationClosed(gettext("Registration is closed on this server."))
    username = unicodedata.normalize("NFKC", username)
    key = name_key(username)
    if key in RESERVED_NAME_KEYS:
        raise errors.UsernameTaken(
            gettext("The username %(name)s names a page of the API: choose another.")
            % {"name": quoted(username)}
        )
    user_model = get_user_model()
    taken = errors.UsernameTaken(
        gettext("The username %(name)s is taken.") % {"name": quoted(username)}
    )
    if (
        Player.objects.filter(name_key=key).exists()
        or user_model.objects.filter(username__iexact=username).exists()
    ):
        raise taken
    try:
        with transaction.atomic():
            user = user_model.objects.create_user(username=username, password=password)
            Player.objects.create(user=user, name_key=key, bot=bot)
            secret = account_token(user=user)
    except IntegrityError:
        raise taken from None
    return user, secret


def name_key(username: str) -> str:
    """A username as compared for uniqueness: NFKC, case-folded, NFKC again."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", username).casefold())


def token_obtain(
    *, request: HttpRequest, username: str, password: str, rotate: bool = False
) -> str:
    """The API token of the user with these credentials; with ``rotate``, a new one that replaces
    (and so revokes) the old one. ``request`` is the login attempt, counted per account and per
    address (``switchsite.logins``): after too many failures the right password is refused too."""
    user = authenticate(request, username=username, password=password)
    if user is None:
        raise errors.InvalidCredentials(gettext("The username or password is wrong."))
    with transaction.atomic():
        return account_token(user=user, rotate=rotate)


def tokens_revoke(*, user: User) -> None:
    """Revoke the user's API tokens, named ones too (their password changed: the old credentials
    are void)."""
    ApiToken.objects.filter(user=user).delete()


def player_profile(*, user: User) -> Player:
    """The user's game profile, created on first use (for users made in the admin); no query when
    it was read with the user (as the token authentication does)."""
    try:
        return user.player
    except Player.DoesNotExist:
        player, _ = Player.objects.get_or_create(user=user)
    player.user = user  # the caller's own object: else reading it back would cost a query
    return player


def player_notify(
    *, user_id: int, event_type: str, match: Match | None, data: dict[str, Any]
) -> None:
    """Append one entry to a player's own feed (``round_seated``, …). A user made in the admin
    (a director seating themselves) gets the game profile that holds the feed here, before the
    entry is written, so no entry is lost."""
    Player.objects.get_or_create(user_id=user_id)
    feed_append([FeedEntry(user_id, event_type, match.pk if match else None, data)])
