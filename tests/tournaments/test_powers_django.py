"""The tournament director's powers (tournaments.powers): each a named permission that every door
checks — the API (through the services), the desk's own pages, the public pages — so that
``is_staff`` alone gives none, the permission alone gives its power, and a superuser has them all.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission

from tests.api.conftest import Client, assert_problem
from tests.tournaments.conftest import TOURNAMENT
from tests.tournaments.test_club_night_django import french_deal, offline_event, result_path
from tests.tournaments.test_club_night_django import seated_names as seated
from tournaments import services
from tournaments.powers import Power

pytestmark = pytest.mark.django_db

GUESTS = ["Ann", "Ben", "Cat", "Dan"]


@pytest.fixture
def clerk(make_client) -> Callable[[Power | None], Client]:
    """A staff user of the admin, given one power (or none)."""

    def make(power: Power | None) -> Client:
        client = make_client(f"clerk-{power.name.lower() if power else 'none'}")
        user = get_user_model().objects.get(username=client.username)
        user.is_staff = True
        user.save(update_fields=["is_staff"])
        if power is not None:
            user.user_permissions.add(
                Permission.objects.get(
                    content_type__app_label="tournaments", codename=power.codename
                )
            )
        return client

    return make


def registering(staff: Client) -> str:
    tournament_id = staff.post("/api/v1/tournaments/", {**TOURNAMENT, "play": "offline"}).json()[
        "id"
    ]
    return f"/api/v1/tournaments/{tournament_id}"


def started(staff: Client) -> str:
    return offline_event(staff, guests=GUESTS)


# Each power: the tournament it needs (made by a director), and the call that uses the power.
API_CALLS: dict[Power, tuple[Callable[[Client], str], Callable[[Client, str], Any]]] = {
    Power.CREATE: (lambda staff: "", lambda c, _: c.post("/api/v1/tournaments/", TOURNAMENT)),
    Power.REGISTER: (registering, lambda c, path: c.post(f"{path}/register/", {"guest": "Eve"})),
    Power.SEAT: (
        lambda staff: registering_with(staff, GUESTS),
        lambda c, path: c.post(f"{path}/start/"),
    ),
    Power.RESULTS: (
        started,
        lambda c, path: c.post(result_path(path), {"deals": [first_deal(c, path)] * 2}),
    ),
    Power.CLOCK: (started, lambda c, path: c.post(f"{path}/rounds/1/clock/", {"minutes": 40})),
    Power.CANCEL: (registering, lambda c, path: c.post(f"{path}/cancel/")),
    Power.DELETE: (registering, lambda c, path: c.http.delete(f"{path}/")),
}


def registering_with(staff: Client, guests: list[str]) -> str:
    path = registering(staff)
    assert (
        staff.post(f"{path}/register/", {"entries": [{"guest": g} for g in guests]}).status_code
        == 200
    )
    return path


def first_deal(client: Client, path: str) -> dict[str, Any]:
    names = seated(client, path)
    return french_deal(names[0], names)


@pytest.mark.parametrize("power", list(API_CALLS), ids=lambda power: power.name)
def test_staff_without_the_power_is_refused_by_the_api(staff, clerk, power):
    prepare, call = API_CALLS[power]
    path = prepare(staff)

    refused = call(clerk(None), path)

    body = assert_problem(refused, 403, "staff_only")
    assert "tournament director's permission" in body["detail"]


@pytest.mark.parametrize("power", list(API_CALLS), ids=lambda power: power.name)
def test_the_power_alone_is_enough_for_the_api(staff, clerk, power):
    prepare, call = API_CALLS[power]
    path = prepare(staff)

    allowed = call(clerk(power), path)

    assert allowed.status_code in (200, 201, 204), allowed.content


@pytest.mark.parametrize(("power", "shown"), [(None, False), (Power.SEAT_LINKS, True)])
def test_seat_links_are_shown_to_those_who_may_print_them(staff, clerk, power, shown):
    tournament_id = staff.post("/api/v1/tournaments/", TOURNAMENT).json()["id"]  # online
    path = f"/api/v1/tournaments/{tournament_id}"
    assert staff.post(f"{path}/register/", {"guest": "Ann"}).status_code == 200

    (entry,) = clerk(power).get(f"{path}/").json()["entries"]

    assert (entry["play_url"] is not None) == shown


# The desk's own pages (the admin lets any staff user in): each with the power it needs.
DESK_PAGES = [
    (Power.REGISTER, "register/"),
    (Power.SEAT, "rounds/1/withdraw/"),
    (Power.RESULTS, "rounds/1/tables/1/result/"),
    (Power.CANCEL, "cancel/"),
    (Power.VIEW, "standings/"),
    (Power.VIEW, "print/pairings/"),
    (Power.SEAT_LINKS, "print/seat_links/"),
]


@pytest.mark.parametrize(("power", "page"), DESK_PAGES, ids=[page for _, page in DESK_PAGES])
def test_the_desks_pages_ask_for_their_power(staff, organiser, client, power, page):
    path = started(staff)
    desk = f"/admin/tournaments/tournament/{path.rsplit('/', 1)[-1]}/{page}"
    clerk = get_user_model().objects.create_user("clerk", is_staff=True)
    client.force_login(clerk)

    assert client.get(desk).status_code == 403

    clerk.user_permissions.add(
        Permission.objects.get(content_type__app_label="tournaments", codename=power.codename),
        *(  # the seat links are printed from a page of the tournament: seeing it comes first
            [Permission.objects.get(codename="view_tournament")]
            if power is Power.SEAT_LINKS
            else []
        ),
    )
    assert client.get(desk).status_code == 200


@pytest.mark.parametrize(("power", "shown"), [(None, 404), (Power.VIEW, 200)])
def test_a_private_tournaments_public_page_is_for_those_who_may_see_it(staff, client, power, shown):
    path = registering(staff)  # not public
    viewer = get_user_model().objects.create_user("viewer", is_staff=True)
    if power is not None:
        viewer.user_permissions.add(Permission.objects.get(codename=power.codename))
    client.force_login(viewer)

    assert client.get(f"/tournaments/{path.rsplit('/', 1)[-1]}/").status_code == shown


def test_a_superuser_has_every_power(admin_client):
    root = get_user_model().objects.get(username="root")

    assert all(root.has_perm(power.permission) for power in Power)


def online_with_a_guest(staff: Client) -> str:
    tournament_id = staff.post("/api/v1/tournaments/", TOURNAMENT).json()["id"]
    path = f"/api/v1/tournaments/{tournament_id}"
    assert staff.post(f"{path}/register/", {"guest": "Ann"}).status_code == 200
    return path


# The desk's buttons and links: each power, a tournament at the stage that offers them, and the
# desk pages they lead to (relative to the tournament's page in the admin).
DESK_BUTTONS: list[tuple[Power, Callable[[Client], str], set[str]]] = [
    (Power.REGISTER, started, {"register/", "checkin/", "entries/"}),
    (Power.SEAT, started, {"rounds/1/withdraw/"}),
    (Power.SEAT, lambda staff: registering_with(staff, GUESTS), {"step/"}),
    (Power.RESULTS, started, {"rounds/1/tables/1/result/"}),
    (Power.CLOCK, started, {"clock/"}),
    (Power.CANCEL, started, {"cancel/"}),
    (Power.SEAT_LINKS, online_with_a_guest, {"print/seat_links/"}),
]


def desk_targets(client, tournament_path: str) -> tuple[str, set[str]]:
    """The tournament's page in the admin, and where its links and forms lead on the desk."""
    page = f"/admin/tournaments/tournament/{tournament_path.rsplit('/', 1)[-1]}/"
    html = client.get(f"{page}change/").content.decode()
    return page, set(re.findall(rf'(?:href|action)="{re.escape(page)}([^"#?]+)', html))


@pytest.mark.parametrize(
    ("power", "prepare", "targets"),
    DESK_BUTTONS,
    ids=[f"{power.name}-{sorted(targets)[0]}" for power, _, targets in DESK_BUTTONS],
)
def test_the_desk_shows_a_button_only_to_those_with_its_power(
    staff, client, power, prepare, targets
):
    path = prepare(staff)
    clerk = get_user_model().objects.create_user("clerk", is_staff=True)
    clerk.user_permissions.add(Permission.objects.get(codename="view_tournament"))
    client.force_login(clerk)

    _, without = desk_targets(client, path)
    clerk.user_permissions.add(Permission.objects.get(codename=power.codename))
    _, with_power = desk_targets(client, path)

    for target in targets:  # an entry's withdraw/ is under entries/<id>/
        assert not any(shown.startswith(target) for shown in without), target
        assert any(shown.startswith(target) for shown in with_power), target


def test_every_link_the_desk_shows_opens_for_whoever_sees_it(staff, client):
    path = started(staff)
    clerk = get_user_model().objects.create_user("clerk", is_staff=True)
    clerk.user_permissions.add(Permission.objects.get(codename="view_tournament"))
    client.force_login(clerk)

    page, targets = desk_targets(client, path)

    assert targets >= {"standings/", "print/pairings/"}
    for target in targets:
        assert client.get(f"{page}{target}").status_code != 403, target


@pytest.mark.parametrize(("power", "editable"), [(None, False), (Power.SEAT, True)])
def test_a_drafts_tables_offer_saving_only_to_those_who_may_seat(
    human_event, client, power, editable
):
    tournament = human_event(4, table_size=2)
    drafted = services.round_draft(tournament_id=tournament.pk, user=tournament.created_by)
    clerk = get_user_model().objects.create_user("clerk", is_staff=True)
    if power is not None:
        clerk.user_permissions.add(Permission.objects.get(codename=power.codename))
    client.force_login(clerk)

    page = client.get(f"/admin/tournaments/round/{drafted.pk}/seating/").content.decode()

    assert ('value="Save the tables"' in page) == editable
    assert (" readonly>" not in page) == editable
