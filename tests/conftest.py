"""Fixtures shared by every layer of the suite."""

import os
import signal
import uuid
from collections.abc import Iterator
from pathlib import Path
from types import FrameType

import pytest
from celery.contrib.testing.worker import start_worker
from django.conf import settings
from django.contrib.auth.models import Permission, User
from django.core.cache import cache
from rest_framework.test import APIClient

# Registers the Hypothesis profiles before Hypothesis's plugin loads the one asked for.
import tests.hypothesis_profiles  # noqa: F401
from games import selectors
from games.models import Match
from games.powers import Power as GamePower
from switchsite.celery import app as celery_app
from switchsite.serving import streamcaps
from tests import openapi

IN_CI = os.environ.get("CI") == "true"

# Markers a test gets from what it uses (pyproject.toml describes them), so that a new test is
# marked as the ones beside it are: ``make test-fast`` leaves these out. Every test of
# tests/faults/ is a fault test.
MARKERS_BY_FIXTURE = {
    "browser": "browser",  # headless Chromium
    "start_server": "serving",  # the service in processes of its own, on the test database
    "service": "serving",  # the service in a process of its own, on a database of its own
}
FAULTS = Path(__file__).parent / "faults"


def _interrupted(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt(f"signal {signum}")


def pytest_configure() -> None:
    """A suite stopped by SIGTERM (a CI time limit, ``kill``) ends as after Ctrl-C: the fixtures'
    teardowns run, so the servers and workers the tests started in process groups of their own
    stop too, instead of holding ports and the test database's connections."""
    signal.signal(signal.SIGTERM, _interrupted)


@pytest.hookimpl(tryfirst=True)  # before ``-m`` selects by them
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        for fixture, marker in MARKERS_BY_FIXTURE.items():
            if fixture in getattr(item, "fixturenames", ()):
                item.add_marker(marker)
        if FAULTS in item.path.parents:
            item.add_marker("fault")


@pytest.fixture(autouse=True)
def fresh_cache() -> Iterator[None]:
    """Throttling counts live in the cache: each test starts with none, in a namespace of its own
    (clearing a Redis cache would flush the database the broker's queues live in)."""
    prefix = cache.key_prefix
    cache.key_prefix = f"test-{uuid.uuid4().hex}"
    yield
    cache.key_prefix = prefix


@pytest.fixture(autouse=True)
def no_streams_open() -> None:
    """Each test starts with no stream counted against its holders' caps: the test client leaves
    the streams it was answered unclosed (switchsite.serving.streamcaps)."""
    streamcaps.open_streams = streamcaps.OpenStreams()


@pytest.fixture(autouse=True, scope="session")
def responses_match_the_schema() -> Iterator[None]:
    """Every answer an API client of the tests gets must be one the published schema describes
    (tests/openapi.py): drift between the code and the schema fails the test that saw it."""
    request = APIClient.request

    def checked(self: APIClient, **kwargs: object):
        response = request(self, **kwargs)
        openapi.check_response(str(kwargs["REQUEST_METHOD"]), str(kwargs["PATH_INFO"]), response)
        return response

    APIClient.request = checked  # type: ignore[method-assign]
    yield
    APIClient.request = request  # type: ignore[method-assign]


@pytest.fixture
def celery_worker() -> Iterator[None]:
    """A real Celery worker (in a thread) consuming from the configured broker.

    Without a broker the test is skipped on a developer's machine, and fails in CI, where the broker
    path must be exercised on every run.
    """
    if not settings.CELERY_BROKER_URL:
        if IN_CI:
            pytest.fail("CI=true but CELERY_BROKER_URL is not set: the broker path is untested")
        pytest.skip("no broker configured (set CELERY_BROKER_URL to run worker tests)")
    with start_worker(celery_app, pool="solo", perform_ping_check=False, shutdown_timeout=10):
        yield


@pytest.fixture
def tasks_in_process(settings) -> None:
    """Run the tasks a test enqueues in-process even when a broker is configured (CI), for tests
    that check what a task does rather than how it travels (the bot tournament covers that).
    Celery reads its configuration from Django's settings as they are now."""
    settings.CELERY_TASK_ALWAYS_EAGER = True


def seat_to_move(match_id: int) -> int:
    """The seat whose turn it is in an active match, as the match's stored state says."""
    to_move = selectors.match_load(match_id=match_id).game.to_move
    assert to_move is not None, f"nobody is to move in match {match_id}"
    return to_move


def seat_zero_to_move_or_over(match_id: int) -> bool:
    """Whether the bots have answered in a match where seat 0 is the only person: it is seat 0's
    turn again, or the match has ended."""
    match = Match.objects.get(pk=match_id)
    return match.status != Match.Status.ACTIVE or seat_to_move(match_id) == 0


def with_game_powers(user: User) -> User:
    """``user`` may fix a match's layout and start anyone's match (games.powers): what the tests'
    laid-out deals need, which being staff does not give."""
    user.user_permissions.add(
        *Permission.objects.filter(
            content_type__app_label="games", codename__in=[power.codename for power in GamePower]
        )
    )
    return user
