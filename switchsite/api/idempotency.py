"""``Idempotency-Key``: a retried write returns the first answer and applies nothing twice.

As in pretix: one row per (caller, key) holds the answer. A repeat while the first request is still
being served gets 409 ``request_in_flight`` with ``Retry-After``; a repeat with a different body is
refused; a first attempt that failed with a server error is forgotten, so it may be retried.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Callable
from typing import Any

from django.db import IntegrityError, transaction
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


def _fingerprint(request: Request) -> str:
    digest = hashlib.sha256()
    digest.update(request.method.encode())
    digest.update(request.get_full_path().encode())
    digest.update(request.body)
    return digest.hexdigest()


def _claim(request: Request, key: str) -> IdempotentRequest | Response:
    """Claim the key for this request, or return the stored answer of an earlier one."""
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


def idempotent(handler: Callable[..., Response]) -> Callable[..., Response]:
    """Decorate a DRF view method whose effects must happen at most once per key."""

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
            try:
                response = handler(view, request, *args, **kwargs)
            except Exception as error:
                response = view.handle_exception(error)  # the problem document the caller gets
        except BaseException:
            claim.delete()  # an unexpected failure: forget the key so the request may be retried
            raise
        if response.status_code >= 500:
            claim.delete()
        else:
            claim.in_flight = False
            claim.response_status = response.status_code
            claim.response_body = response.data
            claim.save(update_fields=["in_flight", "response_status", "response_body"])
        return response

    return wrapper
