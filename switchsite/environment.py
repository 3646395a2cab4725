"""Settings read from the environment, each checked as it is read.

A process started with a bad value — empty where a value is needed, a malformed URL, a word where a
number belongs, a number out of range — must not start, and must say why in words an operator can
act on: one line per bad variable, naming it, never a traceback. So the reader notes each problem
and keeps a valid stand-in value (the setting's default) so that the settings module can go on to
the end and name *every* bad variable at once; :meth:`Environment.check` then stops the process
with those lines (``SystemExit``: Python prints its message alone, whichever program imported the
settings — ``manage.py``, uvicorn, Celery).

URLs are parsed by django-environ (as the settings always did); what it accepts silently — an empty
URL, an unknown scheme, a database URL without a database — is refused here.
"""

from __future__ import annotations

import ipaddress
import os
import re
from collections.abc import Collection, Mapping
from typing import Any
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import environ

TRUE_WORDS = frozenset({"true", "yes", "on", "1"})
FALSE_WORDS = frozenset({"false", "no", "off", "0"})
DATABASE_SCHEMES = {"postgres", "postgresql", "pgsql", "sqlite"}
BROKER_SCHEMES = {"redis", "rediss", "amqp", "amqps", "pyamqp"}
CACHE_SCHEMES = {"redis", "rediss", "locmemcache", "dummycache"}
RATE = re.compile(r"^[0-9]+/(s|sec|second|m|min|minute|h|hour|d|day)$")
DATABASE_EXAMPLE = "postgres://user:password@host:5432/switch"
HOST_NAME = re.compile(
    r"(?=.{1,253}$)[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*"
)


class Environment:
    """Reads typed settings from ``environ`` (the process's environment by default) and collects
    a one-line problem for each bad value."""

    def __init__(self, environ: Mapping[str, str] | None = None) -> None:
        self.environ = os.environ if environ is None else environ
        self.problems: list[str] = []

    def problem(self, name: str, message: str) -> None:
        self.problems.append(f"Invalid setting {name}: {message}")

    def check(self) -> None:
        """Stop the process if any setting was bad, naming each on a line of its own."""
        if self.problems:
            raise SystemExit("\n".join(self.problems))

    def is_set(self, name: str) -> bool:
        return name in self.environ

    def _raw(self, name: str) -> str | None:
        value = self.environ.get(name)
        return None if value is None else value.strip()

    def _given(self, name: str, what: str) -> str | None:
        """The variable's value, or None if unset; empty counts as a problem (and as unset)."""
        value = self._raw(name)
        if value == "":
            self.problem(name, f"it is empty; give {what}, or leave it unset for the default")
            return None
        return value

    def text(self, name: str, default: str) -> str:
        """Any text; empty is allowed (where empty has a meaning, such as "no broker")."""
        value = self._raw(name)
        return default if value is None else value

    def flag(self, name: str, default: bool) -> bool:
        value = self._given(name, "true or false")
        if value is None:
            return default
        if value.lower() in TRUE_WORDS:
            return True
        if value.lower() in FALSE_WORDS:
            return False
        self.problem(name, f"{value!r} is neither true nor false (true/false, yes/no, on/off, 1/0)")
        return default

    def integer(
        self, name: str, default: int, *, minimum: int | None = None, maximum: int | None = None
    ) -> int:
        value = self._given(name, "a whole number")
        if value is None:
            return default
        try:
            number = int(value)
        except ValueError:
            self.problem(name, f"{value!r} is not a whole number")
            return default
        if minimum is not None and number < minimum:
            self.problem(name, f"{number} is less than {minimum}")
            return default
        if maximum is not None and number > maximum:
            self.problem(name, f"{number} is more than {maximum}")
            return default
        return number

    def host(self, name: str, default: str) -> str:
        """An address to listen on: an IP address or a host name (not looked up here)."""
        value = self._given(name, "an IP address or host name, such as 0.0.0.0")
        if value is None:
            return default
        try:
            ipaddress.ip_address(value.strip("[]"))
        except ValueError:
            if not HOST_NAME.fullmatch(value):
                self.problem(name, f"{value!r} is neither an IP address nor a host name")
                return default
        return value

    def number(
        self,
        name: str,
        default: float,
        *,
        above: float | None = None,
        at_most: float | None = None,
    ) -> float:
        value = self._given(name, "a number")
        if value is None:
            return default
        try:
            number = float(value)
        except ValueError:
            self.problem(name, f"{value!r} is not a number")
            return default
        if number != number or number in (float("inf"), float("-inf")):
            self.problem(name, f"{value!r} is not a finite number")
            return default
        if above is not None and number <= above:
            self.problem(name, f"{value} must be more than {above:g}")
            return default
        if at_most is not None and number > at_most:
            self.problem(name, f"{value} is more than {at_most:g}")
            return default
        return number

    def names(self, name: str, default: list[str]) -> list[str]:
        """A comma-separated list of at least one name."""
        value = self._given(name, "a comma-separated list")
        if value is None:
            return default
        items = [item.strip() for item in value.split(",")]
        if not all(items):
            self.problem(name, f"{value!r} has an empty item")
            return default
        return items

    def choice(self, name: str, default: str, choices: Collection[str]) -> str:
        """One of ``choices``, in any case (``warning`` for ``WARNING``)."""
        value = self._given(name, "one of " + ", ".join(choices))
        if value is None:
            return default
        chosen = next((c for c in choices if c.lower() == value.lower()), None)
        if chosen is None:
            self.problem(name, f"{value!r} is not one of " + ", ".join(choices))
            return default
        return chosen

    def time_zone(self, name: str, default: str) -> str:
        """An IANA time zone name, as ``Europe/Paris``."""
        value = self._given(name, "a time zone such as Europe/Paris")
        if value is None:
            return default
        try:
            ZoneInfo(value)
        except (ZoneInfoNotFoundError, ValueError):
            self.problem(name, f"{value!r} is not a time zone such as Europe/Paris")
            return default
        return value

    def rate(self, name: str, default: str) -> str:
        """A throttle rate: requests per period, as ``60/minute``."""
        value = self._given(name, "a rate such as 60/minute")
        if value is None:
            return default
        if not RATE.match(value):
            self.problem(
                name, f"{value!r} is not a rate such as 60/minute (second, minute, hour, day)"
            )
            return default
        return value

    def database(self, name: str, default: str) -> dict[str, Any]:
        """A database URL (PostgreSQL or SQLite), as Django's ``DATABASES`` entry."""
        value = self._given(name, f"a database URL such as {DATABASE_EXAMPLE}")
        url = default if value is None else value
        problem = _url_problem(url, DATABASE_SCHEMES)
        if problem is None:
            try:
                config: dict[str, Any] = environ.Env.db_url_config(url)
            except (ValueError, KeyError) as error:
                problem = str(error)
            else:
                age = config.get("CONN_MAX_AGE", 0)
                if config["ENGINE"] != "django.db.backends.sqlite3" and not config["NAME"]:
                    problem = "it names no database (…/<database name> at its end)"
                elif age is not None and not (isinstance(age, int) and age >= 0):
                    problem = f"conn_max_age={age!r} is not a whole number of seconds"
        if problem is None:
            return config
        self.problem(
            name, f"{_redacted(url)}: {problem}; expected a URL such as {DATABASE_EXAMPLE}"
        )
        return dict(environ.Env.db_url_config(default))

    def broker_url(self, name: str) -> str:
        """A broker URL (Redis or AMQP), or empty: no broker."""
        value = self.text(name, "")
        if value:
            problem = _url_problem(value, BROKER_SCHEMES)
            if problem is not None:
                self.problem(
                    name,
                    f"{_redacted(value)}: {problem}; expected a URL such as redis://host:6379/0, "
                    "or empty for tasks in-process",
                )
                return ""
        return value

    def cache(self, name: str, default: str) -> dict[str, Any]:
        """A cache URL (``redis://…``, ``locmemcache://``), as Django's ``CACHES`` entry."""
        value = self._given(name, "a cache URL such as redis://host:6379/1")
        url = default if value is None else value
        problem = _url_problem(url, CACHE_SCHEMES)
        if problem is None:
            try:
                return dict(environ.Env.cache_url_config(url))
            except Exception as error:  # django-environ raises ImproperlyConfigured or ValueError
                problem = str(error)
        self.problem(
            name, f"{_redacted(url)}: {problem}; expected a URL such as redis://host:6379/1"
        )
        return dict(environ.Env.cache_url_config(default))


def _url_problem(url: str, schemes: Collection[str]) -> str | None:
    """Why ``url`` is not a URL of one of ``schemes`` (None if it is)."""
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018  # raises ValueError for a port that is not a number
    except ValueError as error:
        return f"malformed URL ({error})"
    if not parts.scheme or "://" not in url:
        return "not a URL"
    if parts.scheme not in schemes:
        return f"unsupported scheme {parts.scheme!r} (use {', '.join(sorted(schemes))})"
    return None


def _redacted(url: str) -> str:
    """The URL as it may be printed: without its password."""
    try:
        parts = urlsplit(url)
        if parts.password:
            return url.replace(f":{parts.password}@", ":***@", 1)
    except ValueError:
        pass
    return url if url else repr(url)
