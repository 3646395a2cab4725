"""the API guide "Players": registration, tokens, the caller's profile."""

import pytest
from rest_framework.test import APIClient

from tests.api.conftest import PASSWORD, assert_problem

pytestmark = pytest.mark.django_db


def register(username: str, password: str = PASSWORD):
    return APIClient().post(
        "/api/v1/players/", {"username": username, "password": password}, format="json"
    )


def test_registration_answers_id_username_and_a_working_token():
    response = register("dora")

    assert response.status_code == 201
    body = response.json()
    assert body["username"] == "dora"
    assert isinstance(body["id"], int)
    me = APIClient()
    me.credentials(HTTP_AUTHORIZATION=f"Token {body['token']}")
    assert me.get("/api/v1/players/me/").json()["username"] == "dora"


def test_taken_username_is_409_username_taken_whatever_the_case():
    register("dora")

    body = assert_problem(register("Dora"), 409, "username_taken")
    assert "Dora" in body["detail"]


@pytest.mark.parametrize("name", ["me", "Online"])
def test_a_name_that_is_a_page_of_the_api_is_refused_in_the_callers_language(name: str):
    assert_problem(register(name), 409, "username_taken")
    body = APIClient().post(
        "/api/v1/players/",
        {"username": name, "password": PASSWORD},
        format="json",
        HTTP_ACCEPT_LANGUAGE="fr",
    )
    assert "page de l'API" in assert_problem(body, 409, "username_taken")["detail"]


def test_registration_can_be_closed(settings):
    settings.REGISTRATION_OPEN = False

    assert_problem(register("dora"), 403, "registration_closed")


def test_weak_password_lists_the_field():
    body = assert_problem(register("dora", "123"), 400, "invalid")

    assert "password" in body["errors"]


@pytest.mark.parametrize("password", ["dora-the-explorer", "Dora-The-Explorer!"])
def test_a_password_like_the_username_is_refused(password):
    body = assert_problem(register("dora-the-explorer", password), 400, "invalid")

    assert body["errors"]["password"] == ["The password is too similar to the username."]


def test_missing_fields_are_listed():
    response = APIClient().post("/api/v1/players/", {}, format="json")

    body = assert_problem(response, 400, "invalid")
    assert set(body["errors"]) == {"username", "password"}


def test_token_for_good_credentials_and_refusal_for_bad_ones():
    token = register("dora").json()["token"]

    good = APIClient().post(
        "/api/v1/auth/token/", {"username": "dora", "password": PASSWORD}, format="json"
    )
    bad = APIClient().post(
        "/api/v1/auth/token/", {"username": "dora", "password": "wrong"}, format="json"
    )

    assert good.status_code == 200
    assert good.json() == {"token": token}
    assert_problem(bad, 400, "invalid_credentials")


def test_me_shows_rating_and_match_counts(alice):
    body = alice.get("/api/v1/players/me/").json()

    assert body["username"] == "alice"
    assert set(body["rating"]) == {"mu", "sigma"}
    assert body["matches"] == {"matches": 0, "active": 0, "finished": 0}


@pytest.mark.parametrize("header", [None, "Token not-a-real-token"])
def test_calls_without_a_valid_token_are_401_problems(header):
    client = APIClient()
    if header:
        client.credentials(HTTP_AUTHORIZATION=header)

    response = client.get("/api/v1/players/me/")

    assert response.status_code == 401
    assert response["Content-Type"].startswith("application/problem+json")
    assert response.json()["code"] in {"not_authenticated", "authentication_failed"}
    assert response["WWW-Authenticate"] == "Token, Bearer"  # RFC 9110: a 401 names the schemes


def test_too_many_registrations_are_429_with_retry_after(settings):
    limit = int(settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]["registration"].split("/")[0])
    for index in range(limit):
        assert register(f"user{index}").status_code == 201

    response = register("one-too-many")

    body = assert_problem(response, 429, "throttled")
    assert int(response["Retry-After"]) > 0
    assert "throttled" in body["code"]
