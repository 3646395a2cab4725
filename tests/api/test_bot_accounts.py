"""A bot account (registered with ``"bot": true``) is shown as one wherever its account appears
(the API guide, "Players and tokens"): its page and the leaderboard (``bot``), the seats of a
match's views (``bot_account``), match lists and the lobby (``created_by_bot_account``),
challenges (``from_bot_account``, ``to[].bot_account``), the feed, game records' players and
tournament entries and the seats of their tables (``bot_account``)."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from games.models import Rating
from switchgame import ratings
from switchgame.records.notation import record_from_text
from tests.api.conftest import PASSWORD, Client

pytestmark = pytest.mark.django_db


@pytest.fixture
def robo() -> Client:
    body = {"username": "robo", "password": PASSWORD, "bot": True}
    registered = APIClient().post("/api/v1/players/", body, format="json").json()
    return Client("robo", registered["token"])


def feed(client: Client, *types: str) -> list[dict[str, Any]]:
    entries = client.get("/api/v1/players/me/events/").json()["results"]
    return [e["data"] for e in entries if e["type"] in types]


def test_its_seats_in_every_view_say_bot_account(robo, alice) -> None:
    match_id = robo.post("/api/v1/matches/", {"ruleset": "switch", "seats": 3}).json()["id"]
    alice.post(f"/api/v1/matches/{match_id}/join/")

    for client in (robo, alice):
        view = client.get(f"/api/v1/matches/{match_id}/").json()
        assert view["created_by_bot_account"] is True
        seats = view["seats"]
        assert [(s["player"], s["bot_account"]) for s in seats] == [
            ("robo", True),
            ("alice", False),
            (None, False),
        ]


def test_the_feed_says_whether_who_joined_left_or_challenged_is_one(robo, alice) -> None:
    match_id = alice.post("/api/v1/matches/", {"ruleset": "switch", "seats": 2}).json()["id"]
    robo.post(f"/api/v1/matches/{match_id}/join/")
    robo.post(f"/api/v1/matches/{match_id}/resign/")
    robo.post("/api/v1/challenges/", {"to": ["alice"], "ruleset": "switch", "seats": 2})

    news = feed(alice, "player_joined", "player_left")
    assert [(d["player"], d["bot_account"]) for d in news] == [("robo", True), ("robo", True)]
    (challenge,) = feed(alice, "challenge")
    assert (challenge["from"], challenge["from_bot_account"]) == ("robo", True)


def test_match_lists_and_the_lobby_say_whether_the_creator_is_one(robo, alice, bob) -> None:
    robos = robo.post("/api/v1/matches/", {"ruleset": "switch", "seats": 2}).json()["id"]
    alices = alice.post("/api/v1/matches/", {"ruleset": "switch", "seats": 2}).json()["id"]

    lobby = bob.get("/api/v1/matches/?open=true").json()["results"]
    mine = robo.get("/api/v1/players/robo/matches/").json()["results"]

    assert {m["id"]: m["created_by_bot_account"] for m in lobby} == {robos: True, alices: False}
    assert [(m["id"], m["created_by_bot_account"]) for m in mine] == [(robos, True)]


def test_challenges_say_which_side_is_one(robo, alice) -> None:
    sent = robo.post("/api/v1/challenges/", {"to": ["alice"], "ruleset": "switch", "seats": 2})
    received = alice.post("/api/v1/challenges/", {"to": ["robo"], "ruleset": "switch", "seats": 2})

    assert sent.json()["from_bot_account"] is True
    assert [(i["player"], i["bot_account"]) for i in sent.json()["to"]] == [("alice", False)]
    assert received.json()["from_bot_account"] is False
    listed = robo.get(f"/api/v1/challenges/{received.json()['id']}/").json()
    assert [(i["player"], i["bot_account"]) for i in listed["to"]] == [("robo", True)]


def test_its_page_and_its_leaderboard_row_say_bot(robo, alice) -> None:
    user = get_user_model().objects.get(username="robo")
    Rating.objects.create(
        holder=ratings.user_holder(user.pk), user=user, game="shedding", mu=30, sigma=2, games=5
    )

    assert alice.get("/api/v1/players/robo/").json()["bot"] is True
    rows = alice.get("/api/v1/leaderboard/?game=shedding").json()["results"]
    assert [(r["player"], r["bot"]) for r in rows] == [("robo", True)]


def test_its_tournament_entry_says_bot_account(robo, alice, staff) -> None:
    body = {"name": "Club night", "ruleset": "switch", "scoring": "french", "rounds": 1}
    body |= {"table_size": 2, "deals_per_round": 1, "seating": "balanced"}
    tournament = staff.post("/api/v1/tournaments/", body).json()["id"]
    robo.post(f"/api/v1/tournaments/{tournament}/register/")
    alice.post(f"/api/v1/tournaments/{tournament}/register/")

    staff.post(f"/api/v1/tournaments/{tournament}/start/")
    staff.post(f"/api/v1/tournaments/{tournament}/next-round/")

    shown = alice.get(f"/api/v1/tournaments/{tournament}/").json()
    entries = [(e["player"], e["bot_account"]) for e in shown["entries"]]
    assert entries == [("robo", True), ("alice", False)]
    seated = [(s["name"], s["bot_account"]) for s in shown["rounds"][0]["tables"][0]["seats"]]
    assert sorted(seated) == [("alice", False), ("robo", True)]


def test_its_seat_in_a_game_record_says_bot_account(robo) -> None:
    body = {"ruleset": "switch", "seats": 2, "bots": [{"seat": 1, "strategy": "random"}]}
    match_id = robo.post("/api/v1/matches/", {**body, "on_resign": "forfeit"}).json()["id"]
    robo.post(f"/api/v1/matches/{match_id}/start/")
    robo.post(f"/api/v1/matches/{match_id}/resign/")  # abandoned: its record is there

    record = robo.get(f"/api/v1/matches/{match_id}/record/").json()
    text = robo.get(f"/api/v1/matches/{match_id}/record/?format=txt").content.decode()

    players = [(p["player"], p["bot_account"], p["bot"]) for p in record["players"]]
    assert players == [("robo", True, None), (None, False, "random")]
    assert "[BotAccounts [0]]\n" in text
    assert record_from_text(text) == record
