"""the API guide "Rate limits": every answer carries RateLimit-Limit, -Remaining and -Reset for the
caller's tightest limit, counted in the same cache as the throttles; 429 keeps Retry-After."""

import pytest
from rest_framework.test import APIClient

from switchsite.api import throttling
from tests.api.conftest import PASSWORD, assert_problem

pytestmark = pytest.mark.django_db


def quota(response) -> tuple[int, int, int]:
    return (
        int(response["RateLimit-Limit"]),
        int(response["RateLimit-Remaining"]),
        int(response["RateLimit-Reset"]),
    )


@pytest.fixture
def user_rate(monkeypatch):
    """A small per-player limit (the test settings' is huge), as the throttles read it."""
    rates = {**throttling.UserRateThrottle.THROTTLE_RATES, "user": "5/minute"}
    monkeypatch.setattr(throttling.UserRateThrottle, "THROTTLE_RATES", rates)


def test_each_answer_counts_down_the_players_limit(alice, user_rate):
    answers = [alice.get("/api/v1/players/me/") for _ in range(3)]

    assert [quota(r)[:2] for r in answers] == [(5, 4), (5, 3), (5, 2)]
    assert all(0 < quota(r)[2] <= 60 for r in answers)


def test_a_refusal_counts_and_says_so_too(alice, user_rate):
    alice.get("/api/v1/players/me/")

    refused = alice.get("/api/v1/matches/999/")

    assert refused.status_code == 404
    assert quota(refused)[:2] == (5, 3)


def test_past_the_limit_429_carries_retry_after_and_nothing_remaining(alice, user_rate):
    for _ in range(5):
        assert alice.get("/api/v1/players/me/").status_code == 200

    response = alice.get("/api/v1/players/me/")

    assert_problem(response, 429, "throttled")
    limit, remaining, reset = quota(response)
    assert (limit, remaining) == (5, 0)
    assert 0 < int(response["Retry-After"]) <= 60
    assert abs(reset - int(response["Retry-After"])) <= 1


def test_the_tightest_limit_is_the_one_answered():
    """Registration: 20 a minute per address (and 60 for anonymous callers) — the 20 is shown."""
    client = APIClient()

    first = client.post(
        "/api/v1/players/", {"username": "dora", "password": PASSWORD}, format="json"
    )

    assert first.status_code == 201
    assert quota(first)[:2] == (20, 19)
    after = client.get("/api/v1/schema/")  # anonymous, not registration: the 60 a minute
    assert quota(after)[:2] == (60, 58)


def test_answers_given_before_the_throttles_show_the_address_quota_without_counting():
    client = APIClient()

    unknown = client.get("/api/v1/no-such-thing/")
    unauthenticated = client.get("/api/v1/players/me/")

    assert unknown.status_code == 404
    assert unauthenticated.status_code == 401
    assert quota(unknown)[:2] == quota(unauthenticated)[:2] == (60, 60)


def test_pages_outside_the_api_carry_no_quota(client):
    assert "RateLimit-Limit" not in client.get("/play/")
