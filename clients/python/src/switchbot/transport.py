"""HTTP to the service that outlasts its bad moments: a restart, a database fail-over, a proxy's
error page, a rate limit. What is safe to try again is tried again, after a growing pause that
never undercuts the server's ``Retry-After``; what is not is raised as an ``ApiError`` that carries
the problem document, whatever the body was."""

from __future__ import annotations

import email.utils
import logging
import random
import time
import uuid
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import httpx

log = logging.getLogger("switchbot")

API_PATH = "/api/v1"
# Answers that mean "nothing was done, try again later": a rate limit, the database unreachable,
# a proxy in front of a server that is restarting.
TRANSIENT_STATUSES = frozenset({429, 502, 503, 504})
# A 409 whose code says the same (the match changed under the request too often).
TRANSIENT_CODES = frozenset({"match_busy"})
TIMEOUT = httpx.Timeout(30.0, connect=10.0)


class ApiError(Exception):
    """A refusal or a failure of the service, as its problem document says it (RFC 9457); an answer
    that is not one (a proxy's HTML page, an empty body) is named ``http_<status>``."""

    def __init__(self, status: int, problem: Mapping[str, Any], retry_after: float | None) -> None:
        self.status = status
        self.problem = dict(problem)
        self.code = str(problem.get("code") or f"http_{status}")
        self.detail = str(problem.get("detail") or "")
        self.retry_after = retry_after
        super().__init__(f"{status} {self.code}: {self.detail}".rstrip(": "))

    @property
    def transient(self) -> bool:
        """Whether the same request may succeed later: nothing was applied."""
        return self.status in TRANSIENT_STATUSES or self.code in TRANSIENT_CODES

    @classmethod
    def of(cls, response: httpx.Response) -> ApiError:
        return cls(response.status_code, problem_of(response), retry_after_of(response))


class Unreachable(Exception):
    """The server could not be reached, or the connection broke before an answer: a write may or
    may not have been applied (its ``Idempotency-Key`` makes trying it again safe)."""

    retry_after: float | None = None


def problem_of(response: httpx.Response) -> dict[str, Any]:
    """The problem document of an error answer, or one made up from whatever the body is."""
    try:
        body = response.json()
    except ValueError:
        body = None
    if isinstance(body, dict):
        return body
    text = " ".join(response.text.split())[:200]
    return {"status": response.status_code, "detail": text or response.reason_phrase}


def retry_after_of(response: httpx.Response) -> float | None:
    """``Retry-After`` in seconds, given as seconds or as an HTTP date; None if absent or unreadable."""
    value = response.headers.get("Retry-After", "").strip()
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when: datetime = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


@dataclass
class Backoff:
    """Pauses between tries: doubling from ``first`` up to ``most`` seconds, each drawn at random
    below its bound (so that bots cut off together do not come back together), and never shorter
    than the server's ``Retry-After``."""

    first: float = 0.5
    most: float = 10.0
    rng: random.Random = field(default_factory=random.Random)

    def delay(self, attempt: int, retry_after: float | None = None) -> float:
        bound = min(self.most, self.first * 2 ** max(0, attempt - 1))
        pause = self.rng.uniform(bound / 2, bound)
        return max(pause, retry_after or 0.0)


def new_key() -> str:
    """A fresh ``Idempotency-Key``: one per intended write, sent again with each retry of it."""
    return str(uuid.uuid4())


class Transport:
    """Requests to ``{server}/api/v1`` with the bot's token, JSON in and out.

    ``sleep`` is how it waits between tries (tests pass one that does not)."""

    def __init__(
        self,
        server: str,
        token: str = "",
        *,
        http: httpx.Client | None = None,
        backoff: Backoff | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.base = server.rstrip("/") + API_PATH
        self.token = token
        self.http = http or httpx.Client(timeout=TIMEOUT)
        self.backoff = backoff or Backoff()
        self.sleep = sleep

    def headers(self, key: str | None = None, **extra: str) -> dict[str, str]:
        headers = {"Accept": "application/json", **extra}
        if self.token:
            headers["Authorization"] = f"Token {self.token}"
        if key:
            headers["Idempotency-Key"] = key
        return headers

    def request(
        self,
        method: str,
        path: str,
        *,
        body: Any = None,
        params: Mapping[str, str | int] | None = None,
        key: str | None = None,
        retry: bool = True,
    ) -> Any:
        """The decoded answer of a request (None for an empty one).

        With ``retry`` a transient failure is tried again — with the same ``key`` for a write —
        until the server answers otherwise; without it, it is raised (``ApiError`` or
        ``Unreachable``) for the caller to decide."""
        attempt = 0
        while True:
            try:
                return self.once(method, path, body=body, params=params, key=key)
            except (ApiError, Unreachable) as failure:
                if not retry or (isinstance(failure, ApiError) and not failure.transient):
                    raise
                attempt += 1
                self.pause(attempt, failure, f"{method} {path}")

    def once(
        self,
        method: str,
        path: str,
        *,
        body: Any = None,
        params: Mapping[str, str | int] | None = None,
        key: str | None = None,
    ) -> Any:
        try:
            response = self.http.request(
                method, self.base + path, json=body, params=params, headers=self.headers(key)
            )
        except httpx.TransportError as error:
            raise Unreachable(f"{method} {path}: {error or type(error).__name__}") from error
        if not response.is_success:
            raise ApiError.of(response)
        if not response.content:
            return None
        try:
            return response.json()
        except ValueError as error:  # a 2xx that is not JSON: a proxy or a wrong address
            raise ApiError(response.status_code, problem_of(response), None) from error

    def pause(self, attempt: int, failure: Exception, what: str) -> None:
        """Wait before trying ``what`` again, saying why."""
        delay = self.backoff.delay(attempt, getattr(failure, "retry_after", None))
        log.warning("%s: %s; trying again in %.1f s", what, failure, delay)
        self.sleep(delay)

    @contextmanager
    def stream(
        self, path: str, *, params: Mapping[str, str], last_event_id: int
    ) -> Iterator[httpx.Response]:
        """An open ``text/event-stream`` answer (raises as ``once`` does before it starts)."""
        headers = self.headers(Accept="text/event-stream", **{"Last-Event-ID": str(last_event_id)})
        # Comments keep an idle stream alive every 25 s at most: a read that waits longer than
        # that is a connection gone quiet, to be opened again.
        timeout = httpx.Timeout(30.0, connect=10.0, read=60.0)
        try:
            with self.http.stream(
                "GET", self.base + path, params=params, headers=headers, timeout=timeout
            ) as response:
                if not response.is_success:
                    response.read()
                    raise ApiError.of(response)
                yield response
        except httpx.TransportError as error:
            raise Unreachable(f"GET {path}: {error or type(error).__name__}") from error
