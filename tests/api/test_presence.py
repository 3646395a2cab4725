"""Who is online (the API guide, "Ladders and quick play"): ``GET /api/v1/players/online/`` lists
the accounts with a feed stream or long poll open now or within the last minute, read from the
database that every web host shares."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone
from rest_framework.test import APIClient

from games.models import Presence
from games.services.presence import old_presence_purge, presence_write
from tests.api.conftest import PASSWORD, Client, assert_problem

pytestmark = pytest.mark.django_db


def bot_client(username: str) -> Client:
    body = {"username": username, "password": PASSWORD, "bot": True}
    registered = APIClient().post("/api/v1/players/", body, format="json").json()
    return Client(username, registered["token"])


def seen(username: str, seconds_ago: float) -> None:
    user = get_user_model().objects.get(username=username)
    presence_write(seen={user.pk: timezone.now() - timedelta(seconds=seconds_ago)})


def online(client: Client, query: str = "") -> list[tuple[str, bool]]:
    answer = client.get(f"/api/v1/players/online/{query}")
    assert answer.status_code == 200, answer.content
    return [(row["player"], row["bot"]) for row in answer.json()["results"]]


def test_bots_seen_within_the_last_minute_are_online_and_others_are_not(alice) -> None:
    for name in ("robo", "ziggy", "sleepy"):
        bot_client(name)
    seen("robo", 0)
    seen("ziggy", 55)
    seen("sleepy", 65)  # closed its last stream more than a minute ago
    seen("alice", 1)

    assert online(alice, "?bot=true") == [("robo", True), ("ziggy", True)]
    assert online(alice, "?bot=false") == [("alice", False)]
    assert online(alice) == [("alice", False), ("robo", True), ("ziggy", True)]


def test_a_later_sighting_replaces_the_earlier_one(alice) -> None:
    bot_client("robo")
    seen("robo", 120)
    seen("robo", 2)

    assert online(alice, "?bot=true") == [("robo", True)]
    assert Presence.objects.count() == 1


def test_a_bot_filter_that_is_not_a_boolean_is_refused(alice) -> None:
    assert_problem(alice.get("/api/v1/players/online/?bot=perhaps"), 400, "invalid")


def test_presence_older_than_a_day_is_forgotten_by_the_retention_sweep(alice) -> None:
    bot_client("robo")
    seen("robo", 60)
    seen("alice", 25 * 60 * 60)

    assert old_presence_purge(now=timezone.now()) == 1
    assert list(Presence.objects.values_list("user__username", flat=True)) == ["robo"]
