"""How the service answers whatever it is sent (docs/api.md "Errors"): every error a problem
document with a code, a lost database 503 (never 500), paths without their trailing slash served,
look-alike usernames refused, tokens that rotate and die with a changed password."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import connection
from django.test import Client
from rest_framework.test import APIClient

from benchmarks.shape import free_port
from games.models import Match
from tests.api.conftest import PASSWORD, assert_problem
from tests.api.test_players import register

pytestmark = pytest.mark.django_db


def test_an_unknown_path_is_a_404_problem(alice):
    assert_problem(alice.get("/api/v1/no-such-thing/"), 404, "not_found")
    assert_problem(APIClient().get("/nowhere"), 404, "not_found")


def test_under_debug_too_an_unknown_path_and_a_bad_host_are_problems(alice, settings):
    """make run serves with DEBUG on, where Django would answer its technical HTML pages."""
    settings.DEBUG = True

    assert_problem(alice.get("/api/v1/no-such-thing/"), 404, "not_found")
    assert_problem(APIClient().get("/nowhere"), 404, "not_found")
    assert_problem(
        APIClient().get("/api/v1/rulesets/", HTTP_HOST="evil.example"), 400, "bad_request"
    )


def test_a_bad_host_is_a_400_problem():
    assert_problem(
        APIClient().get("/api/v1/rulesets/", HTTP_HOST="evil.example"), 400, "bad_request"
    )


def test_a_wrong_method_is_a_405_problem(alice):
    assert_problem(alice.http.delete("/api/v1/players/me/"), 405, "method_not_allowed")


def test_a_post_without_its_trailing_slash_is_served_as_the_post_it_is(alice):
    response = alice.post("/api/v1/matches", {"ruleset": "switch", "seats": 2})

    assert response.status_code == 201, response.content
    assert response.json()["ruleset"] == "switch"


def test_a_form_body_is_refused_json_only(alice):
    response = alice.http.post("/api/v1/matches/", {"ruleset": "switch", "seats": 2})

    assert_problem(response, 415, "unsupported_media_type")


class DatabaseSwitch:
    """The database connection lost, for real: the next query meets a closed port (PostgreSQL) or
    a file that cannot be opened (SQLite), and the driver raises its own error."""

    def lose(self) -> dict:
        saved = dict(connection.settings_dict)
        connection.close()
        if connection.vendor == "postgresql":
            connection.settings_dict["PORT"] = free_port()
        else:
            connection.settings_dict["NAME"] = "/nonexistent-directory/switch.sqlite3"
        return saved

    def restore(self, saved: dict) -> None:
        connection.close()
        connection.settings_dict.clear()
        connection.settings_dict.update(saved)


@pytest.fixture
def database_gone():
    switch = DatabaseSwitch()
    saved = dict(connection.settings_dict)
    yield switch
    switch.restore(saved)


@pytest.mark.django_db(transaction=True)
def test_a_lost_database_answers_503_with_retry_after(make_client, database_gone):
    database_gone.lose()
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION="Token 0123456789abcdef")

    for response in (
        api.get("/api/v1/players/me/"),
        api.post("/api/v1/matches/", {"ruleset": "switch", "seats": 2}, format="json"),
        APIClient().post("/admin/login/", {"username": "root", "password": "x"}),
    ):
        body = assert_problem(response, 503, "service_unavailable")
        assert int(response["Retry-After"]) >= 1
        assert "Traceback" not in body["detail"]


@pytest.mark.django_db(transaction=True)
def test_a_write_lost_with_the_database_is_applied_once_when_retried_with_its_key(
    alice, database_gone
):
    """The request died with the database: nothing was applied and nothing holds its key, so the
    same request, sent again once the database is back, is applied — once."""
    body = {"ruleset": "switch", "seats": 2}
    headers = {"HTTP_IDEMPOTENCY_KEY": "create-1"}
    saved = database_gone.lose()

    assert_problem(alice.post("/api/v1/matches/", body, **headers), 503, "service_unavailable")

    database_gone.restore(saved)
    retried = alice.post("/api/v1/matches/", body, **headers)
    replayed = alice.post("/api/v1/matches/", body, **headers)
    assert retried.status_code == replayed.status_code == 201
    assert replayed.json()["id"] == retried.json()["id"]
    assert replayed["Idempotent-Replayed"] == "true"
    assert Match.objects.filter(created_by__username="alice").count() == 1


def test_a_refused_write_answered_409_can_be_retried_with_its_key(alice, bob):
    match = alice.post("/api/v1/matches/", {"ruleset": "switch", "seats": 2}).json()["id"]
    headers = {"HTTP_IDEMPOTENCY_KEY": "start-1"}

    assert_problem(alice.post(f"/api/v1/matches/{match}/start/", **headers), 409, "seats_empty")
    bob.post(f"/api/v1/matches/{match}/join/")

    assert alice.post(f"/api/v1/matches/{match}/start/", **headers).status_code == 200


@pytest.mark.parametrize(
    "look_alike",
    ["ＡＬＩＣＥ", "Alice", "ALİCE".replace("İ", "I")],
    ids=["full-width", "case", "upper"],
)
def test_a_look_alike_of_a_taken_username_is_taken(alice, look_alike):
    assert_problem(register(look_alike), 409, "username_taken")


def test_a_username_mixing_scripts_is_refused():
    body = assert_problem(register("\u0430lice"), 400, "invalid")  # a Cyrillic а

    assert "username" in body["errors"]
    assert register("\u0430\u043b\u0438\u0441\u0430").status_code == 201  # all Cyrillic: fine


def test_a_full_width_name_is_stored_in_its_plain_form():
    assert register("ＤＯＲＡ").json()["username"] == "DORA"


def test_rotating_the_token_revokes_the_old_one(alice):
    credentials = {"username": "alice", "password": PASSWORD}
    old = APIClient().post("/api/v1/auth/token/", credentials, format="json").json()["token"]

    rotated = APIClient().post(
        "/api/v1/auth/token/", {**credentials, "rotate": True}, format="json"
    )

    new = rotated.json()["token"]
    assert new != old
    assert_problem(token_client(old).get("/api/v1/players/me/"), 401, "authentication_failed")
    assert token_client(new).get("/api/v1/players/me/").status_code == 200


def test_a_changed_password_revokes_the_tokens(alice):
    user = get_user_model().objects.get(username="alice")
    token = (
        APIClient()
        .post("/api/v1/auth/token/", {"username": "alice", "password": PASSWORD}, format="json")
        .json()["token"]
    )

    user.set_password("another-long-password")
    user.save()

    assert_problem(token_client(token).get("/api/v1/players/me/"), 401, "authentication_failed")


def token_client(token: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return client


def test_static_files_and_the_docs_assets_are_served_without_debug_or_network(settings, tmp_path):
    """DEBUG off, nothing but this service: the admin's styles and the API docs' Swagger UI come
    from the application (WhiteNoise over collected files; the docs' assets are bundled)."""
    settings.DEBUG = False
    settings.STATIC_ROOT = tmp_path
    settings.WHITENOISE_USE_FINDERS = False
    call_command("collectstatic", "--noinput", verbosity=0)
    browser = Client()  # a new handler, so WhiteNoise scans the new STATIC_ROOT

    docs = browser.get("/api/v1/docs/").content.decode()
    assets = re.findall(r'(?:src|href)="(/static/[^"]+)"', docs)

    assert any("swagger-ui" in asset for asset in assets), docs
    linked = re.findall(r'(?:src|href)="([^"]*)"', docs)
    assert all(url.startswith("/") and not url.startswith("//") for url in linked), linked
    assert not re.search(r"https?://", docs), docs
    (script,) = [url for url in linked if "?script" in url]  # its own, not inline (the policy)
    assert not re.search(r"https?://", browser.get(script).content.decode())  # nor fetched by it
    for asset in [*assets, "/static/admin/css/base.css"]:
        response = browser.get(asset)
        assert response.status_code == 200, asset
