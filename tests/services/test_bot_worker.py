"""Bots played by a real Celery worker through the broker (issue 6): the human moves, the bots answer
until it is the human's turn again; stale and duplicate tasks apply nothing."""

import time

import pytest
from celery.signals import task_postrun
from django.contrib.auth import get_user_model

from games import selectors, services, tasks
from games.models import Match, MatchEvent
from tests.conftest import seat_zero_to_move_or_over

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.celery_worker]


def wait_until(condition, timeout: float = 20.0, every: float = 0.05) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out waiting for the worker"
        time.sleep(every)


def test_bots_answer_through_the_worker_until_the_human_moves_again(celery_worker):
    human = get_user_model().objects.create_user("human")
    bots = [{"seat": seat, "strategy": "heuristic"} for seat in (1, 2, 3)]
    match = services.match_create(creator=human, ruleset="switch", seats=4, bots_wanted=bots)
    match = services.match_start(match_id=match.pk, user=human).match
    game = selectors.match_load(match_id=match.pk).game
    assert game.to_move == 0

    services.action_apply(match_id=match.pk, user=human, action=game.legal_actions()[0])
    wait_until(lambda: seat_zero_to_move_or_over(match.pk))

    bots_that_moved = set(
        MatchEvent.objects.filter(match=match, type__in=["play", "draw"], seat__gt=0).values_list(
            "seat", flat=True
        )
    )
    assert len(bots_that_moved) >= 2  # an 8 may skip one of the three

    settled = Match.objects.get(pk=match.pk)
    done: dict[str, object] = {}  # task id: what the task returned, once the worker ran it

    def finished(task_id: str, retval: object, **_: object) -> None:
        done[task_id] = retval

    task_postrun.connect(finished, weak=False)  # the worker runs in this process (a thread)
    try:
        duplicates = [
            tasks.play_bot_turns.delay(match.pk) for _ in range(2)
        ]  # the human is to move
        wait_until(lambda: all(task.id in done for task in duplicates))
    finally:
        task_postrun.disconnect(finished)
    assert [done[task.id] for task in duplicates] == [0, 0]  # no move played
    assert Match.objects.get(pk=match.pk).version == settled.version


def test_an_expired_turn_gets_its_default_action_from_the_worker(celery_worker):
    human, other = (get_user_model().objects.create_user(name) for name in ("slow", "other"))
    match = services.match_create(creator=human, ruleset="switch", seats=2, turn_seconds=1)
    services.match_join(match_id=match.pk, user=other)
    match = services.match_start(match_id=match.pk, user=human).match

    def swept_and_timed_out() -> bool:
        tasks.sweep_stalled_matches.delay()  # what beat does every few seconds
        return MatchEvent.objects.filter(match=match, type="timeout").exists()

    wait_until(swept_and_timed_out, timeout=15, every=0.5)

    timeout = MatchEvent.objects.filter(match=match, type="timeout").order_by("seq").first()
    assert timeout is not None
    following = MatchEvent.objects.get(match=match, seq=timeout.seq + 1)
    assert timeout.seat == 0
    assert timeout.data == {"strikes": 1}
    assert following.type == "draw"  # switch's default: draw one, ending the turn
