"""A dependency that does not answer — Redis, PostgreSQL — is logged once per interval, with a count.

At 40 requests a second, a 15 s Redis outage used to write a thousand full tracebacks: every request
that published a task or counted a rate limit logged its own. Now the first failure of a dependency
writes one line (no traceback: the error's type and message say what happened), further failures
are counted and summed up in one line every ``OUTAGE_LOG_SECONDS`` while they go on, and the first
success after them says how long it lasted and how many failures there were. The service's own
code logs such errors as any other (``logger.exception``), and the :class:`Collapse` filter on the
one handler of every process turns each line that carries one — the service's, Celery's worker
and beat's, Django's — into a count; code that sees the dependency answer again says so
(:meth:`Outages.answered`).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass

from django.conf import settings

logger = logging.getLogger("switch.outages")


def dependency_of(error: BaseException) -> str | None:
    """Which dependency ``error`` says is unreachable, or None for any other error (a bug, which
    keeps its traceback)."""
    from django.db import InterfaceError, OperationalError
    from kombu.exceptions import OperationalError as BrokerError
    from redis.exceptions import ConnectionError as RedisConnectionError
    from redis.exceptions import TimeoutError as RedisTimeoutError

    for cause in _chain(error):
        if isinstance(cause, RedisConnectionError | RedisTimeoutError | BrokerError):
            return "Redis"
        if isinstance(cause, OperationalError | InterfaceError):
            return "PostgreSQL"
        if type(cause).__module__.startswith("psycopg") and type(cause).__name__ in (
            "OperationalError",
            "InterfaceError",
        ):
            return "PostgreSQL"
    return None


def _chain(error: BaseException) -> Iterator[BaseException]:
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        yield current
        current = current.__cause__ or current.__context__


@dataclass
class _Outage:
    began: float
    logged: float
    failures: int = 0  # since the last line


class Outages:
    """The dependencies that failed and have not answered since, each with its count."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._down: dict[str, _Outage] = {}

    def failed(self, dependency: str, doing: str, error: BaseException) -> None:
        now = time.monotonic()
        with self._lock:
            outage = self._down.get(dependency)
            if outage is None:
                self._down[dependency] = _Outage(began=now, logged=now)
                first = True
            else:
                outage.failures += 1
                if now - outage.logged < settings.OUTAGE_LOG_SECONDS:
                    return
                first, failures, since = False, outage.failures, now - outage.logged
                outage.failures, outage.logged = 0, now
        what = f"{type(error).__name__}: {error}".strip()
        if first:
            logger.error(
                "%s does not answer (%s): %s; further failures are counted, one line every %g s",
                dependency,
                doing,
                what,
                settings.OUTAGE_LOG_SECONDS,
                extra={"dependency": dependency, "failures": 1},
            )
        else:
            logger.error(
                "%s still does not answer: %d failures in the last %.0f s (last: %s; %s)",
                dependency,
                failures,
                since,
                doing,
                what,
                extra={"dependency": dependency, "failures": failures},
            )

    def answered(self, dependency: str) -> None:
        """``dependency`` answered: if it was out, say so once, with what was not yet counted."""
        if dependency not in self._down:  # the usual case, without the lock
            return
        with self._lock:
            outage = self._down.pop(dependency, None)
        if outage is not None:
            logger.warning(
                "%s answers again after %.0f s (%d failures since the last line)",
                dependency,
                time.monotonic() - outage.began,
                outage.failures,
                extra={"dependency": dependency, "failures": outage.failures},
            )


outages = Outages()


class Collapse(logging.Filter):
    """A log line that carries an error of a dependency that does not answer (any logger's: Celery,
    Django, the service's) is counted as an outage instead of written with its traceback."""

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        if error is None or record.name == logger.name:
            return True
        dependency = dependency_of(error)
        if dependency is None:
            return True
        outages.failed(dependency, record.getMessage().splitlines()[0][:200], error)
        return False
