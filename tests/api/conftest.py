"""API-level fixtures: players with tokens, and a client per player, as a third-party client sees it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from games import services
from tests.conftest import with_game_powers
from tournaments.powers import directors

PASSWORD = "a-long-enough-password"


class Client:
    """A token-authenticated API client for one player, with JSON helpers."""

    def __init__(self, username: str, token: str) -> None:
        self.username = username
        self.http = APIClient()
        self.http.credentials(HTTP_AUTHORIZATION=f"Token {token}")

    def get(self, path: str, **kwargs: Any):
        return self.http.get(path, **kwargs)

    def post(self, path: str, data: Any = None, **kwargs: Any):
        return self.http.post(path, data if data is not None else {}, format="json", **kwargs)


@pytest.fixture
def make_client(db) -> Callable[..., Client]:
    def make(username: str, *, staff: bool = False) -> Client:
        """``staff``: a tournament director (tournaments.powers) who may also fix a match's layout
        and start anyone's match (games.powers)."""
        user, token = services.player_register(username=username, password=PASSWORD)
        if staff:
            get_user_model().objects.filter(pk=user.pk).update(is_staff=True)
            user.groups.add(directors())
            with_game_powers(user)
        return Client(username, token)

    return make


@pytest.fixture
def alice(make_client) -> Client:
    return make_client("alice")


@pytest.fixture
def bob(make_client) -> Client:
    return make_client("bob")


@pytest.fixture
def carol(make_client) -> Client:
    return make_client("carol")


@pytest.fixture
def staff(make_client) -> Client:
    return make_client("organiser", staff=True)


def assert_problem(response, status: int, code: str) -> dict[str, Any]:
    """The response is an RFC 9457 problem document with this status and code."""
    assert response.status_code == status, response.content
    assert response["Content-Type"].startswith("application/problem+json")
    body = response.json()
    assert body["status"] == status
    assert body["code"] == code
    assert body["type"].endswith(code)
    assert body["title"]
    assert body["detail"]
    return body
