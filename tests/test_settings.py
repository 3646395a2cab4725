"""Settings from the environment (docs/operations.md, "Settings"): a bad value stops every program
with one line naming the variable, never a traceback; the production defaults pass Django's
deployment checks; the plain-HTTP switches turn off what they say."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks.shape import PLAIN_HTTP
from switchsite.environment import Environment

PROJECT_ROOT = Path(__file__).resolve().parent.parent
A_GOOD_SECRET = "k3y-" + "x7Qp9" * 12  # long and varied enough for check --deploy


def manage(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    """``manage.py`` in a process of its own, with only ``env`` set (and what Python needs)."""
    base = {name: os.environ[name] for name in ("PATH", "HOME", "LANG") if name in os.environ}
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=PROJECT_ROOT,
        env={**base, "DJANGO_SETTINGS_MODULE": "switchsite.settings", **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_an_empty_database_url_is_one_line_naming_it():
    checked = manage("check", DATABASE_URL="", DEBUG="true")
    assert checked.returncode != 0
    assert "Traceback" not in checked.stderr
    assert checked.stderr.strip().splitlines() == [
        "Invalid setting DATABASE_URL: it is empty; give a database URL such as "
        "postgres://user:password@host:5432/switch, or leave it unset for the default"
    ]


BAD = {
    "DEBUG": "maybe",
    "DATABASE_URL": "postgres://switch:hunter2@db:five/switch",
    "DATABASE_LOCK_TIMEOUT": "soon",
    "CELERY_BROKER_URL": "redis//no-scheme",
    "CACHE_URL": "memcached-please",
    "THROTTLE_USER_RATE": "lots",
    "SSE_MAX_SECONDS": "-5",
    "EVENT_READ_THREADS": "four",
    "SWEEP_STALL_SECONDS": "",
    "ALLOWED_HOSTS": "a.example,,b.example",
    "SECURE_HSTS_SECONDS": "1.5",
    "LOG_LEVEL": "loud",
    "TRUSTED_PROXIES": "-1",
    "LANGUAGE_CODE": "klingon",
}


def test_every_bad_variable_is_named_on_a_line_of_its_own():
    checked = manage("check", SECRET_KEY=A_GOOD_SECRET, **BAD)
    assert checked.returncode != 0
    assert "Traceback" not in checked.stderr
    lines = checked.stderr.strip().splitlines()
    named = [line.removeprefix("Invalid setting ").split(":", 1)[0] for line in lines]
    assert sorted(named) == sorted(BAD), checked.stderr
    assert "hunter2" not in checked.stderr, "a password is never printed"


def test_the_production_defaults_pass_the_deployment_checks():
    checked = manage("check", "--deploy", SECRET_KEY=A_GOOD_SECRET, ALLOWED_HOSTS="switch.example")
    assert checked.returncode == 0, checked.stderr
    assert "System check identified no issues" in checked.stdout, checked.stdout
    assert not checked.stderr


def test_the_plain_http_switches_turn_off_what_they_name():
    checked = manage("check", "--deploy", SECRET_KEY=A_GOOD_SECRET, **PLAIN_HTTP)
    reported = {
        code for code in ("W004", "W008", "W012", "W016") if f"security.{code}" in checked.stderr
    }
    # HSTS, the redirect to HTTPS, the session cookie and the CSRF cookie: each is off, and said.
    assert reported == {"W004", "W008", "W012", "W016"}, checked.stderr


# --- the reader itself, without a process -------------------------------------------------------


@pytest.mark.parametrize(
    ("read", "value", "problem"),
    [
        (lambda e: e.integer("N", 1, minimum=0), "", "N: it is empty"),
        (lambda e: e.integer("N", 1, minimum=0), "2.5", "N: '2.5' is not a whole number"),
        (lambda e: e.integer("N", 1, minimum=0), "-1", "N: -1 is less than 0"),
        (lambda e: e.number("N", 1.0, above=0), "nan", "N: 'nan' is not a finite number"),
        (lambda e: e.number("N", 1.0, above=0), "0", "N: 0 must be more than 0"),
        (lambda e: e.number("N", 1.0, at_most=25), "25.5", "N: 25.5 is more than 25"),
        (lambda e: e.flag("N", False), "ture", "N: 'ture' is neither true nor false"),
        (lambda e: e.database("N", "sqlite:///x"), "postgres:/db", "N: postgres:/db: not a URL"),
        (lambda e: e.database("N", "sqlite:///x"), "mysql://h/db", "unsupported scheme 'mysql'"),
        (lambda e: e.broker_url("N"), "redis://h:port/0", "N: redis://h:port/0: malformed URL"),
        (lambda e: e.rate("N", "1/minute"), "5 per minute", "N: '5 per minute' is not a rate"),
        (lambda e: e.names("N", ["a"]), "a,", "N: 'a,' has an empty item"),
        (lambda e: e.time_zone("N", "UTC"), "Mars/Olympus", "N: 'Mars/Olympus' is not a time zone"),
    ],
)
def test_a_bad_value_is_a_problem_and_the_default_stands_in(read, value, problem):
    environment = Environment({"N": value})
    default = read(Environment({}))
    assert read(environment) == default
    assert len(environment.problems) == 1
    assert problem in environment.problems[0]
    with pytest.raises(SystemExit, match=problem.split(":")[0]):
        environment.check()


@pytest.mark.parametrize(
    ("read", "value", "expected"),
    [
        (lambda e: e.integer("N", 1, minimum=0), " 7 ", 7),
        (lambda e: e.number("N", 1.0, above=0), "0.25", 0.25),
        (lambda e: e.number("N", 1.0, at_most=25), "25", 25.0),
        (lambda e: e.flag("N", False), "Yes", True),
        (lambda e: e.flag("N", True), "off", False),
        (lambda e: e.choice("N", "INFO", ("INFO", "WARNING")), "warning", "WARNING"),
        (lambda e: e.broker_url("N"), "", ""),
        (lambda e: e.names("N", []), "a.example, b.example", ["a.example", "b.example"]),
        (lambda e: e.database("N", "sqlite:///x")["NAME"], "postgres://u@h:5432/switch", "switch"),
        (
            lambda e: e.database("N", "sqlite:///x")["CONN_MAX_AGE"],
            "postgres://h/s?conn_max_age=9",
            9,
        ),
    ],
)
def test_a_good_value_is_read(read, value, expected):
    environment = Environment({"N": value})
    assert read(environment) == expected
    assert environment.problems == []
    environment.check()


# --- behind the TLS proxy -----------------------------------------------------------------------


@pytest.fixture
def behind_a_tls_proxy(settings):
    """The production defaults (the suite runs as a plain-HTTP install)."""
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    settings.SECURE_SSL_REDIRECT = True
    settings.SECURE_HSTS_SECONDS = 31536000
    settings.SESSION_COOKIE_SECURE = settings.CSRF_COOKIE_SECURE = True


@pytest.mark.django_db
@pytest.mark.usefixtures("behind_a_tls_proxy")
def test_plain_http_is_sent_to_https_and_the_proxys_https_is_trusted(client):
    plain = client.get("/api/v1/rulesets/")
    assert plain.status_code == 301
    assert plain["Location"] == "https://testserver/api/v1/rulesets/"

    secure = client.get("/api/v1/rulesets/", HTTP_X_FORWARDED_PROTO="https")
    assert secure.status_code == 401  # served (and asks for a token)
    assert secure["Strict-Transport-Security"] == "max-age=31536000; includeSubDomains"


@pytest.mark.django_db
@pytest.mark.usefixtures("behind_a_tls_proxy")
def test_the_load_balancers_health_check_is_answered_over_plain_http(client):
    assert client.get("/healthz").status_code == 200


def test_transaction_pooling_without_a_direct_listen_url_is_one_line_naming_it():
    checked = manage("check", DEBUG="true", DATABASE_TRANSACTION_POOLING="true")
    assert checked.returncode != 0
    assert "Traceback" not in checked.stderr
    (line,) = checked.stderr.strip().splitlines()
    assert line.startswith("Invalid setting DATABASE_LISTEN_URL: it is required with")


def test_the_clubs_time_zone_is_read_from_the_environment():
    assert (
        Environment({"TIME_ZONE": "Europe/Paris"}).time_zone("TIME_ZONE", "UTC") == "Europe/Paris"
    )
    assert Environment({}).time_zone("TIME_ZONE", "UTC") == "UTC"
