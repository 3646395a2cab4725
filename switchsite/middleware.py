"""Middleware that makes every answer of the service a proper API answer.

- :class:`OptionalTrailingSlash`: a path given without its trailing slash is served as if it had
  one — not redirected (a client following a 301 would turn a POST into a GET).
- :class:`DatabaseUnavailable`: a lost database answers 503 problem+json with ``Retry-After`` from
  any view, the admin included (the API's own views answer it through the exception handler, and
  faults outside views through ``handler500``, see :mod:`switchsite.errors`).
- :class:`StaticFiles`: WhiteNoise, able to run in Django's async middleware chain.
- :class:`DebugPagesAsProblems`: under ``DEBUG`` too, an unknown path and a bad request (a
  ``Host`` not allowed) answer problem documents, not Django's technical HTML pages.
- :class:`RateLimitHeaders`: every answer under ``/api/`` carries ``RateLimit-Limit``,
  ``-Remaining`` and ``-Reset`` (:mod:`switchsite.api.throttling`).
- :class:`Locale`: Django's ``LocaleMiddleware`` (the language of the request; ``Content-Language``
  and ``Vary: Accept-Language`` on the answer), its hooks in the event loop.
- :class:`ContentSecurityPolicy`: django-csp's header on every answer (the policy in the settings),
  its hooks in the event loop.
- :class:`HooksInline`: for the waiting views, which Django serves through the async chain, the
  hooks of the middleware above run in the event loop instead of a thread each.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from asgiref.sync import iscoroutinefunction, markcoroutinefunction, sync_to_async
from csp.middleware import CSPMiddleware
from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseBase, JsonResponse
from django.middleware.locale import LocaleMiddleware
from django.urls import Resolver404, resolve
from django.utils.deprecation import MiddlewareMixin
from django.utils.translation import gettext
from whitenoise.middleware import WhiteNoiseMiddleware

from switchsite.api.throttling import quota_noted, tightest_quota
from switchsite.outages import outages
from switchsite.problems import (
    DATABASE_RETRY_AFTER,
    DATABASE_UNAVAILABLE,
    PROBLEM_CONTENT_TYPE,
    ServiceError,
    problem_body,
)


def problem_response_json(error: ServiceError) -> JsonResponse:
    """A service's refusal as a problem document outside DRF (plain Django views)."""
    response = JsonResponse(
        problem_body(error.status, error.code, error.detail, **error.extra),
        status=error.status,
        content_type=PROBLEM_CONTENT_TYPE,
    )
    if error.retry_after is not None:
        response["Retry-After"] = str(error.retry_after)
    return response


def problem_json(status: int, code: str, detail: str, **headers: str) -> JsonResponse:
    """A problem document outside DRF (plain Django views, error handlers, middleware)."""
    response = JsonResponse(
        problem_body(status, code, detail), status=status, content_type=PROBLEM_CONTENT_TYPE
    )
    for name, value in headers.items():
        response[name] = value
    return response


# Every middleware here can run in Django's async mode (MiddlewareMixin, or both modes by hand): under
# ASGI a synchronous-only one makes Django run the rest of the chain from a thread, and a waiting
# long poll or stream would hold that thread for its whole life (tests/serving checks this).


class HooksInline:
    """For a ``MiddlewareMixin`` of this module, whose hooks only compute (no database, cache or
    network): in Django's async chain (the waiting views) they run in the event loop.

    Django runs each synchronous hook of an async request through ``sync_to_async``, a hop to the
    request's thread and back. On the thread pool, where every other view runs, nothing changes. A
    hook that must do I/O for one request says so in :meth:`response_needs_thread`, and goes to
    the thread as before. (Django's own middleware keep their hops:
    docs/decisions/2026-11-27-middleware-hops.md.)
    """

    get_response: Any

    def response_needs_thread(self, request: HttpRequest) -> bool:
        return False

    async def __acall__(self, request: HttpRequest) -> HttpResponseBase:
        response = None
        if hasattr(self, "process_request"):
            response = self.process_request(request)
        response = response or await self.get_response(request)
        if hasattr(self, "process_response"):
            if self.response_needs_thread(request):
                hook = sync_to_async(self.process_response, thread_sensitive=True)
                response = await hook(request, response)
            else:
                response = self.process_response(request, response)
        return response


class OptionalTrailingSlash(HooksInline, MiddlewareMixin):
    def process_request(self, request: HttpRequest) -> None:
        path = request.path_info
        if not path.endswith("/") and not _resolves(path) and _resolves(path + "/"):
            request.path_info += "/"
            request.path += "/"


def _resolves(path: str) -> bool:
    try:
        resolve(path)
    except Resolver404:
        return False
    return True


class Locale(HooksInline, LocaleMiddleware):
    """The language of each request: the switcher's cookie, else ``Accept-Language``, else
    ``LANGUAGE_CODE``. Its hooks only compute (a cookie, a header, the URLconf's patterns), and the
    active language lives in a context variable, so they run in the event loop like the others."""


class ContentSecurityPolicy(HooksInline, CSPMiddleware):
    """django-csp's middleware. Its hooks only compute (a lazy nonce on the request, the header
    built from the settings and the view's own changes), so they run in the event loop too."""


class DatabaseUnavailable(MiddlewareMixin):
    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if isinstance(exception, DATABASE_UNAVAILABLE):
            outages.failed("PostgreSQL", "a request answered 503", exception)
            return database_unavailable_json()
        return None


def database_unavailable_json() -> JsonResponse:
    return problem_json(
        503,
        "service_unavailable",
        gettext("The database is unavailable; nothing was changed. Try again shortly."),
        **{"Retry-After": str(DATABASE_RETRY_AFTER)},
    )


class StaticFiles(WhiteNoiseMiddleware):
    """WhiteNoise (static files served by the service), usable in Django's async middleware chain.

    WhiteNoise's own middleware is synchronous only, so under ASGI Django would run everything after
    it from a thread — which a waiting long poll or stream would then hold. Here only a request for
    a static file goes to a thread; any other passes straight on.
    """

    sync_capable = True
    async_capable = True

    def __init__(self, get_response: Callable[[HttpRequest], Any]) -> None:
        super().__init__(get_response)
        self.in_async_chain = iscoroutinefunction(get_response)
        if self.in_async_chain:
            markcoroutinefunction(self)

    def __call__(self, request: HttpRequest) -> Any:
        if self.in_async_chain:
            return self._serve_async(request)
        return super().__call__(request)

    async def _serve_async(self, request: HttpRequest) -> HttpResponse:
        if self.autorefresh:
            static_file = await sync_to_async(self.find_file)(request.path_info)
        else:
            static_file = self.files.get(request.path_info)
        if static_file is not None:
            return await sync_to_async(self.serve)(static_file, request)
        return await self.get_response(request)


class DebugPagesAsProblems(HooksInline, MiddlewareMixin):
    """Under ``DEBUG`` Django answers ``Http404`` with its technical "Page not found" page and a
    suspicious request (a ``Host`` not in ``ALLOWED_HOSTS``) with its technical error page,
    bypassing ``handler404`` and ``handler400``; ``make run`` serves with ``DEBUG`` on, and clients
    must get the problem documents they get in production. (A 500 keeps Django's page, with its
    traceback, under ``DEBUG``: that is what ``DEBUG`` is for.)"""

    def process_response(
        self, request: HttpRequest, response: HttpResponseBase
    ) -> HttpResponseBase:
        if not settings.DEBUG or not response.get("Content-Type", "").startswith("text/html"):
            return response
        if response.status_code == 404:
            return not_found_json(request)
        if response.status_code == 400:
            return bad_request_json()
        return response


def not_found_json(request: HttpRequest) -> JsonResponse:
    return problem_json(
        404, "not_found", gettext("Nothing is at %(path)s.") % {"path": request.path}
    )


def bad_request_json() -> JsonResponse:
    return problem_json(400, "bad_request", gettext("The request could not be understood."))


API_PATH = "/api/"


class RateLimitHeaders(HooksInline, MiddlewareMixin):
    """Every answer of the API says what is left of the caller's tightest rate limit."""

    def response_needs_thread(self, request: HttpRequest) -> bool:
        """The throttles did not run (the answer came first): the limits are read from the cache."""
        return not quota_noted(request)

    def process_response(
        self, request: HttpRequest, response: HttpResponseBase
    ) -> HttpResponseBase:
        if request.path_info.startswith(API_PATH) and (quota := tightest_quota(request)):
            response["RateLimit-Limit"] = str(quota.limit)
            response["RateLimit-Remaining"] = str(quota.remaining)
            response["RateLimit-Reset"] = str(quota.reset)
        return response
