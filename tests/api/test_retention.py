"""the API guide "Data that lasts for years": events and feed entries go EVENT_RETENTION_DAYS after
their match ended (the log stays, archived, for the record), a cursor into what went gets 410
``cursor_expired`` with ``oldest``, and Idempotency-Keys are kept 24 hours."""

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from games import selectors, services
from games.models import ArchivedLog, FeedEvent, Match, MatchEvent, Player
from games.tasks import purge_old_events
from switchsite.models import IdempotentRequest
from switchsite.tasks import purge_expired_idempotency_keys
from tests.api.conftest import Client, assert_problem
from tests.api.test_matches import started_match
from tests.api.test_moves import streamed_text

pytestmark = pytest.mark.django_db

# Seat 0 holds one card that follows the starter: its first play ends the one-deal match.
LAST_CARD = {"hands": [["9S"], ["5D", "6D"]], "starter": "9H", "stock": ["TC"]}


def finished_match(staff: Client, bob: Client, *, days_ago: int) -> Match:
    match_id = started_match(staff, bob, layout=LAST_CARD)
    played = staff.post(f"/api/v1/matches/{match_id}/moves/", {"action": "play", "card": "9S"})
    assert played.status_code == 201
    Match.objects.filter(pk=match_id).update(finished_at=timezone.now() - timedelta(days=days_ago))
    match = Match.objects.get(pk=match_id)
    assert match.status == Match.Status.FINISHED
    return match


def test_events_of_a_match_ended_long_ago_go_and_its_log_is_kept_for_its_record(staff, bob):
    old = finished_match(staff, bob, days_ago=31)
    recent = finished_match(staff, bob, days_ago=29)
    log = selectors.match_log(match=old)
    record = bob.get(f"/api/v1/matches/{old.pk}/record/").json()

    assert purge_old_events.apply().get() == (1, 0)

    assert not MatchEvent.objects.filter(match=old).exists()
    assert not FeedEvent.objects.filter(match=old).exists()
    assert selectors.match_log(match=old) == log
    assert bob.get(f"/api/v1/matches/{old.pk}/record/").json() == record
    assert record["deals"][0]["actions"]  # a real record, made from the archived log
    assert [e["seq"] for e in log] == list(range(1, old.last_event_seq + 1))
    assert MatchEvent.objects.filter(match=recent).count() == recent.last_event_seq
    assert FeedEvent.objects.filter(match=recent).exists()
    assert purge_old_events.apply().get() == (0, 0)  # done once: nothing left to do
    assert ArchivedLog.objects.count() == 1


def test_a_cursor_into_removed_events_gets_410_with_the_oldest_kept(staff, bob, settings):
    settings.SSE_MAX_SECONDS = 0
    match = finished_match(staff, bob, days_ago=31)
    services.old_events_purge(seconds=5)
    events = f"/api/v1/matches/{match.pk}/events/"
    last = match.last_event_seq

    for answer in (
        staff.get(f"{events}?after=0"),
        staff.get(f"{events}?after={last - 1}&wait=1"),
        staff.get(f"/api/v1/matches/{match.pk}/stream/", HTTP_LAST_EVENT_ID="2"),
    ):
        assert assert_problem(answer, 410, "cursor_expired")["oldest"] == last + 1
    assert staff.get(f"{events}?after={last}").json()["results"] == []  # nothing was missed


def test_a_feed_cursor_into_removed_entries_gets_410_and_later_entries_still_come(
    staff, bob, settings
):
    settings.SSE_MAX_SECONDS = 0
    finished_match(staff, bob, days_ago=31)
    services.old_events_purge(seconds=5)
    newer = finished_match(staff, bob, days_ago=0)
    bobs = FeedEvent.objects.filter(player__user__username="bob")
    oldest = min(bobs.values_list("seq", flat=True))

    for answer in (
        bob.get("/api/v1/players/me/events/?after=0"),
        bob.get("/api/v1/players/me/stream/", HTTP_LAST_EVENT_ID="1"),
    ):
        assert assert_problem(answer, 410, "cursor_expired")["oldest"] == oldest
    resumed = bob.get(f"/api/v1/players/me/events/?after={oldest - 1}").json()["results"]
    assert [e["seq"] for e in resumed] == list(range(oldest, oldest + len(resumed)))
    assert {e["match"] for e in resumed} == {newer.pk}
    streamed = streamed_text(
        bob.http.get("/api/v1/players/me/stream/", HTTP_LAST_EVENT_ID=str(oldest - 1))
    )
    assert f"id: {oldest}\n" in streamed


def test_a_feed_whose_every_entry_went_answers_410_then_nothing_from_its_last(staff, bob):
    finished_match(staff, bob, days_ago=31)
    services.old_events_purge(seconds=5)
    last = Player.objects.get(user__username="bob").feed_seq

    body = assert_problem(bob.get("/api/v1/players/me/events/"), 410, "cursor_expired")

    assert body["oldest"] == last + 1
    assert bob.get(f"/api/v1/players/me/events/?after={last}").json()["results"] == []


def test_an_idempotency_key_is_kept_24_hours_then_free_and_removed(staff, bob):
    match_id = started_match(staff, bob, layout=LAST_CARD)
    moves = f"/api/v1/matches/{match_id}/moves/"
    refused = staff.post(moves, {"action": "play", "card": "5D"}, HTTP_IDEMPOTENCY_KEY="k")
    assert_problem(refused, 422, "illegal_move")  # a refusal is kept as the key's answer
    assert_problem(
        staff.post(moves, {"action": "play", "card": "9S"}, HTTP_IDEMPOTENCY_KEY="k"),
        422,
        "idempotency_key_reused",
    )
    IdempotentRequest.objects.update(created_at=timezone.now() - timedelta(hours=25))

    again = staff.post(moves, {"action": "play", "card": "9S"}, HTTP_IDEMPOTENCY_KEY="k")

    assert again.status_code == 201, again.content  # a new request: applied
    assert "Idempotent-Replayed" not in again
    assert purge_expired_idempotency_keys.apply().get() == 0  # renewed: kept
    IdempotentRequest.objects.update(created_at=timezone.now() - timedelta(hours=25))
    user = get_user_model().objects.get(username=staff.username)
    IdempotentRequest.objects.create(user=user, key="fresh", fingerprint="-")
    assert purge_expired_idempotency_keys.apply().get() == 1
    assert list(IdempotentRequest.objects.values_list("key", flat=True)) == ["fresh"]
