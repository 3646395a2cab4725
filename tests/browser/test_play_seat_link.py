"""A guest of an online tournament plays from the seat link the desk hands out (docs/play.md, "Seat
links"): /play/seat/<secret> opens the guest's table in Chromium, without an account, and a click
on a legal move plays the guest's seat."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import BrowserContext, expect
from rest_framework.test import APIClient

from games import services as game_services
from games.models import MatchEvent
from tests.browser.conftest import PHONE
from tests.browser.play import PASSWORD
from tournaments import selectors
from tournaments import services as tournament_services
from tournaments.models import Table
from tournaments.powers import directors

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_guest_plays_a_turn_from_the_seat_link(play_contexts: list[BrowserContext]):
    organiser = get_user_model().objects.create_user("desk", is_staff=True)
    organiser.groups.add(directors())  # a tournament director
    _, alice_token = game_services.player_register(username="alice", password=PASSWORD)
    tournament = tournament_services.tournament_create(
        creator=organiser,
        name="Online club",
        ruleset="switch",
        scoring="french",
        planned_rounds=1,
        table_size=2,
        deals_per_round=1,
    )
    alice = get_user_model().objects.get(username="alice")
    tournament_services.entry_register(
        tournament_id=tournament.pk, user=alice, entrant=tournament_services.Entrant()
    )
    tournament_services.entry_register(
        tournament_id=tournament.pk,
        user=organiser,
        entrant=tournament_services.Entrant(guest="Chloé"),
    )
    tournament_services.tournament_start(tournament_id=tournament.pk, user=organiser)
    detail = selectors.tournament_detail(tournament=tournament, seat_links=True)
    play_url = next(e["play_url"] for e in detail["entries"] if e["name"] == "Chloé")
    match_id = Table.objects.get(round__tournament=tournament).match_id
    assert match_id is not None
    alice_api = APIClient()
    alice_api.credentials(HTTP_AUTHORIZATION=f"Token {alice_token}")

    context = play_contexts[0]
    context.set_default_timeout(20_000)
    page = context.new_page()
    page.set_viewport_size(PHONE)
    page.goto(play_url)
    expect(page.get_by_role("heading", name="Playing as Chloé", exact=True)).to_be_visible()
    table = page.locator("section.table-root")  # the seat page's table: the same hooks
    expect(table).to_have_attribute("data-match", str(match_id))
    expect(table).to_have_attribute("data-status", "active")

    view = alice_api.get(f"/api/v1/matches/{match_id}/").json()
    if view["to_move"] == view["you"]["seat"]:  # alice first: the guest's page follows live
        move = {**view["legal_moves"][0], "expected_version": view["version"]}
        assert (
            alice_api.post(f"/api/v1/matches/{match_id}/moves/", move, format="json").status_code
            == 201
        )
    guest_seat = 1 - view["you"]["seat"]
    expect(table).to_have_attribute("data-to-move", str(guest_seat))
    first = table.locator("button[data-move]:enabled").first
    first.wait_for()
    version = table.get_attribute("data-version")
    last_seq = MatchEvent.objects.filter(match_id=match_id).order_by("-seq")[0].seq
    first.click()

    expect(table).not_to_have_attribute("data-version", version or "")
    assert MatchEvent.objects.filter(match_id=match_id, seat=guest_seat, seq__gt=last_seq).exists()
