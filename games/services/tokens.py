"""Named API tokens with scopes (``read``, ``play``) beside the account's own, and the ``seat``
tokens of guests' seat links. The secret is shown once, at creation; only its hash is kept."""

from __future__ import annotations

from collections.abc import Sequence

from django.contrib.auth.models import User
from django.utils.translation import gettext

from games import errors
from switchsite.api.authentication import named_token_secret
from switchsite.models import ApiToken


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


def seat_token_create(*, user: User, name: str) -> str:
    """The seat link's token of a guest's user; the secret is kept too, for the desk to show."""
    secret, hashed = named_token_secret()
    ApiToken.objects.create(
        user=user, name=name, scopes=[ApiToken.Scope.SEAT], key_hash=hashed, seat_secret=secret
    )
    return secret


def seat_tokens_revoke(*, user_ids: Sequence[int]) -> None:
    """Revoke the seat links of some guests' users (their tournament is gone)."""
    ApiToken.objects.filter(user_id__in=user_ids).exclude(seat_secret="").delete()
