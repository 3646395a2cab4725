"""the API guide "Named tokens": created with scopes, listed without their secret, revoked; a
`read` token that writes is refused with 403 insufficient_scope."""

import hashlib
import importlib

import pytest
from django.apps import apps as django_apps
from django.contrib.auth import get_user_model
from django.db import connection
from rest_framework.test import APIClient

from switchsite.models import ApiToken
from tests.api.conftest import PASSWORD, assert_problem

pytestmark = pytest.mark.django_db


def create(owner, name: str, scopes: list[str]):
    return owner.post("/api/v1/auth/tokens/", {"name": name, "scopes": scopes})


def bearer(secret: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {secret}")
    return client


def test_a_new_token_is_answered_once_with_its_secret_and_only_its_hash_is_kept(alice):
    response = create(alice, "my bot", ["read", "play"])

    assert response.status_code == 201
    body = response.json()
    assert set(body) == {"id", "name", "scopes", "token", "created_at"}
    assert body["name"] == "my bot"
    assert body["scopes"] == ["read", "play"]
    stored = ApiToken.objects.get(pk=body["id"])
    assert body["token"] not in str(ApiToken.objects.filter(pk=stored.pk).values())
    me = bearer(body["token"]).get("/api/v1/players/me/")
    assert me.status_code == 200
    assert me.json()["username"] == "alice"


def test_the_list_shows_the_callers_tokens_without_secrets(alice, bob):
    create(alice, "reader", ["read"])
    create(alice, "player", ["play", "read"])
    create(bob, "bobs", ["read"])

    page = alice.get("/api/v1/auth/tokens/").json()

    assert page["count"] == 2
    assert [(t["name"], t["scopes"]) for t in page["results"]] == [
        ("reader", ["read"]),
        ("player", ["read", "play"]),
    ]
    assert all("token" not in t for t in page["results"])


@pytest.mark.parametrize(
    "scopes",
    [
        [],
        ["play"],
        ["seat"],
        ["write"],
        ["read", "seat"],
        ["read", "read"],
        ["read", "play", "play"],
    ],
)
def test_only_read_or_read_and_play_can_be_asked_for(alice, scopes):
    body = assert_problem(create(alice, "odd", scopes), 400, "invalid")

    assert {place.split("[")[0] for place in body["errors"]} == {"scopes"}  # scopes or scopes[i]


def test_a_read_token_reads_but_every_write_is_insufficient_scope(alice):
    reader = bearer(create(alice, "reader", ["read"]).json()["token"])

    assert reader.get("/api/v1/matches/").status_code == 200
    refused = reader.post(
        "/api/v1/matches/", {"ruleset": "switch", "seats": 2, "bots": []}, format="json"
    )
    assert_problem(refused, 403, "insufficient_scope")
    assert_problem(
        reader.post("/api/v1/tournaments/", {}, format="json"), 403, "insufficient_scope"
    )


def test_a_play_token_writes(alice):
    player = bearer(create(alice, "player", ["read", "play"]).json()["token"])

    created = player.post(
        "/api/v1/matches/",
        {"ruleset": "switch", "seats": 2, "bots": [{"seat": 1, "strategy": "random"}]},
        format="json",
    )

    assert created.status_code == 201, created.content


def test_named_tokens_do_not_manage_tokens(alice):
    player = bearer(create(alice, "player", ["read", "play"]).json()["token"])

    assert_problem(player.get("/api/v1/auth/tokens/"), 403, "insufficient_scope")
    made = player.post("/api/v1/auth/tokens/", {"name": "x", "scopes": ["read"]}, format="json")
    assert_problem(made, 403, "insufficient_scope")


def test_a_revoked_token_no_longer_authenticates(alice):
    made = create(alice, "reader", ["read"]).json()
    reader = bearer(made["token"])

    assert alice.http.delete(f"/api/v1/auth/tokens/{made['id']}/").status_code == 204

    assert_problem(reader.get("/api/v1/players/me/"), 401, "authentication_failed")
    assert alice.get("/api/v1/auth/tokens/").json()["count"] == 0


def test_nobody_revokes_another_players_token(alice, bob):
    made = create(alice, "reader", ["read"]).json()

    assert_problem(bob.http.delete(f"/api/v1/auth/tokens/{made['id']}/"), 404, "not_found")
    assert bearer(made["token"]).get("/api/v1/players/me/").status_code == 200


def test_the_accounts_own_token_keeps_every_scope_under_either_scheme(alice):
    key = alice.http._credentials["HTTP_AUTHORIZATION"].split()[1]

    created = bearer(key).post(
        "/api/v1/matches/",
        {"ruleset": "switch", "seats": 2, "bots": [{"seat": 1, "strategy": "random"}]},
        format="json",
    )

    assert created.status_code == 201, created.content


def test_a_changed_password_revokes_named_tokens_too(alice):
    from django.contrib.auth import get_user_model

    secret = create(alice, "reader", ["read"]).json()["token"]
    user = get_user_model().objects.get(username="alice")
    user.set_password("another-long-password")
    user.save()

    assert_problem(bearer(secret).get("/api/v1/players/me/"), 401, "authentication_failed")


def test_the_accounts_own_token_is_kept_as_a_hash_and_given_again(alice):
    secret = alice.http._credentials["HTTP_AUTHORIZATION"].split()[1]
    (stored,) = ApiToken.objects.filter(user__username="alice", account=True)

    again = APIClient().post(
        "/api/v1/auth/token/", {"username": "alice", "password": PASSWORD}, format="json"
    )

    assert stored.key_hash == hashlib.sha256(secret.encode()).hexdigest()
    assert secret not in str(ApiToken.objects.filter(user__username="alice").values())
    assert again.json() == {"token": secret}


@pytest.mark.django_db(transaction=True)
def test_a_plain_account_token_of_before_is_hashed_in_place_and_keeps_working(alice):
    """Migration switchsite/0006: DRF's authtoken table (the key in plain text) becomes hashed
    account tokens, and goes."""
    user = get_user_model().objects.get(username="alice")
    legacy = "9944b09199c62bcf9418ad846dd0e4bbdfc6ee4b"
    with connection.cursor() as cursor:
        cursor.execute("CREATE TABLE authtoken_token (key varchar(40) PRIMARY KEY, user_id int)")
        cursor.execute("INSERT INTO authtoken_token VALUES (%s, %s)", [legacy, user.pk])
    migration = importlib.import_module("switchsite.migrations.0006_account_tokens_hashed")

    with connection.schema_editor() as editor:
        migration.hash_account_tokens(django_apps, editor)

    assert "authtoken_token" not in connection.introspection.table_names()
    assert bearer(legacy).get("/api/v1/players/me/").json()["username"] == "alice"
    rotated = APIClient().post(
        "/api/v1/auth/token/",
        {"username": "alice", "password": PASSWORD, "rotate": True},
        format="json",
    )
    assert rotated.status_code == 200
    assert bearer(legacy).get("/api/v1/players/me/").status_code == 401


@pytest.fixture
def admin_client(client):
    client.force_login(
        get_user_model().objects.create_superuser("root", "root@example.invalid", PASSWORD)
    )
    return client


def test_no_token_is_readable_in_the_admin(admin_client, alice):
    index = admin_client.get("/admin/").content.decode()

    assert "authtoken" not in index
    assert "api token" not in index.lower()
    assert admin_client.get("/admin/authtoken/tokenproxy/").status_code == 404
