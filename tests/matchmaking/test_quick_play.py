"""Quick play (the API guide, "Ladders and quick play"): ``POST /api/v1/pool/`` waits for a
match; it starts as soon as enough players want the same game, or with server bots once an entry
that accepts them has waited its ``wait_seconds``; the players' feeds get ``match_started``."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import FeedEvent, Match, Seat
from matchmaking import services
from matchmaking.models import PoolEntry
from switchsite.api import throttling
from tests.api.conftest import assert_problem

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("tasks_in_process")]

GAME = {"ruleset": "switch", "seats": 2, "rated": True}


def enter(client, **body):
    answer = client.post("/api/v1/pool/", {**GAME, **body})
    assert answer.status_code == 202, answer.content
    return answer.json()


def test_two_players_wanting_the_same_game_are_matched_and_told(alice, bob, make_client) -> None:
    carol = make_client("carol")
    first = enter(alice)
    enter(carol, seats=3)  # another game: waits on
    assert (first["status"], first["wait_seconds"], first["match"]) == ("waiting", 30, None)

    enter(bob)
    services.pool_match()

    mine = alice.get(f"/api/v1/pool/{first['id']}/").json()
    assert mine["status"] == "matched"
    match = Match.objects.get(pk=mine["match"])
    assert (match.status, match.rated, match.ruleset, match.seat_count) == (
        "active",
        True,
        "switch",
        2,
    )
    seated = Seat.objects.filter(match=match).values_list("player__username", flat=True)
    assert sorted(seated) == ["alice", "bob"]
    told = FeedEvent.objects.filter(type="match_started", match=match)
    assert sorted(told.values_list("player__user__username", flat=True)) == ["alice", "bob"]
    assert PoolEntry.objects.get(user__username="carol").status == "waiting"


def test_an_entry_that_accepts_bots_plays_them_once_it_has_waited(alice) -> None:
    entry = enter(alice, bots_ok=True, wait_seconds=10, seats=4)
    services.pool_match()
    assert alice.get(f"/api/v1/pool/{entry['id']}/").json()["status"] == "waiting"

    services.pool_match(now=timezone.now() + timedelta(seconds=11))

    mine = alice.get(f"/api/v1/pool/{entry['id']}/").json()
    assert mine["status"] == "matched"
    seats = Seat.objects.filter(match_id=mine["match"]).order_by("index")
    assert [(s.player and s.player.username, s.bot_strategy) for s in seats] == [
        ("alice", ""),
        (None, "heuristic"),
        (None, "heuristic"),
        (None, "heuristic"),
    ]


def test_leaving_ends_the_wait_and_a_matched_entry_cannot_be_left(alice, bob) -> None:
    left = enter(alice)
    assert alice.http.delete(f"/api/v1/pool/{left['id']}/").status_code == 204
    assert alice.get(f"/api/v1/pool/{left['id']}/").json()["status"] == "left"

    mine, theirs = enter(alice), enter(bob)
    services.pool_match()

    assert_problem(alice.http.delete(f"/api/v1/pool/{mine['id']}/"), 409, "already_matched")
    assert_problem(alice.get(f"/api/v1/pool/{theirs['id']}/"), 404, "not_found")


def test_one_wait_at_a_time_and_games_the_rules_refuse_are_refused(alice) -> None:
    enter(alice)

    assert_problem(alice.post("/api/v1/pool/", GAME), 409, "already_waiting")
    assert_problem(alice.post("/api/v1/pool/", {**GAME, "ruleset": "nope"}), 400, "invalid_ruleset")
    assert_problem(
        alice.post("/api/v1/pool/", {**GAME, "ruleset": "abbott", "seats": 3}),
        400,
        "invalid_options",
    )
    assert PoolEntry.objects.count() == 1


def test_entering_and_leaving_are_rate_limited(alice, monkeypatch) -> None:
    rates = {**throttling.ScopedRateThrottle.THROTTLE_RATES, "pool": "2/minute"}
    monkeypatch.setattr(throttling.ScopedRateThrottle, "THROTTLE_RATES", rates)
    entry = enter(alice)
    assert alice.http.delete(f"/api/v1/pool/{entry['id']}/").status_code == 204

    assert_problem(alice.post("/api/v1/pool/", GAME), 429, "throttled")
    assert alice.get(f"/api/v1/pool/{entry['id']}/").status_code == 200, "reading is not limited"


def test_ended_entries_go_a_day_later(alice) -> None:
    entry = enter(alice)
    alice.http.delete(f"/api/v1/pool/{entry['id']}/")

    assert services.matchmaking_purge(now=timezone.now() + timedelta(hours=25)) == (0, 1)
    assert not PoolEntry.objects.exists()


def test_an_entry_posted_twice_with_one_idempotency_key_waits_once(alice) -> None:
    first = alice.post("/api/v1/pool/", GAME, HTTP_IDEMPOTENCY_KEY="play-now-1")
    again = alice.post("/api/v1/pool/", GAME, HTTP_IDEMPOTENCY_KEY="play-now-1")

    assert first.status_code == again.status_code == 202
    assert first.json() == again.json()
    assert PoolEntry.objects.count() == 1
