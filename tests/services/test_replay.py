"""docs/architecture.md's claim that "the event log is enough to audit and replay a match", for logs the
service itself wrote: matches played through ``games.services`` (moves, turn clocks running out, a
resignation and the bot that plays on) replay from their stored settings and ``MatchEvent`` rows to
the state stored after every commit, and to the same views."""

from __future__ import annotations

import dataclasses
import random
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from games import selectors, services
from games.models import Match, MatchEvent
from switchgame.records.replay import MatchSettings, Replay, replay
from tests.conftest import seat_to_move

pytestmark = pytest.mark.django_db


def settings_of(match: Match) -> MatchSettings:
    return MatchSettings(
        ruleset=match.ruleset,
        players=match.seat_count,
        options=match.options,
        deals=match.deals,
        target=match.target,
        layout=match.layout,
    )


def logged_events(match: Match) -> list[dict[str, Any]]:
    rows = MatchEvent.objects.filter(match=match).order_by("seq")
    return [dict(row) for row in rows.values("seq", "type", "seat", "data", "private")]


def play(
    ruleset: str,
    seats: int,
    seed: int,
    *,
    timeouts: bool,
    resign_at: int = 5,
    on_resign: str = "bot",
    **settings: Any,
) -> tuple[Match, dict[int, dict[str, Any]]]:
    """A match of human seats making random moves through the services; at ``resign_at`` actions
    the seat to move resigns (a bot plays on). Returns the match and the state stored after each
    commit, by the last event's seq."""
    users = get_user_model().objects
    players = [users.create_user(f"player{seat}", is_superuser=seat == 0) for seat in range(seats)]
    match = services.match_create(
        creator=players[0],
        ruleset=ruleset,
        seats=seats,
        players=players,
        turn_seconds=600,
        on_resign=on_resign,
        **settings,
    )
    services.match_start(match_id=match.pk, user=players[0])
    match = Match.objects.get(pk=match.pk)
    assert match.state is not None
    stored = {match.last_event_seq: match.state}
    rng = random.Random(seed)
    actions = 0
    while match.status == Match.Status.ACTIVE:
        actions += 1
        assert actions < 5000, "a match that does not end"
        game = selectors.match_load(match_id=match.pk).game
        seat = match.seats.get(index=seat_to_move(match.pk))
        if seat.is_bot:
            assert services.bot_turns_play(match_id=match.pk, limit=1)[0] == 1
        elif seat.player is None:
            raise AssertionError(f"seat {seat.index} is neither a bot nor a player's")
        elif actions == resign_at:
            services.match_resign(match_id=match.pk, user=seat.player)
        elif timeouts and rng.random() < 0.1:
            deadline = timezone.now() - timedelta(seconds=1)
            Match.objects.filter(pk=match.pk).update(turn_deadline=deadline)
            assert services.turn_timeout_apply(match_id=match.pk)
        else:
            legal = game.legal_actions()
            plays = [a for a in legal if a["action"] in ("play", "move")]
            # Mostly plays: uniformly random shedding play (voluntary draws) makes long deals.
            action = rng.choice(plays if plays and rng.random() < 0.8 else legal)
            services.action_apply(match_id=match.pk, user=seat.player, action=action)
        match = Match.objects.get(pk=match.pk)
        assert match.state is not None
        stored[match.last_event_seq] = match.state
    return match, stored


def check(match: Match, stored: dict[int, dict[str, Any]], replayed: Replay) -> None:
    for seq, state in stored.items():
        assert replayed.state_after(seq).to_dict() == state, f"the state after event {seq}"
    assert replayed.final.to_dict() == match.state
    loaded = selectors.match_load(match_id=match.pk)
    as_replayed = dataclasses.replace(loaded, game=replayed.final)
    for seat in (None, *range(match.seat_count)):
        assert selectors.match_view(loaded=as_replayed, seat=seat) == selectors.match_view(
            loaded=loaded, seat=seat
        )


@pytest.mark.slow
def test_an_abbott_game_with_timeouts_and_a_bot_replays_from_its_log():
    match, stored = play("abbott", 4, 1, timeouts=True, target=10)
    replayed = replay(settings_of(match), logged_events(match))
    check(match, stored, replayed)
    outcome = replayed.final.outcome()
    assert outcome is not None
    assert match.result == outcome.to_json()
    kinds = {event["type"] for event in logged_events(match)}
    assert {"timeout", "resign", "hand_end", "match_end"} <= kinds


@pytest.mark.slow
def test_a_shedding_match_of_several_deals_from_a_layout_replays_from_its_log():
    layout = {
        "hands": [["9S", "5C", "KD"], ["5D", "6D", "2H"], ["3C", "8H", "JS"]],
        "starter": "9H",
        "stock": ["TC", "3S", "4H", "8C", "7D", "QS", "AC", "2D"],
    }
    match, stored = play("switch", 3, 2, timeouts=False, deals=3, layout=layout)
    replayed = replay(settings_of(match), logged_events(match))
    check(match, stored, replayed)
    assert len([s for s in replayed.steps if s.kind == "deal"]) == 3


def test_an_abandoned_match_replays_its_last_deal_from_the_stored_seed():
    match, stored = play("switch", 2, 3, timeouts=False, resign_at=6, on_resign="forfeit", deals=2)
    assert match.status == Match.Status.ABANDONED
    replayed = replay(settings_of(match), logged_events(match), seed_in_play=match.deal_seed)
    check(match, stored, replayed)
