"""The pipeline's writer and its one retry policy, with a database: every decision a person must
take reaches their feed, and a bot gives up (for the task to hand on) rather than retrying forever."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.db.models import F

from games import services
from games.models import FeedEvent, Match
from games.services import matches, pipeline
from tests.conftest import with_game_powers

pytestmark = pytest.mark.django_db

# jacks-twos-eights (docs/rules.md §3.7): 9H 9S 8S is one turn of three plays by seat 0.
RUN = {"hands": [["9H", "9S", "8S", "KD"], ["5D", "6D"]], "starter": "TH", "stock": ["3C", "4C"]}


def your_turns(user) -> list[dict]:
    feed = FeedEvent.objects.filter(player__user=user, type="your_turn").order_by("seq")
    return [{"seat": e.data["seat"], "version": e.data["version"]} for e in feed]


def test_every_action_that_leaves_a_person_to_act_pushes_your_turn():
    users = get_user_model().objects
    ann, ben = with_game_powers(users.create_user("ann")), users.create_user("ben")
    match = services.match_create(
        creator=ann, ruleset="jacks-twos-eights", seats=2, layout=RUN, players=[ann, ben]
    )
    started = services.match_start(match_id=match.pk, user=ann).match
    assert your_turns(ann) == [{"seat": 0, "version": started.version}]

    for card in ("9H", "9S"):
        result = services.action_apply(
            match_id=match.pk, user=ann, action={"action": "play", "card": card}
        )
        assert your_turns(ann)[-1] == {"seat": 0, "version": result.loaded.match.version}
        assert result.loaded.match.version == your_turns(ann)[-1]["version"]
    services.action_apply(match_id=match.pk, user=ann, action={"action": "play", "card": "8S"})

    assert len(your_turns(ann)) == 3  # the start, then after 9H and 9S: the turn went on
    assert your_turns(ben) == [{"seat": 1, "version": Match.objects.get(pk=match.pk).version}]
    view = FeedEvent.objects.filter(player__user=ben, type="your_turn").get().data["view"]
    assert view["you"]["seat"] == 1
    assert view["legal_moves"]


def test_a_bot_overtaken_on_every_try_gives_up_for_its_task_to_hand_on(monkeypatch):
    ann = get_user_model().objects.create_user("ann")
    match = services.match_create(
        creator=ann,
        ruleset="switch",
        seats=2,
        bots_wanted=[{"seat": 0, "strategy": "random"}],
        players=[None, ann],
    )
    services.match_start(match_id=match.pk, user=ann)  # the bot's task waits for a commit
    read = matches.match_load
    tries = []

    def overtaken(**kwargs):
        loaded = read(**kwargs)
        tries.append(loaded.read_version)
        Match.objects.filter(pk=match.pk).update(version=F("version") + 1)
        return loaded

    monkeypatch.setattr(matches, "match_load", overtaken)

    assert services.bot_turns_play(match_id=match.pk) == (0, True)
    assert len(tries) == pipeline.WRITE_ATTEMPTS
