"""Ladders (the API guide, "Ladders and quick play"): created by those allowed to, joined by bot
accounts only and once, seated every interval in rated matches of online bots by rating, server
bots filling the tables; standings best first; a bot that times out twice in a ladder match is
made inactive, and its seat is played by a server bot."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from games import services as game_services
from games.models import FeedEvent, Match, Seat
from matchmaking import services, tasks
from matchmaking.models import Ladder, LadderTable, Membership
from switchsite.api import throttling
from tests.api.conftest import assert_problem
from tests.conftest import seat_to_move
from tests.matchmaking.conftest import due, seen

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("tasks_in_process")]


def join(client, ladder: Ladder):
    return client.post(f"/api/v1/ladders/{ladder.pk}/join/")


def test_a_ladder_is_created_once_per_ruleset_and_table_size(keeper, alice) -> None:
    body = {"ruleset": "switch", "seats": 4, "interval_seconds": 300, "turn_seconds": 20}

    created = keeper.post("/api/v1/ladders/", body)

    assert created.status_code == 201, created.content
    ladder = created.json()
    assert {k: ladder[k] for k in body} == body
    assert (ladder["game"], ladder["members"], ladder["online"], ladder["rounds"]) == (
        "shedding",
        0,
        0,
        0,
    )
    assert_problem(keeper.post("/api/v1/ladders/", body), 409, "ladder_exists")
    assert_problem(alice.post("/api/v1/ladders/", {**body, "seats": 3}), 403, "permission_denied")
    listed = alice.get("/api/v1/ladders/").json()
    assert [row["id"] for row in listed["results"]] == [ladder["id"]]


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"ruleset": "nope", "seats": 2, "interval_seconds": 60}, "invalid_ruleset"),
        ({"ruleset": "abbott", "seats": 3, "interval_seconds": 60}, "invalid"),
        ({"ruleset": "switch", "seats": 2, "interval_seconds": 5}, "invalid"),
    ],
)
def test_a_ladder_the_rules_cannot_seat_is_refused(keeper, body, code) -> None:
    assert_problem(keeper.post("/api/v1/ladders/", body), 400, code)
    assert not Ladder.objects.exists()


def test_people_may_not_join_and_a_bot_joins_once(make_ladder, alice, make_bot) -> None:
    ladder = make_ladder()
    robo = make_bot("robo")

    assert_problem(join(alice, ladder), 403, "bots_only")
    first, again = join(robo, ladder), join(robo, ladder)

    assert first.status_code == again.status_code == 200
    assert again.json()["player"] == "robo"
    assert again.json()["active"] is True
    assert Membership.objects.filter(ladder=ladder).count() == 1
    assert robo.get(f"/api/v1/ladders/{ladder.pk}/").json()["members"] == 1
    assert robo.post(f"/api/v1/ladders/{ladder.pk}/leave/").status_code == 204
    assert not Membership.objects.exists()
    assert_problem(join(robo, Ladder(pk=ladder.pk + 1)), 404, "not_found")


def test_joining_and_leaving_are_rate_limited(make_ladder, make_bot, monkeypatch) -> None:
    rates = {**throttling.ScopedRateThrottle.THROTTLE_RATES, "ladder_membership": "3/minute"}
    monkeypatch.setattr(throttling.ScopedRateThrottle, "THROTTLE_RATES", rates)
    ladder, robo = make_ladder(), make_bot("robo")

    answers = [join(robo, ladder).status_code for _ in range(3)]
    answers.append(robo.post(f"/api/v1/ladders/{ladder.pk}/leave/").status_code)

    assert answers[:3] == [200, 200, 200]
    assert_problem(robo.post(f"/api/v1/ladders/{ladder.pk}/leave/"), 429, "throttled")
    assert answers[3] == 429


def test_a_round_seats_every_online_active_member_once_in_rated_matches(
    make_ladder, make_bot
) -> None:
    ladder = make_ladder(seats=2, turn_seconds=15)
    bots = [make_bot(name) for name in ("ann", "ben", "cid")]
    asleep = make_bot("dozy", online=False)
    for client in [*bots, asleep]:
        join(client, ladder)
    seen("cid", seconds_ago=50)  # still online: within the minute

    tables = services.ladder_round_seat(ladder_id=due(ladder).pk)

    assert len(tables) == 2
    matches = Match.objects.filter(ladder_table__ladder=ladder)
    assert {(m.status, m.rated, m.turn_seconds, m.seat_count) for m in matches} == {
        ("active", True, 15, 2)
    }
    seated = Seat.objects.filter(match__in=matches)
    players = sorted(s.player.username for s in seated if s.player)
    assert players == ["ann", "ben", "cid"]
    assert [s.bot_strategy for s in seated if not s.player] in (["heuristic"], ["montecarlo"])
    started = FeedEvent.objects.filter(type="match_started", player__user__username__in=players)
    assert started.count() == 3
    ladder.refresh_from_db()
    assert ladder.rounds == 1
    assert ladder.next_round_at > timezone.now()
    assert services.ladder_round_seat(ladder_id=ladder.pk) == [], "not due: nothing seated"


def test_a_tick_seats_a_due_round_once_and_starts_a_table_a_dead_worker_left(
    make_ladder, make_bot
) -> None:
    ladder = due(make_ladder(seats=2))
    for name in ("ann", "ben"):
        join(make_bot(name), ladder)
    tasks.run_ladders()
    orphan = LadderTable.objects.create(
        ladder=ladder,
        round=99,
        number=1,
        seating=[{"user": get_user_model().objects.get(username="ann").pk}, {"bot": "heuristic"}],
        seated_at=timezone.now() - timedelta(minutes=1),
    )

    tasks.run_ladders()

    assert Ladder.objects.get(pk=ladder.pk).rounds == 1
    orphan.refresh_from_db()
    assert orphan.match is not None
    assert orphan.match.status == "active"


def test_standings_list_members_and_gatekeepers_best_first(make_ladder, make_bot) -> None:
    ladder = make_ladder(seats=2)
    for name in ("ann", "ben"):
        join(make_bot(name), ladder)
    services.ladder_round_seat(ladder_id=due(ladder).pk)

    rows = make_bot("viewer").get(f"/api/v1/ladders/{ladder.pk}/standings/").json()["results"]

    assert {r["player"] for r in rows} == {"ann", "ben", "bot:heuristic", "bot:montecarlo"}
    assert [r["rating"] for r in rows] == sorted((r["rating"] for r in rows), reverse=True)
    ann = next(r for r in rows if r["player"] == "ann")
    assert set(ann) == {"player", "bot", "rating", "mu", "sigma", "games", "active", "last_match"}
    assert ann["active"] is True
    assert ann["bot"] is True
    assert ann["last_match"] == Match.objects.get(ladder_table__ladder=ladder).pk
    assert ann["rating"] == pytest.approx(ann["mu"] - 3 * ann["sigma"])


def test_two_timeouts_in_a_ladder_match_hand_the_seat_to_a_bot_and_make_it_inactive(
    make_ladder, make_bot
) -> None:
    ladder = make_ladder(seats=2, turn_seconds=5)
    robo = make_bot("robo")
    join(robo, ladder)
    services.ladder_round_seat(ladder_id=due(ladder).pk)
    match = Match.objects.get(ladder_table__ladder=ladder)
    seat = Seat.objects.get(match=match, player__username="robo")

    for _ in range(2):  # the clock runs out on robo's turns, twice; the server bot answers
        game_services.bot_turns_play(match_id=match.pk)
        assert seat_to_move(match.pk) == seat.index
        Match.objects.filter(pk=match.pk).update(turn_deadline=timezone.now() - timedelta(1))
        assert game_services.turn_timeout_apply(match_id=match.pk)
    tasks.run_ladders()

    seat.refresh_from_db()
    assert (seat.strikes, seat.bot_strategy) == (2, "heuristic")
    assert Membership.objects.get(user__username="robo").active is False
    standing = robo.get(f"/api/v1/ladders/{ladder.pk}/standings/").json()["results"]
    assert next(r for r in standing if r["player"] == "robo")["active"] is False
    services.ladder_round_seat(ladder_id=due(ladder).pk)
    assert Match.objects.filter(ladder_table__ladder=ladder).count() == 1, "inactive: not seated"

    join(robo, ladder)  # active again, and its old strikes no longer count
    tasks.run_ladders()
    assert Membership.objects.get(user__username="robo").active is True


def test_old_tables_go_with_the_retention_sweep(make_ladder, make_bot, settings) -> None:
    ladder = make_ladder()
    join(make_bot("robo"), ladder)
    services.ladder_round_seat(ladder_id=due(ladder).pk)
    later = timezone.now() + timedelta(days=settings.EVENT_RETENTION_DAYS, hours=1)

    assert services.matchmaking_purge(now=later) == (1, 0)
    assert not LadderTable.objects.exists()
    assert Match.objects.count() == 1, "the match stays"


def test_a_join_repeated_with_its_idempotency_key_is_answered_alike(make_ladder, make_bot) -> None:
    ladder, robo = make_ladder(), make_bot("robo")

    first = robo.post(f"/api/v1/ladders/{ladder.pk}/join/", HTTP_IDEMPOTENCY_KEY="join-1")
    again = robo.post(f"/api/v1/ladders/{ladder.pk}/join/", HTTP_IDEMPOTENCY_KEY="join-1")

    assert first.status_code == again.status_code == 200
    assert first.json() == again.json()
