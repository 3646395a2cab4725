"""The ladders' scheduler on real processes (docs/operations.md, "Nothing is lost"): workers with
their beat, on a redis-server of the test's own. Even with two beats ticking — a mistake the
scheduler must survive — each round is seated once; a bot that never answers loses its seat to a
server bot after two timeouts, is made inactive, and its table plays on."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.utils import timezone

from games import services as game_services
from games.models import Match, Seat
from games.services.presence import presence_write
from matchmaking import services
from matchmaking.models import Ladder, LadderTable, Membership
from tests.faults.conftest import wait_until

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.fault]


def test_two_beats_seat_a_round_once_and_silent_bots_hold_up_no_table(
    private_redis, start_worker, publishing_to
) -> None:
    publishing_to(private_redis.url)
    keeper = get_user_model().objects.create_user("keeper")
    keeper.user_permissions.add(Permission.objects.get(codename="add_ladder"))
    ladder = services.ladder_create(
        user=keeper, ruleset="switch", seats=2, interval_seconds=600, turn_seconds=1
    )
    silent = [
        game_services.player_register(username=f"silent{i}", password="pw", bot=True)[0]
        for i in range(3)
    ]
    for user in silent:
        services.ladder_join(ladder_id=ladder.pk, user=user)
    presence_write(seen=dict.fromkeys((u.pk for u in silent), timezone.now()))
    Ladder.objects.filter(pk=ladder.pk).update(next_round_at=timezone.now())

    start_worker(private_redis.url, "first")
    start_worker(private_redis.url, "second")

    wait_until(lambda: LadderTable.objects.filter(match__isnull=False).count() == 2, 60, "seated")
    matches = Match.objects.filter(ladder_table__ladder=ladder)
    # three silent bots at tables of two: one table of two, one with a gatekeeper
    wait_until(lambda: not Membership.objects.filter(active=True).exists(), 60, "all made inactive")
    taken = Seat.objects.filter(match__in=matches, player__in=silent)
    assert {(seat.strikes, seat.bot_strategy) for seat in taken} == {(2, "heuristic")}
    wait_until(
        lambda: not matches.filter(status=Match.Status.ACTIVE).exists(), 120, "tables play on"
    )
    assert set(matches.values_list("status", flat=True)) == {"finished"}
    ladder.refresh_from_db()
    assert ladder.rounds == 1
    assert ladder.next_round_at > timezone.now() + timedelta(seconds=500)
    assert LadderTable.objects.count() == 2
