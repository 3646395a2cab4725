"""Fixtures for ladders and quick play: bot accounts with API clients, online or not, and a ladder."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.utils import timezone
from rest_framework.test import APIClient

from games.services.presence import presence_write
from matchmaking.models import Ladder
from tests.api import conftest as api
from tests.api.conftest import PASSWORD, Client

make_client = api.make_client
alice = api.alice
bob = api.bob


@pytest.fixture
def make_bot(db) -> Callable[..., Client]:
    def make(username: str, *, online: bool = True) -> Client:
        body = {"username": username, "password": PASSWORD, "bot": True}
        registered = APIClient().post("/api/v1/players/", body, format="json").json()
        if online:
            seen(username)
        return Client(username, registered["token"])

    return make


def seen(username: str, seconds_ago: float = 0) -> None:
    user = get_user_model().objects.get(username=username)
    presence_write(seen={user.pk: timezone.now() - timedelta(seconds=seconds_ago)})


@pytest.fixture
def keeper(make_client) -> Client:
    """Someone who may create ladders (matchmaking.add_ladder), and no other power."""
    client = make_client("keeper")
    user = get_user_model().objects.get(username="keeper")
    user.user_permissions.add(Permission.objects.get(codename="add_ladder"))
    return client


@pytest.fixture
def make_ladder(keeper) -> Callable[..., Ladder]:
    def make(ruleset: str = "switch", seats: int = 2, **settings: int) -> Ladder:
        body = {"ruleset": ruleset, "seats": seats, "interval_seconds": 60, **settings}
        answer = keeper.post("/api/v1/ladders/", body)
        assert answer.status_code == 201, answer.content
        return Ladder.objects.get(pk=answer.json()["id"])

    return make


def due(ladder: Ladder) -> Ladder:
    """Make the ladder's next round due now."""
    Ladder.objects.filter(pk=ladder.pk).update(next_round_at=timezone.now())
    ladder.refresh_from_db()
    return ladder
