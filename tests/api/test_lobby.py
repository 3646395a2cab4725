"""Finding a game (docs/api.md "Lobby and challenges"): open matches, auto-start, players joining
and leaving in the feeds, and challenges accepted, declined and cancelled."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import datetime
from typing import Any

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from django.contrib.auth.models import User
from django.utils import timezone
from rest_framework.test import APIClient

from games import services, tasks
from games.models import Challenge
from tests.api.conftest import Client, assert_problem

pytestmark = pytest.mark.django_db


def feed(client: Client, *types: str) -> list[dict]:
    events = client.get("/api/v1/players/me/events/?limit=100").json()["results"]
    return [e for e in events if e["type"] in types]


def create(client: Client, **fields) -> int:
    body = {"ruleset": "switch", "seats": 3, **fields}
    response = client.post("/api/v1/matches/", body)
    assert response.status_code == 201, response.json()
    return response.json()["id"]


def test_open_matches_are_waiting_with_a_free_seat_and_not_mine_newest_first(alice, bob, carol):
    older = create(alice)
    full = create(alice, seats=2)
    bob_s = create(bob)
    newer = create(alice, bots=[{"seat": 1, "strategy": "random"}])
    carol.post(f"/api/v1/matches/{full}/join/")
    bots_only = create(alice, seats=2, bots=[{"seat": 1, "strategy": "random"}])

    lobby = bob.get("/api/v1/matches/?open=true").json()

    assert [m["id"] for m in lobby["results"]] == [newer, older]
    assert bob_s not in [m["id"] for m in lobby["results"]]  # seated there already
    assert bots_only not in [m["id"] for m in lobby["results"]]  # no seat for a player


def test_joining_and_leaving_are_told_to_the_players_seated(alice, bob, carol):
    match = create(alice)

    bob.post(f"/api/v1/matches/{match}/join/")
    carol.post(f"/api/v1/matches/{match}/join/")
    carol.post(f"/api/v1/matches/{match}/resign/")

    alice_news = [(e["type"], e["data"]) for e in feed(alice, "player_joined", "player_left")]
    assert alice_news == [
        ("player_joined", {"match": match, "seat": 1, "player": "bob", "bot_account": False}),
        ("player_joined", {"match": match, "seat": 2, "player": "carol", "bot_account": False}),
        ("player_left", {"match": match, "seat": 2, "player": "carol", "bot_account": False}),
    ]
    assert [e["data"]["player"] for e in feed(bob, "player_joined", "player_left")] == [
        "carol",
        "carol",
    ]
    assert feed(carol, "player_joined", "player_left") == []


def test_an_auto_start_match_starts_when_its_last_seat_is_taken(alice, bob, carol):
    match = create(alice, auto_start=True)

    bob.post(f"/api/v1/matches/{match}/join/")
    assert alice.get(f"/api/v1/matches/{match}/").json()["status"] == "waiting"
    view = carol.post(f"/api/v1/matches/{match}/join/").json()

    assert view["status"] == "active"
    assert len(view["you"]["hand"]) == 7
    for player in (alice, bob, carol):
        assert [e["data"]["match"] for e in feed(player, "match_started")] == [match]


# How long a lobby change may take to reach the stream, and how long one that must not come is awaited.
CHANGE_SECONDS = 5.0
QUIET_SECONDS = 0.5


def lobby_changes(response, steps: list[Callable[[], object]]) -> list[list[str]]:
    """Read the lobby's stream while each step runs (in the test's thread, committing at once):
    for the opening and after each step, the ``changed`` events' ids that came."""

    async def read() -> list[list[str]]:
        chunks: asyncio.Queue[str] = asyncio.Queue()

        async def pump() -> None:
            async for chunk in response.streaming_content:
                await chunks.put(chunk.decode() if isinstance(chunk, bytes) else chunk)

        async def changed(seconds: float) -> list[str]:
            ids = []
            try:
                while True:
                    chunk = await asyncio.wait_for(chunks.get(), seconds)
                    if "event: changed" in chunk:
                        ids.append(chunk.split("\n")[0].removeprefix("id: "))
                        seconds = QUIET_SECONDS  # and anything else that follows at once
            except TimeoutError:
                return ids

        reader = asyncio.create_task(pump())
        seen = [await changed(CHANGE_SECONDS)]
        for step in steps:
            await sync_to_async(step)()
            seen.append(
                await changed(QUIET_SECONDS if step.__name__ == "quiet" else CHANGE_SECONDS)
            )
        reader.cancel()
        return seen

    return async_to_sync(read)()


@pytest.mark.django_db(transaction=True)
def test_the_lobby_stream_says_changed_at_each_opening_seat_start_and_end_never_at_a_move(
    alice, bob, settings
):
    settings.SSE_MAX_SECONDS = 60
    match: dict[str, int] = {}

    def alice_opens_a_match() -> None:
        match["id"] = create(alice, seats=2, auto_start=True, on_resign="forfeit")

    def bob_joins_and_it_starts() -> None:
        assert bob.post(f"/api/v1/matches/{match['id']}/join/").json()["status"] == "active"

    def quiet() -> None:  # a move changes nothing the lobby lists
        for player in (alice, bob):
            view = player.get(f"/api/v1/matches/{match['id']}/").json()
            if view["to_move"] == view["you"]["seat"]:
                move = {**view["legal_moves"][0], "expected_version": view["version"]}
                assert player.post(f"/api/v1/matches/{match['id']}/moves/", move).status_code == 201
                return
        raise AssertionError("nobody was to move")

    def alice_resigns_and_it_ends() -> None:
        view = alice.post(f"/api/v1/matches/{match['id']}/resign/").json()
        assert view["status"] == "abandoned"

    response = alice.http.get("/api/v1/lobby/stream/", HTTP_LAST_EVENT_ID="4")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/event-stream"
    seen = lobby_changes(
        response, [alice_opens_a_match, bob_joins_and_it_starts, quiet, alice_resigns_and_it_ends]
    )

    # One on opening (read the lists now), numbered on from Last-Event-ID, and one per change; on
    # PostgreSQL the listener's first connection may wake the stream once more (it cannot know
    # what it missed before): a spurious change costs a read, a missed one a stale lobby.
    opening, opened, started, moved, ended = seen
    assert opening[0] == "5"
    assert opened
    assert started
    assert ended
    assert moved == []
    ids = [int(i) for i in opening + opened + started + ended]
    assert ids == list(range(5, 5 + len(ids)))
    assert_problem(APIClient().get("/api/v1/lobby/stream/"), 401, "not_authenticated")
    assert_problem(alice.get("/api/v1/lobby/stream/?format=json"), 406, "not_acceptable")
    guest = APIClient()  # a seat link plays its seat, and sees no lobby
    secret = services.seat_token_create(user=User.objects.get(username="bob"))
    guest.credentials(HTTP_AUTHORIZATION=f"Token {secret}")
    assert_problem(guest.get("/api/v1/lobby/stream/"), 403, "insufficient_scope")


def challenge(client: Client, to: list[str], **fields: Any) -> Any:
    body = {"to": to, "ruleset": "switch", "seats": len(to) + 1, **fields}
    return client.post("/api/v1/challenges/", body)


def test_a_challenge_accepted_by_every_invitee_becomes_a_started_match(alice, bob, carol):
    bots = [{"seat": 3, "strategy": "heuristic"}]
    created = challenge(alice, ["bob", "carol"], seats=4, bots=bots, deals=2)

    assert created.status_code == 201, created.json()
    sent = created.json()
    assert sent["from"] == "alice"
    assert sent["to"] == [
        {"player": "bob", "bot_account": False, "answer": None},
        {"player": "carol", "bot_account": False, "answer": None},
    ]
    assert (sent["status"], sent["match"], sent["seats"], sent["deals"]) == ("pending", None, 4, 2)
    assert [e["data"] for e in feed(bob, "challenge")] == [
        {
            "match": None,
            "challenge": sent["id"],
            "from": "alice",
            "from_bot_account": False,
            "ruleset": "switch",
        }
    ]

    halfway = bob.post(f"/api/v1/challenges/{sent['id']}/accept/").json()
    assert (halfway["status"], halfway["to"][0]["answer"]) == ("pending", "accepted")
    done = carol.post(f"/api/v1/challenges/{sent['id']}/accept/").json()

    assert done["status"] == "accepted"
    view = alice.get(f"/api/v1/matches/{done['match']}/").json()
    assert view["status"] == "active"
    assert [s["player"] for s in view["seats"]] == ["alice", "bob", "carol", None]
    assert view["seats"][3]["bot"] == "heuristic"
    assert view["deals"] == 2
    for player in (alice, bob, carol):
        assert [e["data"]["match"] for e in feed(player, "match_started")] == [done["match"]]


def test_a_decline_ends_the_challenge_and_tells_the_others_why(alice, bob, carol):
    sent = challenge(alice, ["bob", "carol"]).json()

    declined = carol.post(f"/api/v1/challenges/{sent['id']}/decline/", {"reason": "later"}).json()

    assert (declined["status"], declined["reason"]) == ("declined", "later")
    for player in (alice, bob):
        assert [e["data"] for e in feed(player, "challenge_declined")] == [
            {"match": None, "challenge": sent["id"], "player": "carol", "reason": "later"}
        ]
    assert feed(carol, "challenge_declined") == []
    ended = bob.post(f"/api/v1/challenges/{sent['id']}/accept/")
    assert_problem(ended, 409, "challenge_not_pending")


def test_a_decline_without_a_reason_is_generic_and_an_unknown_reason_is_refused(alice, bob):
    sent = challenge(alice, ["bob"]).json()
    path = f"/api/v1/challenges/{sent['id']}/decline/"

    assert_problem(bob.post(path, {"reason": "bored"}), 400, "invalid")
    assert bob.get(f"/api/v1/challenges/{sent['id']}/").json()["status"] == "pending"
    declined = bob.post(path).json()

    assert (declined["status"], declined["reason"]) == ("declined", "generic")


def test_the_challenger_cancels(alice, bob):
    sent = challenge(alice, ["bob"]).json()

    assert_problem(bob.post(f"/api/v1/challenges/{sent['id']}/cancel/"), 403, "not_challenger")
    assert_problem(alice.post(f"/api/v1/challenges/{sent['id']}/accept/"), 403, "not_invited")
    cancelled = alice.post(f"/api/v1/challenges/{sent['id']}/cancel/").json()

    assert cancelled["status"] == "cancelled"
    assert [e["data"]["player"] for e in feed(bob, "challenge_cancelled")] == ["alice"]
    assert_problem(
        alice.post(f"/api/v1/challenges/{sent['id']}/cancel/"), 409, "challenge_not_pending"
    )


def test_a_challenge_is_nobody_elses_business(alice, bob, carol):
    sent = challenge(alice, ["bob"]).json()

    assert_problem(carol.get(f"/api/v1/challenges/{sent['id']}/"), 404, "not_found")
    assert_problem(carol.post(f"/api/v1/challenges/{sent['id']}/accept/"), 404, "not_found")
    assert carol.get("/api/v1/challenges/").json()["count"] == 0


def test_the_challenge_list_shows_sent_and_received_and_filters_by_status(alice, bob, carol):
    to_bob = challenge(alice, ["bob"]).json()
    from_carol = challenge(carol, ["alice"]).json()
    ended = challenge(alice, ["carol"]).json()
    alice.post(f"/api/v1/challenges/{ended['id']}/cancel/")

    listed = alice.get("/api/v1/challenges/?status=pending").json()

    assert [c["id"] for c in listed["results"]] == [from_carol["id"], to_bob["id"]]
    assert alice.get("/api/v1/challenges/").json()["count"] == 3


@pytest.mark.parametrize(
    ("to", "fields", "why"),
    [
        (["bob"], {"seats": 3}, "a seat left over"),
        (["bob", "carol"], {"seats": 2}, "more players than seats"),
        (["bob"], {"seats": 2, "bots": [{"seat": 2, "strategy": "random"}]}, "a bot too many"),
        (["bob"], {"seats": 3, "bots": [{"seat": 1, "strategy": "random"}]}, "a bot on bob"),
        (["bob", "bob"], {"seats": 3}, "twice the same"),
        (["nobody"], {}, "an unknown user"),
        (["alice"], {}, "yourself"),
        ([], {"seats": 2, "bots": [{"seat": 1, "strategy": "random"}]}, "nobody invited"),
    ],
)
def test_a_challenge_that_does_not_add_up_is_refused(alice, bob, carol, to, fields, why):
    response = challenge(alice, to, **fields)

    code = "invalid" if not to else "invalid_challenge"
    assert_problem(response, 400, code)


def test_a_challenge_to_an_unknown_ruleset_is_refused_like_a_match(alice, bob):
    assert_problem(challenge(alice, ["bob"], ruleset="chess"), 400, "invalid_ruleset")


def test_a_challenge_expires_when_its_time_is_up_and_both_sides_hear_it(alice, bob, carol):
    sent = challenge(alice, ["bob", "carol"], expires_in=60).json()
    bob.post(f"/api/v1/challenges/{sent['id']}/accept/")
    assert lifetime(sent) == pytest.approx(60, abs=1)
    assert tasks.expire_challenges.apply().get() == 0  # not yet

    Challenge.objects.filter(pk=sent["id"]).update(expires_at=timezone.now())
    assert_problem(
        carol.post(f"/api/v1/challenges/{sent['id']}/accept/"), 409, "challenge_not_pending"
    )
    assert tasks.expire_challenges.apply().get() == 1
    assert tasks.expire_challenges.apply().get() == 0  # once

    assert alice.get(f"/api/v1/challenges/{sent['id']}/").json()["status"] == "expired"
    for player in (alice, bob, carol):
        assert [e["data"] for e in feed(player, "challenge_expired")] == [
            {"match": None, "challenge": sent["id"]}
        ]
    assert [c["id"] for c in bob.get("/api/v1/challenges/?status=expired").json()["results"]] == [
        sent["id"]
    ]


@pytest.mark.parametrize("expires_in", [59, 604801])
def test_a_challenge_expires_within_a_minute_and_a_week(alice, bob, expires_in):
    assert_problem(challenge(alice, ["bob"], expires_in=expires_in), 400, "invalid")


def test_a_challenge_expires_after_a_day_by_default(alice, bob):
    sent = challenge(alice, ["bob"]).json()

    assert lifetime(sent) == pytest.approx(24 * 3600, abs=1)


def lifetime(sent: dict) -> float:
    """Seconds from a challenge's creation to its expiry."""
    ends, starts = (datetime.fromisoformat(sent[time]) for time in ("expires_at", "created_at"))
    return (ends - starts).total_seconds()
