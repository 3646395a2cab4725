"""Turn clocks: a passed deadline plays the default action, counts a strike, and three strikes hand
the seat to a bot; late and duplicate deliveries change nothing; a move that arrived before the
deadline is judged by its arrival (tests/serving/test_arrivals.py has it through the server)."""

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from games import services, tasks
from games.models import FeedEvent, Match, MatchEvent, Seat
from switchsite.serving import arrivals
from tests.api.test_matches import LAYOUT
from tests.conftest import seat_to_move, with_game_powers

pytestmark = pytest.mark.django_db


def started(ruleset: str, layout: dict) -> Match:
    """A started heads-up match with a 30-second turn clock; its laid-out deal's creator holds
    seat 0."""
    users = get_user_model().objects
    creator = with_game_powers(users.create_user("clocked"))
    other = users.create_user("other")
    created = services.match_create(
        creator=creator, ruleset=ruleset, seats=2, turn_seconds=30, layout=layout
    )
    services.match_join(match_id=created.pk, user=other)
    return services.match_start(match_id=created.pk, user=creator).match


@pytest.fixture
def match() -> Match:
    return started("switch", LAYOUT)


def expire(match: Match) -> Match:
    """Move the running clock into the past, as if its time had passed."""
    Match.objects.filter(pk=match.pk).update(turn_deadline=timezone.now() - timedelta(seconds=1))
    return Match.objects.get(pk=match.pk)


def test_a_new_turn_gets_a_deadline_turn_seconds_ahead(match):
    assert match.turn_deadline is not None
    remaining = (match.turn_deadline - timezone.now()).total_seconds()
    assert 25 < remaining <= 30


def test_the_clock_does_nothing_before_the_deadline(match):
    version = match.version

    assert services.turn_timeout_apply(match_id=match.pk) is False
    assert Match.objects.get(pk=match.pk).version == version


def test_a_passed_deadline_plays_the_default_action_and_counts_a_strike(match):
    match = expire(match)
    to_move = seat_to_move(match.pk)

    assert services.turn_timeout_apply(match_id=match.pk) is True

    after = Match.objects.get(pk=match.pk)
    assert after.version == match.version + 1
    assert after.turn_deadline is not None
    assert after.turn_deadline > timezone.now()
    assert Seat.objects.get(match=match, index=to_move).strikes == 1
    types = list(
        MatchEvent.objects.filter(match=match).order_by("seq").values_list("type", flat=True)
    )
    assert types[-2:] == ["timeout", "draw"]


def test_a_duplicate_delivery_changes_nothing(match):
    match = expire(match)
    services.turn_timeout_apply(match_id=match.pk)
    version = Match.objects.get(pk=match.pk).version

    assert services.turn_timeout_apply(match_id=match.pk) is False
    assert Match.objects.get(pk=match.pk).version == version


def test_a_move_that_arrived_before_the_deadline_holds_the_clock_until_it_is_applied(match):
    match = expire(match)
    arrivals.arrived(match.pk)  # the creator's 7H arrived in time, and waits for a thread

    held = services.turn_timeout_apply(match_id=match.pk)
    services.action_apply(
        match_id=match.pk, user=match.created_by, action={"action": "play", "card": "7H"}
    )
    arrivals.answered(match.pk)

    assert held is False
    assert not MatchEvent.objects.filter(match=match, type="timeout").exists()
    assert Seat.objects.get(match=match, index=0).strikes == 0
    assert MatchEvent.objects.filter(match=match, type="play", seat=0).exists()


def test_the_clock_strikes_once_the_move_in_flight_is_answered(match):
    match = expire(match)
    arrivals.arrived(match.pk)
    arrivals.answered(match.pk)  # refused, say: the turn is still the creator's

    assert services.turn_timeout_apply(match_id=match.pk) is True
    assert Seat.objects.get(match=match, index=0).strikes == 1


def test_a_move_in_flight_holds_the_clock_for_a_bounded_time(match):
    """Neither a process that died with a move in flight nor a stream of posts stops a clock: a
    move holds it ``arrivals.HELD_SECONDS`` past the deadline at most."""
    past = timezone.now() - timedelta(seconds=arrivals.HELD_SECONDS + 1)
    Match.objects.filter(pk=match.pk).update(turn_deadline=past)
    arrivals.arrived(match.pk)

    assert services.turn_timeout_apply(match_id=match.pk) is True
    assert Seat.objects.get(match=match, index=0).strikes == 1


def test_three_strikes_and_a_bot_takes_the_seat(match):
    seat = seat_to_move(match.pk)
    Seat.objects.filter(match=match, index=seat).update(strikes=2)
    match = expire(match)

    services.turn_timeout_apply(match_id=match.pk)

    taken = Seat.objects.get(match=match, index=seat)
    assert taken.strikes == 3
    assert taken.bot_strategy == services.REPLACEMENT_BOT
    assert MatchEvent.objects.filter(match=match, type="bot_takeover", seat=seat).exists()


def test_the_sweep_enforces_an_overdue_clock_once(match, tasks_in_process):
    expire(match)

    assert tasks.sweep_stalled_matches() == 1
    assert tasks.sweep_stalled_matches() == 0
    assert MatchEvent.objects.filter(match=match, type="timeout").count() == 1


def test_tasks_for_a_deleted_match_do_nothing(match):
    Match.objects.filter(pk=match.pk).delete()

    assert tasks.enforce_turn_clock(match.pk) is False
    assert tasks.play_bot_turns(match.pk) == 0


def test_a_skip_that_gives_the_same_seat_another_turn_restarts_its_clock():
    """docs/rules.md §3 switch: an 8 skips; heads-up, the player who played it moves again, on a new turn."""
    match = started(
        "switch",
        {"hands": [["8H", "9S", "2C"], ["9D", "5S", "6S"]], "starter": "9H", "stock": ["TC"]},
    )
    Match.objects.filter(pk=match.pk).update(turn_deadline=timezone.now() + timedelta(seconds=2))
    creator = match.created_by

    services.action_apply(match_id=match.pk, user=creator, action={"action": "play", "card": "8H"})

    after = Match.objects.get(pk=match.pk)
    assert seat_to_move(match.pk) == 0
    assert after.turn_deadline is not None
    assert (after.turn_deadline - timezone.now()).total_seconds() > 25
    turns = FeedEvent.objects.filter(player__user=creator, type="your_turn").count()
    assert turns == 2  # told at the start, and again for the turn the skip gave


def test_a_timeout_after_a_playable_draw_ends_the_turn_with_one_strike():
    """docs/rules.md §2 draw_rule one_then_play: the default draw shows a playable 7S; the clock ends
    the turn too instead of leaving it open on a spent deadline (which would strike again)."""
    match = started(
        "jacks-twos-eights",
        {"hands": [["3C", "4C"], ["5D", "6D"]], "starter": "9S", "stock": ["7S", "KD"]},
    )
    match = expire(match)

    assert services.turn_timeout_apply(match_id=match.pk) is True

    after = Match.objects.get(pk=match.pk)
    assert seat_to_move(match.pk) == 1
    assert after.turn_deadline is not None
    assert after.turn_deadline > timezone.now()
    assert Seat.objects.get(match=match, index=0).strikes == 1
    types = list(
        MatchEvent.objects.filter(match=match).order_by("seq").values_list("type", flat=True)
    )
    assert types[-3:] == ["timeout", "draw", "end_turn"]
