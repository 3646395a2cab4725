"""Fair shares (docs/operations.md, "Fair shares"): one user's matches, server bots and streams, and
one address's anonymous live pages, each capped, each refusal a problem document naming its limit."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model

from games.models import Match
from tests.api.conftest import assert_problem
from tests.api.test_matches import create
from tests.tournaments.conftest import TOURNAMENT
from tournaments import services as tournament_services
from tournaments.powers import directors

pytestmark = pytest.mark.django_db


def test_a_player_has_at_most_user_open_matches_waiting_or_running(settings, alice):
    settings.USER_OPEN_MATCHES = 2
    assert [create(alice).status_code for _ in range(2)] == [201, 201]

    body = assert_problem(create(alice), 409, "limit_reached")

    assert (body["limit"], body["allowed"]) == ("USER_OPEN_MATCHES", 2)
    Match.objects.filter(pk=Match.objects.earliest("pk").pk).update(status=Match.Status.FINISHED)
    assert create(alice).status_code == 201  # one has ended


def test_a_players_matches_have_at_most_user_bot_seats_server_bots(settings, alice, bob):
    settings.USER_BOT_SEATS = 3
    two_bots = {
        "seats": 3,
        "bots": [{"seat": 1, "strategy": "random"}, {"seat": 2, "strategy": "random"}],
    }
    assert create(alice, **two_bots).status_code == 201

    body = assert_problem(create(alice, **two_bots), 409, "limit_reached")

    assert (body["limit"], body["allowed"]) == ("USER_BOT_SEATS", 3)
    assert create(alice, seats=2, bots=[{"seat": 1, "strategy": "random"}]).status_code == 201
    assert create(bob, **two_bots).status_code == 201  # another player's share


def test_a_tournaments_tables_are_not_its_directors_own_matches(settings):
    settings.USER_OPEN_MATCHES = 1
    organiser = get_user_model().objects.create_user("desk", is_staff=True)
    organiser.groups.add(directors())
    fields: dict[str, Any] = {**TOURNAMENT, "seating_mode": TOURNAMENT["seating"]}
    del fields["seating"], fields["rounds"]
    tournament = tournament_services.tournament_create(
        creator=organiser, planned_rounds=1, **fields
    )
    for number in range(8):
        player = get_user_model().objects.create_user(f"fair{number}")
        tournament_services.entry_register(
            tournament_id=tournament.pk, user=player, entrant=tournament_services.Entrant()
        )

    published = tournament_services.tournament_start(tournament_id=tournament.pk, user=organiser)

    assert published.tables.exclude(match=None).count() == 2


def test_a_token_has_at_most_streams_per_token_open(settings, alice):
    settings.STREAMS_PER_TOKEN = 2
    open_ = [alice.get("/api/v1/players/me/stream/") for _ in range(2)]
    assert [stream.status_code for stream in open_] == [200, 200]

    refused = alice.get("/api/v1/players/me/stream/")

    body = assert_problem(refused, 429, "too_many_streams")
    assert (body["limit"], body["allowed"]) == ("STREAMS_PER_TOKEN", 2)
    assert int(refused["Retry-After"]) > 0
    for closer in open_[0]._resource_closers:  # what closing the response does when the client
        closer()  # goes away (without the end of a request, which would close the test database)
    assert alice.get("/api/v1/players/me/stream/").status_code == 200


def test_an_address_has_at_most_streams_per_address_anonymous_live_pages(settings, staff, client):
    settings.STREAMS_PER_ADDRESS = 1
    tournament_id = staff.post("/api/v1/tournaments/", {**TOURNAMENT, "public": True}).json()["id"]
    live = f"/tournaments/{tournament_id}/live/"
    assert client.get(live, REMOTE_ADDR="203.0.113.7").status_code == 200

    refused = client.get(live, REMOTE_ADDR="203.0.113.7")

    assert refused.status_code == 429
    assert refused.json()["limit"] == "STREAMS_PER_ADDRESS"
    assert client.get(live, REMOTE_ADDR="198.51.100.1").status_code == 200  # another address


def test_while_redis_is_unreachable_each_process_counts_its_own_streams(settings, alice, caplog):
    """The cap is a protection, not a reason to refuse service (switchsite.serving.streamcaps)."""
    settings.STREAMS_PER_TOKEN = 1
    settings.CACHES = {
        "default": {
            "BACKEND": "switchsite.cache.PooledRedisCache",
            "LOCATION": "redis://127.0.0.1:1/0",  # nothing listens there
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
        }
    }
    assert alice.get("/api/v1/players/me/stream/").status_code == 200

    refused = alice.get("/api/v1/players/me/stream/")

    assert_problem(refused, 429, "too_many_streams")
    assert "counted in this process only: Redis is unreachable" in caplog.text
