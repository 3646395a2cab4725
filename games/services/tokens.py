"""API tokens: the account's own, named tokens with scopes (``read``, ``play``), and the ``seat``
tokens of guests' seat links. Only a secret's hash is kept: a named token's secret is shown once,
at creation; the account's and a seat link's are derived again from their nonce and ``SECRET_KEY``
each time they are asked for (``switchsite.api.authentication``)."""

from __future__ import annotations

import secrets
from collections.abc import Sequence

from django.contrib.auth.models import User
from django.utils.translation import gettext

from games import errors
from games.models import shown_name
from games.selectors import seat_link_secrets
from switchsite.api.authentication import (
    account_token_secret,
    key_hash,
    named_token_secret,
    seat_link_secret,
)
from switchsite.models import ApiToken


def account_token(*, user: User, rotate: bool = False) -> str:
    """The account's own token: the one it has, or (``rotate``, or none that can be given again) a
    new one; ``rotate`` revokes every earlier one."""
    tokens = ApiToken.objects.filter(user=user, account=True)
    if rotate:
        tokens.delete()
    for token in tokens.exclude(nonce=""):
        secret = account_token_secret(token.nonce)
        if key_hash(secret) == token.key_hash:  # else SECRET_KEY has changed since: a new one
            return secret
    nonce = secrets.token_hex(16)
    secret = account_token_secret(nonce)
    ApiToken.objects.create(
        user=user,
        name="account",
        scopes=[ApiToken.Scope.READ, ApiToken.Scope.PLAY],
        key_hash=key_hash(secret),
        account=True,
        nonce=nonce,
    )
    return secret


def token_create(*, user: User, name: str, scopes: Sequence[str]) -> tuple[ApiToken, str]:
    """A new named token of the user; returns it and its secret (never stored, never shown again)."""
    secret, hashed = named_token_secret()
    token = ApiToken.objects.create(user=user, name=name, scopes=list(scopes), key_hash=hashed)
    return token, secret


def token_revoke(*, user: User, token_id: int) -> None:
    """Revoke one of the user's named tokens."""
    revoked, _ = ApiToken.objects.filter(user=user, pk=token_id).delete()
    if not revoked:
        raise errors.TokenNotFound(
            gettext("You have no token %(token_id)s.") % {"token_id": token_id}
        )


def seat_token_create(*, user: User) -> str:
    """The seat link's token of a guest's user. Its secret is derived from a random nonce and
    ``SECRET_KEY``, so the desk can print it again (``games.selectors.seat_link_secrets``)."""
    nonce = secrets.token_hex(16)
    secret = seat_link_secret(nonce)
    ApiToken.objects.create(
        user=user,
        name=f"seat link of {shown_name(user.get_username())}"[:100],
        scopes=[ApiToken.Scope.SEAT],
        key_hash=key_hash(secret),
        nonce=nonce,
    )
    return secret


def seat_links_renew(*, user_ids: Sequence[int]) -> None:
    """Give each of these guests' users whose seat link cannot be derived again (``SECRET_KEY``
    has changed since it was made) a new one beside it: the desk can print that one, and the card
    printed before keeps working."""
    derivable = seat_link_secrets(user_ids=user_ids)
    for user in User.objects.filter(pk__in=user_ids).exclude(pk__in=derivable):
        seat_token_create(user=user)


def seat_tokens_revoke(*, user_ids: Sequence[int]) -> None:
    """Revoke the seat links of some guests' users (their tournament is gone)."""
    ApiToken.objects.filter(user_id__in=user_ids, scopes=[ApiToken.Scope.SEAT]).delete()
