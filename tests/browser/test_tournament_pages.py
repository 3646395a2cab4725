"""A club night in a real browser: the public page on a phone, the desk's result form, and the
printable pairings on A4 without the admin around them."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import Page, expect

from tests.browser.conftest import PHONE, screenshot
from tournaments import services
from tournaments.models import ResultEntry, Tournament
from tournaments.powers import directors

pytestmark = pytest.mark.django_db(transaction=True)

GUESTS = ["Ann Smith", "Bea Jones", "Cal Brown", "Dee White", "Eve Black", "Fay Green"]
# A card code as the API writes them (7H, 10S, JC, …): none may appear on the public page.
CARD_CODE = re.compile(r"\b(?:[2-9]|10|[JQKA])[SHDC]\b")


def club_night(**settings) -> Tournament:
    """An offline, public French evening of six guests at tables of three, round 1 seated."""
    organiser = get_user_model().objects.create_user("organiser", is_staff=True)
    organiser.groups.add(directors())  # a tournament director
    fields = {
        "name": "Thursday club",
        "ruleset": "french",
        "scoring": "french",
        "planned_rounds": 2,
        "table_size": 3,
        "deals_per_round": 1,
        "play": "offline",
        "public": True,
        **settings,
    }
    tournament = services.tournament_create(creator=organiser, **fields)
    services.entries_register(
        tournament_id=tournament.pk,
        user=organiser,
        entrants=[services.Entrant(guest=name) for name in GUESTS],
    )
    services.tournament_start(tournament_id=tournament.pk, user=organiser)
    return tournament


def seated(tournament: Tournament, table: int = 1) -> list[str]:
    seats = tournament.rounds.get(number=1).tables.get(number=table).seats.order_by("seat")
    return [seat.entry.name for seat in seats.select_related("entry")]


def first_table_won(tournament: Tournament) -> list[str]:
    """Record round 1's first table as the desk would: its first seat wins, the other two are left
    holding 17 and 30. Returns the table's names in seat order."""
    names = seated(tournament)
    services.table_result_enter(
        tournament_id=tournament.pk,
        round_number=1,
        table_number=1,
        user=tournament.created_by,
        result={"deals": [{"winner": names[0], "points_left": {names[1]: 17, names[2]: 30}}]},
    )
    return names


def test_the_public_page_on_a_phone_shows_tables_and_standings_and_no_card(page: Page):
    tournament = club_night()
    names = first_table_won(tournament)
    page.set_viewport_size(PHONE)

    page.goto(f"/tournaments/{tournament.pk}/")

    expect(page.locator("#current-round .table")).to_have_count(2)
    expect(page.locator("#by-name tbody tr")).to_have_count(len(GUESTS))
    listed = page.locator("#by-name tbody td:first-child").all_inner_texts()
    assert listed == sorted(GUESTS, key=str.casefold)
    expect(page.locator("#standings tbody tr")).to_have_count(len(GUESTS))
    expect(page.locator("#standings tbody tr").first).to_contain_text(names[0])
    # Readable on a phone: nothing wider than the screen, so no sideways scrolling.
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert not CARD_CODE.search(page.inner_text("body"))
    screenshot(page, "public-page-phone", full_page=True)

    page.goto("/tournaments/")  # the list of evenings, each with the day it started
    expect(page.locator("tbody tr")).to_contain_text(tournament.name)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    screenshot(page, "public-index-phone", full_page=True)


def test_the_result_form_refuses_two_winners_then_saves_a_valid_result(staff_page: Page):
    tournament = club_night()
    a, b, c = seated(tournament)
    staff_page.goto(f"/admin/tournaments/tournament/{tournament.pk}/change/")
    staff_page.get_by_role("link", name="enter result").first.click()

    staff_page.check("#id_d0-out-0")
    staff_page.check("#id_d0-out-1")
    staff_page.fill("#id_d0-tally-2", "12")
    staff_page.click("input[name=_save]")

    expect(staff_page.locator("#result-problems")).to_contain_text(
        f"Deal 1: Two winners ({a}, {b}): name one."
    )
    assert not ResultEntry.objects.exists()
    screenshot(staff_page, "result-form-two-winners")

    staff_page.uncheck("#id_d0-out-1")
    staff_page.fill("#id_d0-tally-1", "8")
    staff_page.click("input[name=_preview]")
    expect(staff_page.locator("#result-preview")).to_contain_text("20")  # a's total: 8 + 12
    staff_page.click("input[name=_save]")

    expect(staff_page.locator(".messagelist")).to_contain_text("Table 1's result is saved.")
    (entered,) = ResultEntry.objects.all()
    assert entered.result == {"deals": [{"winner": a, "points_left": {b: 8, c: 12}}]}
    assert entered.entered_by.username == "desk"


def test_the_printable_pairings_print_without_the_admin_around_them(staff_page: Page):
    tournament = club_night()
    staff_page.goto(f"/admin/tournaments/tournament/{tournament.pk}/print/pairings/")
    expect(staff_page.locator("#header")).to_be_visible()  # on screen, the admin is there

    staff_page.emulate_media(media="print")

    for chrome in ("#header", ".breadcrumbs", "#nav-sidebar", "#footer", ".no-print"):
        assert staff_page.locator(chrome).evaluate_all(
            "nodes => nodes.every(node => getComputedStyle(node).display === 'none')"
        ), chrome
    sheet = staff_page.locator("#by-table").bounding_box()
    assert sheet is not None
    assert sheet["x"] < 20  # the sheet starts at the page margin: no sidebar beside it
    expect(staff_page.locator("#by-table tbody tr")).to_have_count(2)
    expect(staff_page.locator("#by-name tbody tr")).to_have_count(len(GUESTS))
    screenshot(staff_page, "pairings-print", full_page=True)
    pdf = staff_page.pdf(prefer_css_page_size=True)
    pages = re.findall(rb"/MediaBox \[0 0 ([\d.]+) ([\d.]+)\]", pdf)
    assert len(pages) == 2  # by table, then by name, each on its own page
    for width, height in pages:  # A4: 595 × 842 points
        assert (float(width), float(height)) == (
            pytest.approx(595.3, abs=1),
            pytest.approx(841.9, abs=1),
        )
