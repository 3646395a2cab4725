"""Django's error views as problem documents: an API answers errors in its own format, never HTML."""

from __future__ import annotations

import sys

from django.http import HttpRequest, JsonResponse
from django.utils.translation import gettext

from switchsite.middleware import (
    bad_request_json,
    database_unavailable_json,
    not_found_json,
    problem_json,
)
from switchsite.outages import outages
from switchsite.problems import DATABASE_UNAVAILABLE


def bad_request(request: HttpRequest, exception: Exception) -> JsonResponse:
    return bad_request_json()


def permission_denied(request: HttpRequest, exception: Exception) -> JsonResponse:
    return problem_json(403, "permission_denied", gettext("You may not do this."))


def not_found(request: HttpRequest, exception: Exception) -> JsonResponse:
    return not_found_json(request)


def server_error(request: HttpRequest) -> JsonResponse:
    """500 for a fault of ours; 503 when what failed is the database (say, in a middleware)."""
    error = sys.exc_info()[1]
    if isinstance(error, DATABASE_UNAVAILABLE):
        outages.failed("PostgreSQL", "a request answered 503", error)
        return database_unavailable_json()
    return problem_json(
        500, "server_error", gettext("The server failed; the fault has been logged.")
    )
