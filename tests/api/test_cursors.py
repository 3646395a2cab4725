"""The API guide, "Restores: cursors carry the database's incarnation": the event endpoints say
which incarnation of the database their events are of (``Switch-Incarnation``), and a cursor that
leads to no events that follow it — of another incarnation, or beyond the last event — is answered
410 ``cursor_expired`` with ``oldest``, ``last`` and the incarnation now, on long polls and
streams alike. The restore itself: tests/faults/test_restore_under_clients.py."""

import pytest

from games.models import Match, Player
from tests.api.conftest import assert_problem
from tests.api.test_matches import started_match

pytestmark = pytest.mark.django_db

ANOTHER_INCARNATION = "0123456789ab"


def expired(answer, *, oldest: int, last: int) -> str:
    """The answer is a 410 with these bounds; returns the incarnation it names."""
    body = assert_problem(answer, 410, "cursor_expired")
    assert (body["oldest"], body["last"]) == (oldest, last)
    return body["incarnation"]


def test_events_say_their_incarnation_and_the_next_page_carries_it(staff, bob):
    match_id = started_match(staff, bob)
    events = f"/api/v1/matches/{match_id}/events/"

    first = bob.get(f"{events}?after=0&limit=1")
    incarnation = first["Switch-Incarnation"]
    second = bob.get(first.json()["next"])

    assert len(incarnation) == 12
    assert f"incarnation={incarnation}" in first.json()["next"]
    assert second.status_code == 200
    assert [e["seq"] for e in second.json()["results"]][:1] == [2]
    assert bob.get("/api/v1/players/me/events/")["Switch-Incarnation"] == incarnation
    assert bob.get(f"/api/v1/matches/{match_id}/stream/")["Switch-Incarnation"] == incarnation


def test_a_cursor_of_another_incarnation_gets_410_on_long_polls_and_streams(staff, bob, settings):
    settings.SSE_MAX_SECONDS = 0
    match_id = started_match(staff, bob)
    last = Match.objects.get(pk=match_id).last_event_seq
    feed_last = Player.objects.get(user__username="bob").feed_seq
    now = bob.get("/api/v1/players/me/events/")["Switch-Incarnation"]
    foreign = f"incarnation={ANOTHER_INCARNATION}"

    for answer in (
        bob.get(f"/api/v1/matches/{match_id}/events/?after=1&wait=1&{foreign}"),
        bob.get(f"/api/v1/matches/{match_id}/stream/?{foreign}", HTTP_LAST_EVENT_ID="1"),
    ):
        assert expired(answer, oldest=1, last=last) == now
    for answer in (
        bob.get(f"/api/v1/players/me/events/?after=1&wait=1&{foreign}"),
        bob.get(f"/api/v1/players/me/stream/?{foreign}", HTTP_LAST_EVENT_ID="1"),
    ):
        assert expired(answer, oldest=1, last=feed_last) == now
    resumed = bob.get(f"/api/v1/matches/{match_id}/events/?after={last}&incarnation={now}")
    assert resumed.status_code == 200
    assert resumed.json()["results"] == []


def test_a_cursor_beyond_the_last_event_gets_410_even_without_its_incarnation(staff, bob, settings):
    """What a client that sends no incarnation still gets after a restore: its cursor is beyond
    the restored log until the new timeline numbers past it."""
    settings.SSE_MAX_SECONDS = 0
    match_id = started_match(staff, bob)
    last = Match.objects.get(pk=match_id).last_event_seq
    feed_last = Player.objects.get(user__username="bob").feed_seq

    for answer in (
        bob.get(f"/api/v1/matches/{match_id}/events/?after={last + 1}"),
        bob.get(f"/api/v1/matches/{match_id}/stream/", HTTP_LAST_EVENT_ID=str(last + 20)),
    ):
        expired(answer, oldest=1, last=last)
    for answer in (
        bob.get(f"/api/v1/players/me/events/?after={feed_last + 1}&wait=1"),
        bob.get("/api/v1/players/me/stream/", HTTP_LAST_EVENT_ID=str(feed_last + 20)),
    ):
        expired(answer, oldest=1, last=feed_last)
