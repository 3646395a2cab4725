"""Who is calling, and what their token allows.

``Authorization: Token <key>`` or ``Bearer <key>``. Every key is looked up by its SHA-256 (only the
hash is stored, :class:`ApiToken`): the account's own token (from registration or ``auth/token/``:
every scope) or a named token. A named token's scopes are checked here, for every view that
authenticates, so no view can forget them:

- ``read``: safe methods (GET, HEAD, OPTIONS) only; ``play``: every write too;
- ``seat`` (a guest's seat link): only views that say a seat link may use them
  (``seat_link_allows(user)`` on the view), such as the moves and views of the guest's matches;
- no named token manages tokens (views with ``account_credentials_only``).

Refusals are 403 ``insufficient_scope``.
"""

from __future__ import annotations

import base64
import hashlib
import secrets
from typing import Any

from django.contrib.auth.models import User
from django.utils.crypto import salted_hmac
from django.utils.translation import gettext
from rest_framework import authentication, exceptions
from rest_framework.permissions import SAFE_METHODS
from rest_framework.request import Request

from switchgame.words import quoted
from switchsite import grip
from switchsite.models import ApiToken

NAMED_TOKEN_PREFIX = "swt_"
SCHEMES = (b"token", b"bearer")
# A token is read with its user and the user's game profile (``user.player``), in one query: most
# requests need the profile (a feed, a seat, the caller's own page) and would read it again.
WITH_USER = ("user", "user__player")
ACCOUNT_TOKEN_SALT = "switchsite.account-token"
SEAT_LINK_SALT = "switchsite.seat-link"


def named_token_secret() -> tuple[str, str]:
    """A new named token's secret and the hash that is stored instead of it."""
    secret = NAMED_TOKEN_PREFIX + secrets.token_urlsafe(32)
    return secret, key_hash(secret)


def account_token_secret(nonce: str) -> str:
    """The account token's secret: derived from its nonce and ``SECRET_KEY``, so that it can be
    given again without being stored."""
    return salted_hmac(ACCOUNT_TOKEN_SALT, nonce, algorithm="sha256").hexdigest()[:40]


def seat_link_secret(nonce: str) -> str:
    """A seat link's secret: derived from its nonce and ``SECRET_KEY`` like the account token's,
    so that the desk prints the same link again, and shaped like a named token's (its prefix, 43
    URL-safe characters), which the logs redact."""
    digest = salted_hmac(SEAT_LINK_SALT, nonce, algorithm="sha256").digest()
    return NAMED_TOKEN_PREFIX + base64.urlsafe_b64encode(digest).decode().rstrip("=")


def key_hash(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


class TokenAuthentication(authentication.TokenAuthentication):
    """DRF's, for its place in the schema (the ``Token`` scheme), with a lookup of our own: DRF's
    ``authtoken`` model is not used."""

    def authenticate(self, request: Request) -> tuple[User, Any] | None:
        words = authentication.get_authorization_header(request).split()
        if not words or words[0].lower() not in SCHEMES:
            return None
        if len(words) != 2:
            raise exceptions.AuthenticationFailed(gettext("Invalid token header: give one key."))
        try:
            key = words[1].decode()
        except UnicodeError:
            raise exceptions.AuthenticationFailed(gettext("Invalid token header.")) from None
        token = ApiToken.objects.select_related(*WITH_USER).filter(key_hash=key_hash(key)).first()
        if token is None or not token.user.is_active:
            raise exceptions.AuthenticationFailed(gettext("Invalid token."))
        if not token.account:
            _check_scope(request, token)
        return token.user, token

    def authenticate_header(self, request: Request) -> str:
        return "Token, Bearer"


class TierLinkAuthentication(authentication.BaseAuthentication):
    """The connection tier following a held stream's next link (``switchsite.grip``):
    it sends none of the client's headers, so the link names who holds the stream, signed. The
    holder's token must still exist (a revoked one is refused, and the stream ends) and is
    checked as if the client had sent it."""

    def authenticate(self, request: Request) -> tuple[User, Any] | None:
        holder = grip.link_holder(request._request)
        if holder is None:
            return None
        if holder.token_id is None:
            user = User.objects.select_related("player").filter(pk=holder.user_id).first()
            if user is None or not user.is_active:
                raise exceptions.AuthenticationFailed(gettext("Invalid token."))
            return user, None
        token = (
            ApiToken.objects.select_related(*WITH_USER)
            .filter(pk=holder.token_id, user_id=holder.user_id)
            .first()
        )
        if token is None or not token.user.is_active:
            raise exceptions.AuthenticationFailed(gettext("Invalid token."))
        if not token.account:
            _check_scope(request, token)
        return token.user, token


class TierLinks:
    """A view whose held streams the tier asks again by their next link: such a request is
    authenticated by its link alone (a mixin before the view class)."""

    def initialize_request(self, request: Any, *args: Any, **kwargs: Any) -> Request:
        initialized: Request = super().initialize_request(  # type: ignore[misc]
            request, *args, **kwargs
        )
        if grip.link_holder(request) is not None:
            initialized.authenticators = (TierLinkAuthentication(),)
        return initialized


def _check_scope(request: Request, token: ApiToken) -> None:
    view = request.parser_context.get("view") if request.parser_context else None
    if getattr(view, "account_credentials_only", False):
        raise _insufficient(
            gettext("Tokens are managed with the account's own token, not a named one.")
        )
    if ApiToken.Scope.SEAT in token.scopes:
        allows = getattr(view, "seat_link_allows", None)
        # The user is not on the request yet (this is its authentication): pass it.
        if allows is None or not allows(token.user):
            raise _insufficient(gettext("A seat link allows only its own seat's moves and views."))
        return
    needed = ApiToken.Scope.READ if request.method in SAFE_METHODS else ApiToken.Scope.PLAY
    if needed not in token.scopes:
        raise _insufficient(
            gettext("This token's scopes do not include %(scope)s.")
            % {"scope": quoted(needed.value)}
        )


def _insufficient(detail: str) -> exceptions.PermissionDenied:
    return exceptions.PermissionDenied(detail, code="insufficient_scope")
