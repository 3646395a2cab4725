"""The admin's ladder pages: staff see ladders, members and quick-play entries; a ladder is
created through the API only, and a member can be made active again from its page."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from games.models import Seat
from matchmaking import services, tasks
from matchmaking.models import Membership
from tests.matchmaking.conftest import due

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("tasks_in_process")]


@pytest.fixture
def admin_client(client):
    user = get_user_model().objects.create_superuser("root", "root@example.invalid", "pw")
    client.force_login(user)
    return client


def test_staff_see_ladders_members_and_entries_but_add_none(
    admin_client, make_ladder, make_bot, alice
) -> None:
    ladder = due(make_ladder())
    make_bot("robo").post(f"/api/v1/ladders/{ladder.pk}/join/")
    alice.post("/api/v1/pool/", {"ruleset": "switch", "seats": 2})

    assert b"robo" in admin_client.get("/admin/matchmaking/membership/?active__exact=1").content
    assert b"alice" in admin_client.get("/admin/matchmaking/poolentry/").content
    assert admin_client.get("/admin/matchmaking/ladder/").status_code == 200
    assert admin_client.get("/admin/matchmaking/ladder/add/").status_code == 403


def test_a_member_is_made_active_again_from_its_page(admin_client, make_ladder, make_bot) -> None:
    ladder = make_ladder(seats=2, turn_seconds=5)
    make_bot("robo").post(f"/api/v1/ladders/{ladder.pk}/join/")
    services.ladder_round_seat(ladder_id=due(ladder).pk)
    Seat.objects.filter(player__username="robo").update(strikes=2)  # two timeouts: inactive
    tasks.run_ladders()
    membership = Membership.objects.get()
    assert membership.active is False

    page = f"/admin/matchmaking/membership/{membership.pk}/change/"
    answer = admin_client.post(page, {"active": "on"})

    assert answer.status_code == 302
    tasks.run_ladders()  # its old strikes no longer count
    membership.refresh_from_db()
    assert membership.active is True
