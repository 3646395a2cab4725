"""Practice matches (the API guide, "Matches": ``practice_seed``): the creator against server bots,
unrated, every deal and every bot's choice fixed by the seed — so the same seed and the same moves
play the same game again — and records that verify as any other's."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest

from games import services
from games.models import Match
from scripts.verify_record import check
from switchgame.decision import practice_deal_seed
from tests.api.conftest import Client, assert_problem

pytestmark = pytest.mark.django_db

SEED = "5eed" * 16
OTHER_SEED = "0ddba11" + "0" * 57


def create(client: Client, **body: Any):
    return client.post(
        "/api/v1/matches/",
        {"ruleset": "switch", "seats": 3, "bots": BOTS, "practice_seed": SEED, **body},
    )


BOTS = [{"seat": 1, "strategy": "random"}, {"seat": 2, "strategy": "heuristic"}]


def played(client: Client, **body: Any) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """A practice match created, started and played to its end, the creator always taking the
    first of its legal moves: every view the creator was shown, and the match's record."""
    match_id = create(client, **body).json()["id"]
    path = f"/api/v1/matches/{match_id}/"
    views = [client.post(f"{path}start/").json()]
    while views[-1]["status"] == "active":
        view = views[-1]
        if view["to_move"] == view["you"]["seat"]:
            client.post(f"{path}moves/", view["legal_moves"][0])
        else:
            assert services.bot_turns_play(match_id=match_id, limit=1)[0] == 1
        views.append(client.get(path).json())
    return views, client.get(f"{path}record/").json()


def dealt(views: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    """What the creator saw of the cards, view after view."""
    return [(v["deal"], v["you"]["hand"], v["top_card"], v["shuffle_commitment"]) for v in views]


@pytest.mark.slow
def test_the_same_seed_and_moves_play_the_same_game_again(alice, bob) -> None:
    first_views, first = played(alice, deals=2)
    again_views, again = played(bob, deals=2)

    assert all(view["practice"] is True for view in first_views)
    assert dealt(first_views) == dealt(again_views)
    assert first["deals"] == again["deals"]
    assert first["result"] == again["result"]
    assert first["match"]["practice"] is True
    assert first["match"]["id"] != again["match"]["id"]


@pytest.mark.slow
def test_each_deal_is_dealt_from_the_seed_and_its_number(alice) -> None:
    _, record = played(alice, deals=2)

    seeds = [deal["seed"] for deal in record["deals"]]
    assert seeds == [practice_deal_seed(bytes.fromhex(SEED), n).hex() for n in (1, 2)]


@pytest.mark.slow
def test_the_record_verifies_offline(alice) -> None:
    _, record = played(alice)

    out = io.StringIO()
    assert check(io.StringIO(json.dumps(record)), "practice.json", out) == 0, out.getvalue()
    assert ": valid (1 deal(s), " in out.getvalue()


def test_another_seed_deals_other_cards(alice) -> None:
    match_id = create(alice).json()["id"]
    other_id = create(alice, practice_seed=OTHER_SEED).json()["id"]

    one = alice.post(f"/api/v1/matches/{match_id}/start/").json()
    other = alice.post(f"/api/v1/matches/{other_id}/start/").json()

    assert one["shuffle_commitment"] != other["shuffle_commitment"]
    assert (one["you"]["hand"], one["top_card"]) != (other["you"]["hand"], other["top_card"])


def test_a_seed_in_capitals_is_the_same_seed(alice) -> None:
    match_id = create(alice, practice_seed=SEED.upper()).json()["id"]

    assert Match.objects.get(pk=match_id).practice_seed == SEED


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"practice_seed": "5eed"}, "invalid_practice_seed"),
        ({"practice_seed": SEED + "0"}, "invalid_practice_seed"),
        ({"practice_seed": "g" * 64}, "invalid_practice_seed"),
        ({"practice_seed": " " + SEED[1:]}, "invalid_practice_seed"),
        ({"rated": True}, "practice_rated"),
        ({"bots": [{"seat": 1, "strategy": "random"}]}, "practice_seats"),
        ({"seats": 2, "bots": []}, "practice_seats"),
    ],
)
def test_a_practice_match_is_refused_unless_unrated_against_bots(alice, body, code) -> None:
    assert_problem(create(alice, **body), 400, code)
    assert not Match.objects.exists()


def test_nobody_but_its_creator_may_take_its_seat(alice, bob) -> None:
    match_id = create(alice).json()["id"]
    path = f"/api/v1/matches/{match_id}/"
    assert alice.post(f"{path}resign/").status_code == 200  # seat 0 is free again

    assert alice.get("/api/v1/matches/?open=true").json()["count"] == 0
    assert bob.get("/api/v1/matches/?open=true").json()["count"] == 0
    assert_problem(bob.post(f"{path}join/"), 409, "practice_match")
    assert alice.post(f"{path}join/").json()["you"]["seat"] == 0


def test_every_view_and_summary_says_whether_it_is_practice(alice, bob) -> None:
    practice = create(alice).json()["id"]
    ordinary = alice.post("/api/v1/matches/", {"ruleset": "switch", "seats": 2}).json()["id"]

    assert bob.get(f"/api/v1/matches/{practice}/").json()["practice"] is True
    assert bob.get(f"/api/v1/matches/{ordinary}/").json()["practice"] is False
    summaries = {m["id"]: m["practice"] for m in alice.get("/api/v1/matches/").json()["results"]}
    assert summaries == {practice: True, ordinary: False}
