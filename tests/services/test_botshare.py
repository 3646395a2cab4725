"""The bot workers shared between players (games.botshare, docs/operations.md "Fair shares"): a
player's bot work goes behind others' as their bots use more of the workers, past their share it
is played one slice at a time, and a slice ends after its time with at least one move."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model

from games import botshare, services, tasks
from games.models import Match

pytestmark = pytest.mark.django_db


@pytest.fixture
def share(settings: Any) -> int:
    settings.BOT_SHARE_SECONDS = 10
    return 10


def all_bots(seats: int = 2) -> Match:
    """A started match of random bots, their first move to play."""
    ann = get_user_model().objects.create_user("ann")
    match = services.match_create(
        creator=ann,
        ruleset="switch",
        seats=seats,
        bots_wanted=[{"seat": seat, "strategy": "random"} for seat in range(seats)],
        players=[None] * seats,
    )
    services.match_start(match_id=match.pk, user=ann)
    return Match.objects.get(pk=match.pk)


def test_a_players_bot_work_goes_behind_others_as_their_bots_use_more_of_the_workers(share):
    levels = [botshare.priority(1)]
    for seconds in (9.9, 0.2, 20, 30):
        botshare.spent(1, seconds)
        levels.append(botshare.priority(1))

    # Under the share, at it, three and six times it (docs: 0, 3, 6, 9).
    assert levels == [0, 0, 3, 6, 9]
    assert botshare.priority(2) == 0  # another player's is their own


def test_past_their_share_a_player_has_one_slice_played_at_a_time(share):
    assert botshare.slice_begins(1) == ""  # within their share: no lock, no wait
    botshare.spent(1, share)

    first = botshare.slice_begins(1)
    assert first
    assert botshare.slice_begins(1) is None
    assert botshare.slice_begins(2) == ""
    botshare.slice_ends(first)
    assert botshare.slice_begins(1)


def test_a_slice_ends_after_its_seconds_with_at_least_one_move():
    match = all_bots()

    assert services.bot_turns_play(match_id=match.pk, seconds=0) == (1, True)
    played, _ = services.bot_turns_play(match_id=match.pk, seconds=60)
    assert played > 1


def test_a_heavy_players_task_waits_while_a_slice_of_theirs_is_played(share, monkeypatch):
    match = all_bots()
    published: list[tuple[tuple[Any, ...], dict[str, Any]]] = []
    monkeypatch.setattr(tasks, "tasks_run_inline", lambda: False)
    monkeypatch.setattr(botshare, "publish", lambda *a, **k: published.append((a, k)))
    payer = match.created_by_id
    botshare.spent(payer, share * 3)
    playing = botshare.slice_begins(payer)  # a slice of theirs on another worker

    assert tasks.play_bot_turns(match.pk, payer) == 0
    assert Match.objects.get(pk=match.pk).version == match.version
    assert published == [
        (
            ("games.tasks.play_bot_turns", match.pk, payer),
            {"priority": 6, "countdown": botshare.SLICE_SECONDS},
        )
    ]

    botshare.slice_ends(playing or "")
    published.clear()
    monkeypatch.setattr(botshare, "SLICE_SECONDS", 0)  # one move a slice
    assert tasks.play_bot_turns(match.pk, payer) == 1
    (continued,) = published  # the rest of the bots' run, behind others' and at no delay
    assert continued[1] == {"priority": 6, "countdown": None}
