"""Tasks in-process under ``make run`` (switchsite.tasks.InProcessWorker): a served process without a
broker runs the tasks it publishes on a thread of its own, so that a move is answered without
waiting for the bots it wakes; what the worker had not run when it stopped, the sweep finds."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from games import services, tasks
from games.models import Match
from switchgame import bots
from switchsite.tasks import in_process_worker
from tests.api.conftest import Client
from tests.api.test_matches import LAYOUT
from tests.conftest import seat_to_move, seat_zero_to_move_or_over, with_game_powers

pytestmark = pytest.mark.django_db(transaction=True)

HOLD_SECONDS = 30  # how long a held bot waits for the test at most (a failing test ends)


def wait_until(condition: Callable[[], bool], seconds: float = HOLD_SECONDS) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


@pytest.fixture
def worker(tasks_in_process) -> Iterator[None]:
    """The in-process worker, as a served process without a broker starts it."""
    in_process_worker.start()
    yield
    in_process_worker.stop(HOLD_SECONDS)


@pytest.fixture
def held_bots(monkeypatch) -> Iterator[dict[str, Any]]:
    """Bots that think until the test releases them (``release``), in the matches it names
    (``matches``: all when empty); ``thinking`` is set when one has started."""
    held: dict[str, Any] = {
        "matches": set(),
        "thinking": threading.Event(),
        "release": threading.Event(),
    }
    choose = bots.choose_action

    def slow(strategy: str, **kwargs: Any) -> dict[str, Any]:
        match_id = int(kwargs["seed"].split(":")[0])
        if not held["matches"] or match_id in held["matches"]:
            held["thinking"].set()
            held["release"].wait(HOLD_SECONDS)
        return choose(strategy, **kwargs)

    monkeypatch.setattr(bots, "choose_action", slow)
    yield held
    held["release"].set()


def against_a_bot(username: str) -> tuple[Match, str]:
    """A started heads-up match against the heuristic bot, laid out so that its creator (seat 0,
    whose token comes with it) is to move: 7H on the starter 9H."""
    creator, token = services.player_register(username=username, password="a-long-password")
    created = services.match_create(
        creator=with_game_powers(creator),
        ruleset="switch",
        seats=2,
        bots_wanted=[{"seat": 1, "strategy": "heuristic"}],
        layout=LAYOUT,
    )
    return services.match_start(match_id=created.pk, user=creator).match, token


def test_a_move_is_answered_before_the_bot_it_wakes_has_thought(worker, held_bots) -> None:
    match, token = against_a_bot("quick")

    answer = Client("quick", token).post(
        f"/api/v1/matches/{match.pk}/moves/", {"action": "play", "card": "7H"}
    )
    bot_to_move_when_answered = seat_to_move(match.pk) == 1
    assert held_bots["thinking"].wait(HOLD_SECONDS)  # the worker's thread took the bot's turn
    held_bots["release"].set()
    wait_until(lambda: seat_zero_to_move_or_over(match.pk))

    assert answer.status_code == 201, answer.content
    assert bot_to_move_when_answered  # the bot had not moved: it was thinking on the worker


def test_what_the_worker_had_not_run_when_it_stopped_the_sweep_publishes_again(
    worker, held_bots
) -> None:
    first, _ = against_a_bot("first")
    second, _ = against_a_bot("second")
    held_bots["matches"].add(first.pk)
    for match in (first, second):
        user = get_user_model().objects.get(pk=match.created_by_id)
        services.action_apply(match_id=match.pk, user=user, action={"action": "play", "card": "7H"})
    assert held_bots["thinking"].wait(HOLD_SECONDS)  # the first match's bot holds the thread

    in_process_worker.stop(0)  # the second match's bot still queued behind it
    held_bots["release"].set()
    wait_until(lambda: not any(t.name == "switch-tasks" for t in threading.enumerate()))
    left = Match.objects.get(pk=second.pk)
    quiet = timezone.now() - timedelta(seconds=60)
    Match.objects.filter(pk=second.pk).update(updated_at=quiet)  # as the sweep finds it later
    swept = tasks.sweep_stalled_matches()  # no worker now: run in this thread

    assert seat_zero_to_move_or_over(first.pk)  # the move being played was finished
    assert left.bot_to_move  # the one queued was dropped, not played
    assert swept == 1
    assert seat_zero_to_move_or_over(second.pk)
