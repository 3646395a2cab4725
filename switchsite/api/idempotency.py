"""``Idempotency-Key``: a retried write returns the first answer and applies nothing twice.

As in pretix, one row per (caller, key) holds the answer; a repeat with a different body is
refused. A key is kept :data:`KEY_HOURS`: after that it is free again, and the sweep removes it. Unlike pretix, the row is written in the request's own transaction: a repeat that arrives
while the first is being served waits for it and gets its answer, and a request that died before
committing leaves the key free.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from django.db import DatabaseError, IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext
from rest_framework.request import Request
from rest_framework.response import Response

from switchgame.words import quoted
from switchsite.models import IdempotentRequest
from switchsite.problems import PROBLEM_CONTENT_TYPE, IdempotencyKeyReused, InvalidHeader

HEADER = "Idempotency-Key"
MAX_KEY_LENGTH = 200
# Answers that invite a retry: not stored, so the same key can be used again.
RETRYABLE = frozenset({409, 429, 500, 502, 503, 504})
# How long a key and its answer are kept (the contract's 24 hours).
KEY_HOURS = 24
# Expired keys removed per statement by the sweep.
KEYS_PER_BATCH = 1000


def _expired_before() -> Any:
    return timezone.now() - timedelta(hours=KEY_HOURS)


def _fingerprint(request: Request) -> str:
    assert request.method is not None  # set on every request a server hands over
    digest = hashlib.sha256()
    digest.update(request.method.encode())
    digest.update(request.get_full_path().encode())
    digest.update(request.body)
    return digest.hexdigest()


def _claim(user: Any, key: str, fingerprint: str) -> IdempotentRequest | Response:
    """In the request's transaction: a new row for the key, or the stored answer of an earlier
    request with it. The new row is not committed until the request's own write is, so a
    duplicate arriving meanwhile waits on it and then gets the answer — and a request that dies
    before its commit leaves nothing behind: the key is free again at once."""
    try:
        with transaction.atomic():
            return IdempotentRequest.objects.create(user=user, key=key, fingerprint=fingerprint)
    except IntegrityError:
        earlier = IdempotentRequest.objects.get(user=user, key=key)
    if earlier.created_at < _expired_before():
        # Expired (the sweep has not removed it yet): the key is free; of two requests taking it
        # over at once, the second finds the row changed and starts again.
        renewed = {
            "fingerprint": fingerprint,
            "created_at": timezone.now(),
            "response_status": None,
        }
        taken = IdempotentRequest.objects.filter(
            pk=earlier.pk, created_at=earlier.created_at
        ).update(**renewed)
        if not taken:
            return _claim(user, key, fingerprint)
        for name, value in renewed.items():
            setattr(earlier, name, value)
        return earlier
    if earlier.fingerprint != fingerprint:
        raise IdempotencyKeyReused(
            gettext("The %(header)s %(key)s was used for a different request.")
            % {"header": HEADER, "key": quoted(key)}
        )
    # Claimed in its request's transaction, a key is committed with its answer.
    assert earlier.response_status is not None
    replay = Response(
        earlier.response_body,
        status=earlier.response_status,
        content_type=PROBLEM_CONTENT_TYPE if earlier.response_status >= 400 else None,
    )
    replay["Idempotent-Replayed"] = "true"
    return replay


def expired_keys_purge(*, limit: int = KEYS_PER_BATCH) -> int:
    """Remove up to ``limit`` keys older than :data:`KEY_HOURS`; returns how many."""
    old = IdempotentRequest.objects.filter(created_at__lt=_expired_before())
    ids = list(old.values_list("pk", flat=True)[:limit])
    return IdempotentRequest.objects.filter(pk__in=ids).delete()[0] if ids else 0


def _complete(claim: IdempotentRequest, response: Response) -> None:
    claim.response_status = response.status_code
    claim.response_body = response.data
    claim.save(update_fields=["response_status", "response_body"])


def idempotent(handler: Callable[..., Response]) -> Callable[..., Response]:
    """Decorate a DRF view method whose effects must happen at most once per key.

    The key's row, the handler's writes and the stored answer commit in one transaction, so a key
    is either answered for good or free to be retried — never both applied and forgotten. A
    refusal is stored too (a retry gets the same answer), except answers that say "try again"
    (409, 429, 5xx): after those the key may be used again.
    """

    @functools.wraps(handler)
    def wrapper(view: Any, request: Request, *args: Any, **kwargs: Any) -> Response:
        key = request.headers.get(HEADER)
        if not key:
            return handler(view, request, *args, **kwargs)
        if len(key) > MAX_KEY_LENGTH:
            raise InvalidHeader(
                gettext("%(header)s must be at most %(length)s characters.")
                % {"header": HEADER, "length": MAX_KEY_LENGTH}
            )
        fingerprint = _fingerprint(request)
        try:
            with transaction.atomic():
                claim = _claim(request.user, key, fingerprint)
                if isinstance(claim, Response):
                    return claim
                response = handler(view, request, *args, **kwargs)
                _complete(claim, response)
                return response
        except Exception as error:
            response = view.handle_exception(error)  # the problem document the caller gets
            if isinstance(error, IdempotencyKeyReused) or response.status_code in RETRYABLE:
                return response
        # Nothing was applied: keep the refusal as the key's answer (unless the database is what
        # failed, or a duplicate stored its answer first).
        with contextlib.suppress(DatabaseError), transaction.atomic():
            claim = _claim(request.user, key, fingerprint)
            if not isinstance(claim, Response):
                _complete(claim, response)
        return response

    return wrapper
