"""What a request costs the database, in SQL statements (transaction control — BEGIN, COMMIT,
savepoints — not counted): the move pipeline reads a match in one query and writes it — the
conditional update, the events and the feed entries — in one statement on PostgreSQL (one per table
elsewhere, :mod:`games.services.writer`), and the answer is built from what the request already
holds."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import services
from games.models import Match
from tests.api.conftest import Client

pytestmark = pytest.mark.django_db

TRANSACTION_CONTROL = ("BEGIN", "COMMIT", "ROLLBACK", "SAVEPOINT", "RELEASE SAVEPOINT")


def writes(statements_per_table: int) -> int:
    """The statements that write a match's advance: one on PostgreSQL, else one per table."""
    return 1 if connection.vendor == "postgresql" else statements_per_table


def statements(queries: CaptureQueriesContext) -> list[str]:
    return [
        q["sql"] for q in queries.captured_queries if not q["sql"].startswith(TRANSACTION_CONTROL)
    ]


def heads_up(alice: Client, bob: Client, **fields) -> int:
    match = alice.post("/api/v1/matches/", {"ruleset": "switch", "seats": 2, **fields}).json()["id"]
    if not fields.get("bots"):
        bob.post(f"/api/v1/matches/{match}/join/")
    alice.post(f"/api/v1/matches/{match}/start/")
    return match


def mover(match: int, *clients: Client) -> Client:
    for client in clients:
        if client.get(f"/api/v1/matches/{match}/").json()["legal_moves"]:
            return client
    raise AssertionError("nobody is to move")


def test_the_callers_profile_costs_three_statements_token_with_profile_counts_and_rating(alice):
    with CaptureQueriesContext(connection) as queries:
        assert alice.get("/api/v1/players/me/").json()["username"] == "alice"

    assert len(statements(queries)) == 3, statements(queries)


def test_a_view_costs_two_statements_token_and_match(alice, bob):
    match = heads_up(alice, bob)

    with CaptureQueriesContext(connection) as queries:
        assert alice.get(f"/api/v1/matches/{match}/").status_code == 200

    assert len(statements(queries)) <= 2, statements(queries)


def test_a_move_costs_a_read_and_a_write_when_a_player_is_told_it_is_their_turn(alice, bob):
    match = heads_up(alice, bob)
    client = mover(match, alice, bob)
    draw = {"action": "draw"}  # ends the turn in switch: the other player is told

    with CaptureQueriesContext(connection) as queries:
        assert client.post(f"/api/v1/matches/{match}/moves/", draw).status_code == 201

    # token; the match with its seats; the write (the conditional update, the events, the feed:
    # the player's counter and the entry).
    assert len(statements(queries)) == 2 + writes(4), statements(queries)


def test_a_move_costs_a_read_and_a_write_when_a_bot_is_next(alice, bob):
    match = heads_up(alice, bob, bots=[{"seat": 1, "strategy": "random"}])

    with CaptureQueriesContext(connection) as queries:
        answer = alice.post(f"/api/v1/matches/{match}/moves/", {"action": "draw"})

    assert answer.status_code == 201
    # token; the match with its seats; the write (the conditional update, the events).
    assert len(statements(queries)) == 2 + writes(2), statements(queries)


def test_a_bot_move_costs_a_read_and_a_write(staff):
    """A table of bots (the bots of this test wait for a worker: nothing runs after commit here)."""
    organiser = get_user_model().objects.get(username=staff.username)
    bots = [{"seat": seat, "strategy": "random"} for seat in range(3)]
    created = services.match_create(
        creator=organiser, ruleset="switch", seats=3, bots_wanted=bots, players=[None] * 3
    )
    services.match_start(match_id=created.pk, user=organiser)
    before = Match.objects.get(pk=created.pk).version

    with CaptureQueriesContext(connection) as queries:
        played, more = services.bot_turns_play(match_id=created.pk, limit=1)

    assert (played, more) == (1, True)
    assert Match.objects.get(pk=created.pk).version == before + 1
    assert len(statements(queries)) == 1 + writes(2), statements(queries)
