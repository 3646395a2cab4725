"""Nothing is lost when a worker or the broker fails (docs/operations.md): real worker processes,
a real redis-server of the test's own, killed and stopped for real. What brings the games back is
the sweep over the database, not the queue."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from games import services
from games.models import Match
from tests.api.conftest import Client
from tests.conftest import seat_zero_to_move_or_over
from tests.faults.conftest import wait_until

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.fault]

# What the worker's beat logs when it cannot publish the sweep (every second here) to the broker.
SWEEP_REFUSED = "beat: Connection error"


def versions(match_ids: list[int]) -> dict[int, int]:
    return dict(Match.objects.filter(pk__in=match_ids).values_list("pk", "version"))


def all_bot_match(organiser) -> int:
    """Four random bots over a hundred deals: a worker plays such matches without a pause (each
    task plays ten moves and publishes the next), so a kill lands in the middle of a task, and no
    match ends during the test. A cheap bot: what is tested is the recovery, not the bots."""
    bots = [{"seat": seat, "strategy": "random"} for seat in range(4)]
    match = services.match_create(
        creator=organiser,
        ruleset="switch",
        seats=4,
        deals=100,
        bots_wanted=bots,
        players=[None] * 4,
    )
    return services.match_start(match_id=match.pk, user=organiser).match.pk


def moved_on(before: dict[int, int]) -> bool:
    now = Match.objects.filter(pk__in=before)
    return all(m.version > before[m.pk] or m.status != Match.Status.ACTIVE for m in now)


def test_a_worker_killed_mid_turn_loses_no_game(private_redis, start_worker, publishing_to):
    publishing_to(private_redis.url)
    organiser = get_user_model().objects.create_user("desk", is_staff=True)
    matches = [all_bot_match(organiser) for _ in range(3)]
    first = start_worker(private_redis.url, "first")
    started = versions(matches)
    wait_until(lambda: moved_on(started), 60, "the first worker plays")

    first.kill()  # returns once the process group is gone: from here on nothing plays
    at_kill = versions(matches)
    assert Match.objects.filter(pk__in=matches, status=Match.Status.ACTIVE).count() == 3
    start_worker(private_redis.url, "second")

    # The wait is for the recovery (the sweep finds the matches the lost task left, every second
    # here), not for the bots' speed; on a loaded CI machine a worker's start alone takes seconds.
    wait_until(lambda: moved_on(at_kill), 120, "every game moves on after the kill")


def test_a_broker_outage_loses_no_move_and_no_worker(
    private_redis, start_worker, publishing_to, make_client
):
    publishing_to(private_redis.url)
    worker = start_worker(private_redis.url, "worker")
    players: list[Client] = [make_client(f"human{n}") for n in range(3)]
    matches = []
    for player in players:
        bots = [{"seat": seat, "strategy": "heuristic"} for seat in (1, 2, 3)]
        created = player.post(
            "/api/v1/matches/", {"ruleset": "switch", "seats": 4, "bots": bots, "deals": 3}
        )
        matches.append(created.json()["id"])
        assert player.post(f"/api/v1/matches/{matches[-1]}/start/").status_code == 200

    private_redis.stop()
    before = versions(matches)
    for player, match_id in zip(players, matches, strict=True):
        view = player.get(f"/api/v1/matches/{match_id}/").json()
        moved = player.post(f"/api/v1/matches/{match_id}/moves/", view["legal_moves"][-1])
        assert moved.status_code == 201, moved.content  # committed, so answered 2xx
    # The sweep has run during the outage and found the broker gone: still no bot has moved, as
    # every way to a bot's move goes through the broker.
    wait_until(lambda: SWEEP_REFUSED in worker.log.read_text(), 30, "the sweep meets the outage")
    assert versions(matches) == {m: v + 1 for m, v in before.items()}, "no bot moved meanwhile"
    private_redis.start()

    wait_until(lambda: all(seat_zero_to_move_or_over(m) for m in matches), 60, "the bots answer")
    assert worker.alive(), worker.log.read_text()[-3000:]
    assert all(v > before[m] + 1 for m, v in versions(matches).items())
