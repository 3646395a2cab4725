"""Middleware that makes every answer of the service a proper API answer.

- :class:`OptionalTrailingSlash`: a path given without its trailing slash is served as if it had
  one — not redirected (a client following a 301 would turn a POST into a GET).
- :class:`DatabaseUnavailable`: a lost database answers 503 problem+json with ``Retry-After`` from
  any view, the admin included (the API's own views answer it through the exception handler, and
  faults outside views through ``handler500``, see :mod:`switchsite.errors`).
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.urls import Resolver404, resolve

from switchsite.problems import (
    DATABASE_RETRY_AFTER,
    DATABASE_UNAVAILABLE,
    PROBLEM_CONTENT_TYPE,
    problem_body,
)


def problem_json(status: int, code: str, detail: str, **headers: str) -> JsonResponse:
    """A problem document outside DRF (plain Django views, error handlers, middleware)."""
    response = JsonResponse(
        problem_body(status, code, detail), status=status, content_type=PROBLEM_CONTENT_TYPE
    )
    for name, value in headers.items():
        response[name] = value
    return response


class OptionalTrailingSlash:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        path = request.path_info
        if not path.endswith("/") and not _resolves(path) and _resolves(path + "/"):
            request.path_info += "/"
            request.path += "/"
        return self.get_response(request)


def _resolves(path: str) -> bool:
    try:
        resolve(path)
    except Resolver404:
        return False
    return True


class DatabaseUnavailable:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if isinstance(exception, DATABASE_UNAVAILABLE):
            return database_unavailable_json()
        return None


def database_unavailable_json() -> JsonResponse:
    return problem_json(
        503,
        "service_unavailable",
        "The database is unavailable; nothing was changed. Try again shortly.",
        **{"Retry-After": str(DATABASE_RETRY_AFTER)},
    )
