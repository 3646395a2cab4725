"""``Idempotency-Key``: a retried write returns the first answer and applies nothing twice.

As in pretix: one row per (caller, key) holds the answer. A repeat while the first request is still
being served gets 409 ``request_in_flight`` with ``Retry-After``; a repeat with a different body is
refused; a first attempt answered "try again" (409, 429, 5xx) is forgotten, so it may be retried.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import DatabaseError, IntegrityError, transaction
from django.utils import timezone
from rest_framework.request import Request
from rest_framework.response import Response

from switchsite.models import IdempotentRequest
from switchsite.problems import (
    PROBLEM_CONTENT_TYPE,
    IdempotencyKeyReused,
    InvalidHeader,
    RequestInFlight,
)

HEADER = "Idempotency-Key"
MAX_KEY_LENGTH = 200
# Answers that invite a retry: not stored, so the same key can be used again.
RETRYABLE_STATUSES = frozenset({409, 429, 500, 502, 503, 504})


def _fingerprint(request: Request) -> str:
    digest = hashlib.sha256()
    digest.update(request.method.encode())
    digest.update(request.get_full_path().encode())
    digest.update(request.body)
    return digest.hexdigest()


def _claim(request: Request, key: str) -> IdempotentRequest | Response:
    """Claim the key for this request, or return the stored answer of an earlier one.

    A claim whose request died mid-flight (its process was killed, its database connection lost)
    is taken over once it is ``IDEMPOTENCY_IN_FLIGHT_SECONDS`` old: nothing it did was committed,
    because a request's write and the completion of its claim commit together.
    """
    fingerprint = _fingerprint(request)
    try:
        with transaction.atomic():
            return IdempotentRequest.objects.create(
                user=request.user, key=key, fingerprint=fingerprint
            )
    except IntegrityError:
        earlier = IdempotentRequest.objects.filter(user=request.user, key=key).first()
    if earlier is None:  # the first attempt failed and was forgotten meanwhile: try again
        return _claim(request, key)
    if earlier.fingerprint != fingerprint:
        raise IdempotencyKeyReused(f"The {HEADER} {key!r} was used for a different request.")
    if earlier.in_flight:
        now = timezone.now()
        abandoned_before = now - timedelta(seconds=settings.IDEMPOTENCY_IN_FLIGHT_SECONDS)
        taken_over = IdempotentRequest.objects.filter(
            pk=earlier.pk, in_flight=True, created_at__lt=abandoned_before
        ).update(created_at=now)
        if taken_over:
            return earlier
        raise RequestInFlight(
            f"A request with the {HEADER} {key!r} is still being processed.", retry_after=1
        )
    replay = Response(
        earlier.response_body,
        status=earlier.response_status,
        content_type=PROBLEM_CONTENT_TYPE if earlier.response_status >= 400 else None,
    )
    replay["Idempotent-Replayed"] = "true"
    return replay


def _complete(claim: IdempotentRequest, response: Response) -> None:
    claim.in_flight = False
    claim.response_status = response.status_code
    claim.response_body = response.data
    claim.save(update_fields=["in_flight", "response_status", "response_body"])


def idempotent(handler: Callable[..., Response]) -> Callable[..., Response]:
    """Decorate a DRF view method whose effects must happen at most once per key.

    The handler's writes and the stored answer commit in one transaction, so a key is either
    answered for good or left to be retried — never both applied and forgotten. Answers that say
    "try again" (409, 429, 5xx) are not stored, as in pretix: the key may be used again.
    """

    @functools.wraps(handler)
    def wrapper(view: Any, request: Request, *args: Any, **kwargs: Any) -> Response:
        key = request.headers.get(HEADER)
        if not key:
            return handler(view, request, *args, **kwargs)
        if len(key) > MAX_KEY_LENGTH:
            raise InvalidHeader(f"{HEADER} must be at most {MAX_KEY_LENGTH} characters.")
        claim = _claim(request, key)
        if isinstance(claim, Response):
            return claim
        try:
            with transaction.atomic():
                response = handler(view, request, *args, **kwargs)
                _complete(claim, response)
        except Exception as error:
            response = view.handle_exception(error)  # the problem document the caller gets
            # Nothing was applied; keep a final answer, or forget the key so it can be retried.
            # (If the database is what failed, the claim expires by itself.)
            with contextlib.suppress(DatabaseError):
                if response.status_code in RETRYABLE_STATUSES:
                    claim.delete()
                else:
                    _complete(claim, response)
        return response

    return wrapper
