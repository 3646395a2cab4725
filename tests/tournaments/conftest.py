"""Tournament fixtures: the API clients of tests/api, and helpers that end a table's match with a
known result (the bots' own play is covered by the whole-tournament test)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from games.models import Match
from switchgame.protocol import HandOutcome, Outcome, solo_teams
from tests.api import conftest as api
from tournaments import services
from tournaments.models import Table, Tournament
from tournaments.powers import directors

make_client = api.make_client
alice = api.alice
bob = api.bob
carol = api.carol
staff = api.staff

TOURNAMENT = {
    "name": "Tuesday club",
    "ruleset": "switch",
    "scoring": "french",
    "rounds": 2,
    "table_size": 4,
    "deals_per_round": 2,
    "seating": "balanced",
}


@pytest.fixture
def organiser(db):
    """A tournament director at the desk."""
    user = get_user_model().objects.create_user("desk", is_staff=True)
    user.groups.add(directors())
    return user


@pytest.fixture
def human_event(organiser) -> Callable[..., Tournament]:
    """A tournament of ``count`` human players (so nothing plays until a test ends the matches)."""

    def make(count: int, **settings: Any) -> Tournament:
        fields = {**TOURNAMENT, **settings}
        fields["seating_mode"] = fields.pop("seating")
        fields["planned_rounds"] = fields.pop("rounds")
        tournament = services.tournament_create(creator=organiser, **fields)
        user_model = get_user_model()
        for number in range(count):
            user = user_model.objects.create_user(f"t{tournament.pk}p{number}")
            services.entry_register(
                tournament_id=tournament.pk, user=user, entrant=services.Entrant()
            )
        return tournament

    return make


@pytest.fixture
def admin_client(client):
    """The Django test client logged in as a superuser (the organiser's desk)."""
    client.force_login(
        get_user_model().objects.create_superuser("root", "root@example.invalid", "pw")
    )
    return client


def table_seats(table: Table) -> list[int]:
    """Entry ids of a table in seat order."""
    return list(table.seats.order_by("seat").values_list("entry_id", flat=True))


def end_match(match_id: int | None, outcome: Outcome) -> None:
    """Finish a table's match with this outcome and score it (the table must be played online)."""
    assert match_id is not None, "an offline table has no match to end"
    Match.objects.filter(pk=match_id).update(
        status=Match.Status.FINISHED, result=outcome.to_json(), finished_at=timezone.now()
    )
    services.table_result_record(match_id=match_id)


def won_by_seat_0(seats: int, points: int) -> Outcome:
    """One deal at a table of ``seats``: seat 0 goes out first and scores ``points``, the others
    finish in seat order with nothing."""
    scored = (points,) + (0,) * (seats - 1)
    order = tuple(range(seats))
    deal = HandOutcome(number=1, points=scored, winner=0, placings=order, teams=solo_teams(seats))
    return Outcome(hands=(deal,), totals=scored, ranking=order)
