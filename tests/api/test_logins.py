"""Logins that resist guessing (``switchsite.logins``, django-axes): after LOGIN_FAILURE_LIMIT
failures for one account, or from one address, within LOGIN_LOCKOUT_MINUTES, the API's token
endpoint and the admin refuse that account and that address — the right password too — with 429
and Retry-After, until the cool-off after the last failure has passed."""

from __future__ import annotations

from datetime import timedelta

import pytest
from axes.models import AccessAttempt
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from games import services
from tests.api.conftest import PASSWORD, assert_problem

pytestmark = pytest.mark.django_db

ATTACKER, ELSEWHERE = "198.51.100.66", "192.0.2.10"


def token(username: str, password: str, address: str):
    return APIClient().post(
        "/api/v1/auth/token/",
        {"username": username, "password": password},
        format="json",
        REMOTE_ADDR=address,
    )


def guess_until_locked(settings, username: str, address: str) -> None:
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        assert_problem(token(username, "not-the-password", address), 400, "invalid_credentials")
    assert_problem(token(username, "not-the-password", address), 429, "throttled")


@pytest.fixture
def dora(db):
    services.player_register(username="dora", password=PASSWORD)
    services.player_register(username="eve", password=PASSWORD)


@pytest.mark.parametrize(
    ("locked", "then"),
    [
        ("the account", ("dora", ELSEWHERE)),  # the same account from anywhere
        ("the address", ("eve", ATTACKER)),  # any account from the same address
    ],
)
def test_guessing_locks_the_account_and_the_address_even_for_the_right_password(
    settings, dora, locked, then
):
    guess_until_locked(settings, "dora", ATTACKER)

    username, address = then
    refused = token(username, PASSWORD, address)

    body = assert_problem(refused, 429, "throttled")
    cool_off = settings.AXES_COOLOFF_TIME.total_seconds()
    assert cool_off - 5 <= int(refused["Retry-After"]) <= cool_off
    assert "Too many failed logins" in body["detail"]
    assert token("eve", PASSWORD, ELSEWHERE).status_code == 200  # another account, elsewhere


def test_the_lockout_ends_when_retry_after_said(settings, dora):
    guess_until_locked(settings, "dora", ATTACKER)
    (counted,) = AccessAttempt.objects.all()

    assert token("dora", "another-guess", ATTACKER).status_code == 429
    # A failure while locked out is not counted: the lockout does not move.
    assert AccessAttempt.objects.get().attempt_time == counted.attempt_time
    counted.attempt_time -= settings.AXES_COOLOFF_TIME + timedelta(seconds=1)
    counted.save()

    assert token("dora", PASSWORD, ATTACKER).status_code == 200


def test_the_admin_login_locks_out_guessing_with_a_page_that_says_when(settings, client):
    get_user_model().objects.create_superuser("root", "root@example.invalid", PASSWORD)
    wrong = {"username": "root", "password": "not-the-password", "next": "/admin/"}
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        assert client.post("/admin/login/", wrong).status_code == 200  # the form, with its error

    locked = client.post("/admin/login/", wrong)
    right = client.post("/admin/login/", {**wrong, "password": PASSWORD})

    for answer in (locked, right):
        assert answer.status_code == 429
        assert int(answer["Retry-After"]) > 0
        assert "Too many failed logins" in answer.content.decode()
    assert "_auth_user_id" not in client.session


def test_the_lockout_is_explained_in_the_callers_language(settings, dora):
    guess_until_locked(settings, "dora", ATTACKER)

    refused = APIClient().post(
        "/api/v1/auth/token/",
        {"username": "dora", "password": PASSWORD},
        format="json",
        REMOTE_ADDR=ATTACKER,
        HTTP_ACCEPT_LANGUAGE="fr",
    )

    body = assert_problem(refused, 429, "throttled")  # the code never changes with the language
    assert body["detail"].startswith("Trop de connexions manquées pour ce compte")
