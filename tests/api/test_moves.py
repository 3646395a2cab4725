"""the API guide "Actions" and "Events": moves with every error code, idempotency, events, streams, feeds."""

import json

import pytest
from asgiref.sync import async_to_sync
from django.db.models import F
from rest_framework.test import APIClient

from games.models import Match, MatchEvent
from games.services import matches, pipeline
from tests.api.conftest import assert_problem
from tests.api.test_matches import LAYOUT, started_match

pytestmark = pytest.mark.django_db


@pytest.fixture
def match_id(staff, bob) -> int:
    """switch, two seats: staff (seat 0, to move: 7H 9S 2C JD KH 3C 4C) v bob; starter 9H."""
    return started_match(staff, bob, layout=LAYOUT)


def moves(match_id: int) -> str:
    return f"/api/v1/matches/{match_id}/moves/"


def streamed_text(response) -> str:
    """The whole body of a stream (an async iterator: the streams are async views)."""

    async def read() -> bytes:
        return b"".join([chunk async for chunk in response.streaming_content])

    return async_to_sync(read)().decode()


def snapshot(match_id: int) -> tuple:
    match = Match.objects.get(pk=match_id)
    return match.version, match.state, MatchEvent.objects.filter(match=match).count()


def test_a_legal_play_answers_201_with_its_event_and_the_new_view(staff, match_id):
    response = staff.post(moves(match_id), {"action": "play", "card": "7H"})

    assert response.status_code == 201
    body = response.json()
    assert body["event"]["type"] == "play"
    assert body["event"]["data"]["card"] == "7H"
    assert body["events"][0] == body["event"]
    assert body["view"]["top_card"] == "7H"
    assert "7H" not in body["view"]["you"]["hand"]
    assert body["view"]["to_move"] == 1


def test_every_legal_move_can_be_posted_back_as_it_is(staff, match_id):
    legal = staff.get(f"/api/v1/matches/{match_id}/").json()["legal_moves"]
    jack = next(m for m in legal if m.get("card") == "JD" and m.get("suit") == "S")

    response = staff.post(moves(match_id), jack)

    assert response.status_code == 201
    assert response.json()["view"]["active_suit"] == "S"


def test_card_aliases_are_accepted_and_answers_are_canonical(staff, match_id):
    response = staff.post(moves(match_id), {"action": "play", "card": "kh"})

    assert response.status_code == 201
    assert response.json()["view"]["top_card"] == "KH"


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"action": "play", "card": "3C"}, 422, "illegal_move"),
        ({"action": "play", "card": "QS"}, 422, "illegal_move"),
        ({"action": "fly"}, 400, "invalid_action"),
        ({"action": "play", "card": "ZZ"}, 400, "invalid_action"),
        ({"action": "play", "card": 7}, 400, "invalid_action"),
        ({"action": "play"}, 400, "invalid_action"),
        ({"card": "7H"}, 400, "invalid_action"),
        ({"action": 3}, 400, "invalid_action"),
        ({"action": "play", "card": "7H", "expected_version": "one"}, 400, "invalid_action"),
        ({"action": "move", "to": [0, 0]}, 400, "invalid_action"),
        (["play", "7H"], 400, "invalid_action"),
    ],
)
def test_refused_actions_are_problems_and_change_nothing(staff, match_id, body, status, code):
    before = snapshot(match_id)

    problem = assert_problem(staff.post(moves(match_id), body), status, code)

    assert snapshot(match_id) == before
    if code == "illegal_move" and body["card"] == "3C":
        assert problem["detail"] == "3C does not match 9H or the active suit H"


@pytest.mark.parametrize("body", ["{not json", "[" * 50_000], ids=["malformed", "nested"])
def test_a_body_that_is_not_json_is_invalid_json(staff, match_id, body):
    before = snapshot(match_id)

    response = staff.http.post(moves(match_id), data=body, content_type="application/json")

    assert_problem(response, 400, "invalid_json")
    assert snapshot(match_id) == before


def test_a_huge_body_is_refused_with_413(staff, match_id):
    before = snapshot(match_id)
    body = json.dumps({"action": "play", "card": "7H", "padding": "x" * 1_000_000})

    response = staff.http.post(moves(match_id), data=body, content_type="application/json")

    assert_problem(response, 413, "payload_too_large")
    assert snapshot(match_id) == before


def test_another_seats_turn_is_409_not_your_turn(bob, match_id):
    before = snapshot(match_id)

    assert_problem(bob.post(moves(match_id), {"action": "draw"}), 409, "not_your_turn")
    assert snapshot(match_id) == before


def test_a_spectator_is_403_not_seated(carol, match_id):
    assert_problem(carol.post(moves(match_id), {"action": "draw"}), 403, "not_seated")


def test_unknown_match_is_404(staff):
    assert_problem(staff.post(moves(424242), {"action": "draw"}), 404, "not_found")


def test_a_match_that_has_not_started_is_409_match_not_active(alice):
    match_id = alice.post("/api/v1/matches/", {"ruleset": "switch", "seats": 2}).json()["id"]

    assert_problem(alice.post(moves(match_id), {"action": "draw"}), 409, "match_not_active")


def test_expected_version_guards_against_stale_views(staff, match_id):
    version = staff.get(f"/api/v1/matches/{match_id}/").json()["version"]

    assert_problem(
        staff.post(
            moves(match_id), {"action": "play", "card": "7H", "expected_version": version - 1}
        ),
        409,
        "stale_version",
    )
    ok = staff.post(moves(match_id), {"action": "play", "card": "7H", "expected_version": version})
    assert ok.status_code == 201
    assert ok.json()["view"]["version"] == version + 1


def test_a_replayed_idempotency_key_returns_the_first_answer_and_applies_nothing(staff, match_id):
    first = staff.post(
        moves(match_id), {"action": "play", "card": "7H"}, HTTP_IDEMPOTENCY_KEY="k-1"
    )
    after_first = snapshot(match_id)

    again = staff.post(
        moves(match_id), {"action": "play", "card": "7H"}, HTTP_IDEMPOTENCY_KEY="k-1"
    )

    assert again.status_code == first.status_code == 201
    assert again.json() == first.json()
    assert again["Idempotent-Replayed"] == "true"
    assert snapshot(match_id) == after_first


def test_a_replayed_key_returns_the_first_refusal_too(staff, match_id):
    first = staff.post(
        moves(match_id), {"action": "play", "card": "3C"}, HTTP_IDEMPOTENCY_KEY="k-2"
    )
    again = staff.post(
        moves(match_id), {"action": "play", "card": "3C"}, HTTP_IDEMPOTENCY_KEY="k-2"
    )

    assert first.status_code == again.status_code == 422
    assert again.json() == first.json()


def test_a_key_reused_for_a_different_request_is_refused(staff, match_id):
    staff.post(moves(match_id), {"action": "play", "card": "7H"}, HTTP_IDEMPOTENCY_KEY="k-3")
    before = snapshot(match_id)

    response = staff.post(moves(match_id), {"action": "draw"}, HTTP_IDEMPOTENCY_KEY="k-3")

    assert_problem(response, 422, "idempotency_key_reused")
    assert snapshot(match_id) == before


def test_keys_belong_to_their_caller(staff, bob, match_id):
    staff.post(moves(match_id), {"action": "play", "card": "7H"}, HTTP_IDEMPOTENCY_KEY="shared")

    response = bob.post(moves(match_id), {"action": "draw"}, HTTP_IDEMPOTENCY_KEY="shared")

    assert response.status_code == 201
    assert response.json()["event"]["seat"] == 1


def test_drawn_cards_are_seen_only_by_the_drawer_until_the_match_ends(staff, bob, carol, match_id):
    staff.post(moves(match_id), {"action": "draw"})

    def draw_event(client):
        events = client.get(f"/api/v1/matches/{match_id}/events/").json()["results"]
        return next(e for e in events if e["type"] == "draw")

    assert draw_event(staff)["data"]["cards"] == ["TC"]
    assert "cards" not in draw_event(bob)["data"]
    assert "cards" not in draw_event(carol)["data"]
    assert draw_event(bob)["data"]["count"] == 1


def test_dealt_hands_are_private_events(staff, bob, match_id):
    def hand_events(client):
        events = client.get(f"/api/v1/matches/{match_id}/events/").json()["results"]
        return {e["seat"]: e["data"].get("cards") for e in events if e["type"] == "hand"}

    assert hand_events(staff) == {0: LAYOUT["hands"][0], 1: None}
    assert hand_events(bob) == {0: None, 1: LAYOUT["hands"][1]}


def test_events_after_n_oldest_first_with_paging(staff, match_id):
    staff.post(moves(match_id), {"action": "play", "card": "7H"})
    everything = staff.get(f"/api/v1/matches/{match_id}/events/").json()
    seqs = [e["seq"] for e in everything["results"]]

    assert seqs == sorted(seqs)
    assert seqs[0] == 1
    later = staff.get(f"/api/v1/matches/{match_id}/events/?after={seqs[1]}").json()
    assert [e["seq"] for e in later["results"]] == seqs[2:]
    first_page = staff.get(f"/api/v1/matches/{match_id}/events/?limit=2").json()
    assert [e["seq"] for e in first_page["results"]] == seqs[:2]
    assert first_page["count"] == len(seqs)
    assert f"after={seqs[1]}" in first_page["next"]
    deal = everything["results"][0]
    assert deal["type"] == "deal"
    assert len(deal["data"]["shuffle_commitment"]) == 64
    assert_problem(staff.get(f"/api/v1/matches/{match_id}/events/?wait=31"), 400, "invalid")


def test_long_poll_returns_at_once_when_events_exist_and_after_wait_when_none(staff, match_id):
    last = staff.get(f"/api/v1/matches/{match_id}/events/").json()["results"][-1]["seq"]

    empty = staff.get(f"/api/v1/matches/{match_id}/events/?after={last}&wait=0.3").json()
    some = staff.get(f"/api/v1/matches/{match_id}/events/?after=0&wait=30").json()

    assert empty["results"] == []
    assert empty["count"] == 0
    assert some["results"]


def test_stream_sends_events_as_sse_and_resumes_after_last_event_id(staff, match_id, settings):
    settings.SSE_MAX_SECONDS = 0

    def read(**headers):
        response = staff.http.get(f"/api/v1/matches/{match_id}/stream/", **headers)
        assert response.status_code == 200
        assert response["Content-Type"] == "text/event-stream"
        return streamed_text(response)

    whole = read()
    ids = [int(line[4:]) for line in whole.splitlines() if line.startswith("id: ")]
    resumed = read(HTTP_LAST_EVENT_ID=str(ids[1]))

    assert ids == list(range(1, len(ids) + 1))
    assert "event: deal" in whole
    assert [int(line[4:]) for line in resumed.splitlines() if line.startswith("id: ")] == ids[2:]


def test_the_feed_tells_each_player_about_their_match_and_turn(staff, bob, match_id):
    staff_feed = staff.get("/api/v1/players/me/events/").json()["results"]
    staff.post(moves(match_id), {"action": "play", "card": "7H"})
    bob_feed = bob.get("/api/v1/players/me/events/").json()["results"]

    assert [e["type"] for e in staff_feed] == ["player_joined", "match_started", "your_turn"]
    assert [e["type"] for e in bob_feed] == ["match_started", "your_turn"]
    assert [e["seq"] for e in bob_feed] == [1, 2]
    assert all(e["match"] == match_id for e in bob_feed)
    after = bob.get(f"/api/v1/players/me/events/?after={bob_feed[-1]['seq']}&wait=0.2").json()
    assert after["results"] == []


def test_feed_stream_is_sse(bob, match_id, settings):
    settings.SSE_MAX_SECONDS = 0

    response = bob.http.get("/api/v1/players/me/stream/")
    text = streamed_text(response)

    assert "event: match_started" in text


def test_streams_answer_only_event_streams(staff, match_id):
    stream = f"/api/v1/matches/{match_id}/stream/"

    assert_problem(staff.get(f"{stream}?format=json"), 406, "not_acceptable")
    assert_problem(
        staff.get("/api/v1/players/me/stream/", HTTP_ACCEPT="application/json"),
        406,
        "not_acceptable",
    )
    assert_problem(staff.get("/api/v1/matches/999999/stream/"), 404, "not_found")
    assert_problem(APIClient().get(stream), 401, "not_authenticated")


def test_a_match_that_keeps_changing_under_a_move_answers_match_busy(match_id, staff, monkeypatch):
    """Each try is overtaken by another writer (the version moves between the read and the
    write): after the pipeline's bounded retries, 409 ``match_busy`` with ``Retry-After``, and
    nothing of the move is written."""
    version = Match.objects.get(pk=match_id).version
    tries = []
    read = matches.match_load

    def overtaken(**kwargs):
        loaded = read(**kwargs)
        tries.append(loaded.read_version)
        Match.objects.filter(pk=match_id).update(version=F("version") + 1)  # another writer
        return loaded

    monkeypatch.setattr(matches, "match_load", overtaken)
    response = staff.post(f"/api/v1/matches/{match_id}/moves/", {"action": "play", "card": "7H"})

    assert_problem(response, 409, "match_busy")
    assert response["Retry-After"] == "1"
    assert tries == [version + n for n in range(pipeline.WRITE_ATTEMPTS)]  # each from a new read
    assert not MatchEvent.objects.filter(match_id=match_id, type="play").exists()
    assert Match.objects.get(pk=match_id).version == version + pipeline.WRITE_ATTEMPTS
