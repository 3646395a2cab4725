"""Errors as RFC 9457 problem details, from one place.

Services raise :class:`ServiceError` subclasses (plain Python, no DRF) that carry the stable ``code``
and HTTP status of the API guide; DRF raises its own exceptions for parsing, authentication, permissions and
throttling. :func:`problem_exception_handler` turns both into ``application/problem+json`` so views
never catch anything themselves.
"""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

from django.core.exceptions import RequestDataTooBig
from django.db import InterfaceError, OperationalError
from django.utils.translation import gettext, gettext_noop
from rest_framework import exceptions
from rest_framework.response import Response
from rest_framework.views import exception_handler

from switchsite.outages import outages

PROBLEM_CONTENT_TYPE = "application/problem+json"
# A lost or refused database connection (a restart, a failover, a lock wait that timed out) is a
# temporary fault of the service, not of the request: 503 with Retry-After, never 500.
DATABASE_UNAVAILABLE = (OperationalError, InterfaceError)
DATABASE_RETRY_AFTER = 2


class ServiceError(Exception):
    """A domain error with a stable machine-readable ``code`` and an HTTP ``status``."""

    status: int = 400
    code: str = "bad_request"

    def __init__(
        self,
        detail: str,
        *,
        retry_after: int | None = None,
        errors: dict[str, list[str]] | None = None,
        **extra: Any,
    ) -> None:
        super().__init__(detail)
        self.detail = detail
        self.retry_after = retry_after
        self.errors = errors  # per field or place in the body, as validation errors give them
        self.extra = extra  # members of the problem document that only this error has


class IdempotencyKeyReused(ServiceError):
    status, code = 422, "idempotency_key_reused"


class InvalidHeader(ServiceError):
    status, code = 400, "invalid_header"


class LimitReached(ServiceError):
    """A fair-share limit of one user or address (docs/operations.md, "Fair shares"); the problem
    names the limit (its setting) and what it allows."""

    status, code = 409, "limit_reached"

    def __init__(self, detail: str, *, limit: str, allowed: int, retry_after: int | None = None):
        super().__init__(detail, retry_after=retry_after, limit=limit, allowed=allowed)


class TooManyStreams(LimitReached):
    status, code = 429, "too_many_streams"


# Errors of libraries that know nothing of HTTP (the rules engines), with the status and code the
# API answers them with; registered by the app that uses them (see games.errors).
_REGISTERED: dict[type[Exception], tuple[int, str]] = {}


def register_problem(error: type[Exception], status: int, code: str) -> None:
    """Answer ``error`` (and its subclasses) with ``status`` and ``code``; its message is the detail."""
    _REGISTERED[error] = (status, code)


def problem_classes() -> tuple[type[Exception], ...]:
    """Every error that is the caller's doing and has a problem document, for code that shows
    such errors some other way (the admin's forms): ``except problem_classes() as error``."""
    return (ServiceError, *_REGISTERED)


def said(error: Exception | str) -> str:
    """A library's error or sentence in the request's language: a refusal of the rules
    (``IllegalMove``) or a problem of a table's result (``switchgame.words.Sentence``) carries
    its message, marked for the catalogue, and its values apart."""
    template = getattr(error, "template", None)
    if template is None:
        # An error whose message is a Sentence (the tournament's clock, its seating).
        carried = error.args[0] if isinstance(error, Exception) and error.args else None
        return said(carried) if isinstance(carried, str) and carried is not error else str(error)
    values: dict[str, object] = getattr(error, "values", {})
    # A value that is itself a sentence (the reason within an option's refusal) is said too.
    return gettext(template).format(
        **{
            name: said(value) if isinstance(value, str) and hasattr(value, "template") else value
            for name, value in values.items()
        }
    )


def _registered(error: Exception) -> tuple[int, str] | None:
    return next((_REGISTERED[k] for k in type(error).__mro__ if k in _REGISTERED), None)


# The titles of the problems the service answers: HTTP's status phrases, which the catalogue
# translates (a phrase some Python versions spell otherwise is marked both ways).
STATUS_PHRASES = (
    gettext_noop("Bad Request"),
    gettext_noop("Unauthorized"),
    gettext_noop("Forbidden"),
    gettext_noop("Not Found"),
    gettext_noop("Method Not Allowed"),
    gettext_noop("Not Acceptable"),
    gettext_noop("Conflict"),
    gettext_noop("Gone"),
    gettext_noop("Request Entity Too Large"),
    gettext_noop("Content Too Large"),
    gettext_noop("Unsupported Media Type"),
    gettext_noop("Unprocessable Entity"),
    gettext_noop("Unprocessable Content"),
    gettext_noop("Too Many Requests"),
    gettext_noop("Internal Server Error"),
    gettext_noop("Service Unavailable"),
)


def problem_type(code: str) -> str:
    return f"urn:switch:problem:{code}"


def problem_body(status: int, code: str, detail: str, **extra: Any) -> dict[str, Any]:
    return {
        "type": problem_type(code),
        "title": gettext(HTTPStatus(status).phrase),
        "status": status,
        "detail": detail,
        "code": code,
        **extra,
    }


def _field_errors(detail: Any) -> dict[str, list[str]]:
    """DRF's validation errors as ``errors``: lists of messages keyed by field, or by place in the
    body (``scopes[2]``, ``bots[0].seat``) where DRF nests them (a list's items by index, a
    nested object's fields), ``non_field_errors`` for the body as a whole."""
    if not isinstance(detail, dict):
        return {"non_field_errors": _messages(detail)}
    flat: dict[str, list[str]] = {}
    for field, errors in detail.items():
        _flatten(str(field), errors, flat)
    return flat


def _flatten(at: str, errors: Any, flat: dict[str, list[str]]) -> None:
    if isinstance(errors, dict):
        for key, nested in errors.items():
            place = f"{at}[{key}]" if isinstance(key, int) else f"{at}.{key}"
            _flatten(place, nested, flat)
    elif isinstance(errors, list) and any(isinstance(e, dict | list) for e in errors):
        for index, nested in enumerate(errors):  # a list of objects' errors: one per item
            if nested:
                _flatten(f"{at}[{index}]", nested, flat)
    else:
        flat.setdefault(at, []).extend(_messages(errors))


def _messages(detail: Any) -> list[str]:
    return [_message(message) for message in (detail if isinstance(detail, list) else [detail])]


def _message(message: Any) -> str:
    """A message in the API's words: DRF says a value is "not a valid choice" by its Python
    ``str()`` (``"[None, None]"``, ``"True"``), so that message does not repeat the value."""
    if getattr(message, "code", None) == "invalid_choice":
        return gettext("Not one of the values this field takes.")
    return str(message)


def problem_response(
    status: int, code: str, detail: str, *, retry_after: int | None = None, **extra: Any
) -> Response:
    response = Response(
        problem_body(status, code, detail, **extra),
        status=status,
        content_type=PROBLEM_CONTENT_TYPE,
    )
    if retry_after is not None:
        response["Retry-After"] = str(retry_after)
    return response


def database_unavailable() -> Response:
    """503 while the database cannot be reached: nothing was applied, the client may retry."""
    return problem_response(
        503,
        "service_unavailable",
        gettext("The database is unavailable; nothing was changed. Try again shortly."),
        retry_after=DATABASE_RETRY_AFTER,
    )


def problem_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """DRF's ``EXCEPTION_HANDLER``: every error the API returns goes through here."""
    if isinstance(exc, ServiceError):
        # A library's sentences in ``errors`` (a table result's problems) are said in the
        # request's language too.
        errors = {
            where: [said(m) for m in messages] for where, messages in (exc.errors or {}).items()
        }
        extra: dict[str, Any] = {"errors": errors} if errors else {}
        extra.update(exc.extra)
        return problem_response(
            exc.status, exc.code, exc.detail, retry_after=exc.retry_after, **extra
        )
    if registered := _registered(exc):
        return problem_response(*registered, said(exc))

    if isinstance(exc, RequestDataTooBig):
        return problem_response(413, "payload_too_large", gettext("The request body is too large."))
    if isinstance(exc, DATABASE_UNAVAILABLE):
        outages.failed("PostgreSQL", "a request answered 503", exc)
        return database_unavailable()

    response = exception_handler(exc, context)  # maps Http404 and Django's PermissionDenied too
    if response is None:
        return None  # a genuine bug: let Django log it and answer 500
    # An endpoint may name its own code for invalid fields (the moves endpoint: invalid_action).
    malformed_code = getattr(context.get("view"), "malformed_input_code", None)
    if isinstance(exc, exceptions.ValidationError):
        return problem_response(
            response.status_code,
            malformed_code or "invalid",
            gettext("The request has invalid fields."),
            errors=_field_errors(exc.detail),
        )
    if isinstance(exc, exceptions.APIException):
        codes = exc.get_codes()
        code = codes if isinstance(codes, str) else exc.default_code
        if isinstance(exc, exceptions.ParseError):
            code = "invalid_json"
        retry_after = response.headers.get("Retry-After")
        problem = problem_response(
            response.status_code,
            code,
            str(exc.detail),
            retry_after=int(retry_after) if retry_after else None,
        )
        if "WWW-Authenticate" in response:  # a 401 names the scheme to use: Token
            problem["WWW-Authenticate"] = response["WWW-Authenticate"]
        return problem
    return response
