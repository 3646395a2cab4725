"""The room of a club night in a real browser: the projector screen on a laptop, the public page
and the series page on a phone update themselves when the desk records a result (no reload), and
the round clock counts down; the desk's buttons by real clicks. Served by uvicorn
(``asgi_server``): the pages' event stream needs an ASGI server."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import LAPTOP, PHONE, PolicyViolations, screenshot
from tests.browser.test_tournament_pages import GUESTS, club_night, first_table_won
from tournaments import services
from tournaments.models import TableSeat

pytestmark = pytest.mark.django_db(transaction=True)


def opened(
    browser: Browser, base_url: str, path: str, viewport, violations: PolicyViolations
) -> Page:
    context = violations.watch(browser.new_context(viewport=viewport, base_url=base_url))
    context.set_default_timeout(15_000)
    page = context.new_page()
    page.goto(path)
    # A mark that a reload would wipe: the page must be the same document at the end.
    page.evaluate("window.sameDocument = true")
    return page


def test_the_screen_and_the_phone_page_update_themselves_when_a_result_is_recorded(
    browser: Browser, asgi_server: str, policy_violations: PolicyViolations
):
    tournament = club_night()
    services.round_clock(
        tournament_id=tournament.pk, round_number=1, user=tournament.created_by, minutes=40
    )
    screen = opened(
        browser, asgi_server, f"/tournaments/{tournament.pk}/screen/", LAPTOP, policy_violations
    )
    phone = opened(browser, asgi_server, f"/tournaments/{tournament.pk}/", PHONE, policy_violations)
    expect(screen.locator("[data-table]")).to_have_count(2)
    expect(screen.locator("[data-table='1'] .total")).to_have_count(0)
    clock = screen.locator(".clock")
    expect(clock).to_have_text(re.compile(r"^(40:00|39:[0-5][0-9])$"))
    shown = clock.inner_text()
    expect(clock).not_to_have_text(shown, timeout=5_000)  # it counts down by itself

    names = first_table_won(tournament)

    # The winner's points as the others' tallies added up, and what each was left holding.
    expect(screen.locator("[data-table='1'] .total")).to_have_text(
        ["47 = 17 + 30", "0 · 17 in hand", "0 · 30 in hand"]
    )
    expect(screen.locator("#screen-standings tbody tr").first).to_contain_text(names[0])
    expect(phone.locator("#standings tbody tr").first).to_contain_text(names[0])
    assert screen.evaluate("window.sameDocument") is True
    assert phone.evaluate("window.sameDocument") is True
    # Large type for the room; nothing wider than the phone's screen.
    assert float(clock.evaluate("e => parseFloat(getComputedStyle(e).fontSize)")) >= 48
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    screenshot(screen, "projector-screen")
    screenshot(phone, "public-page-live-phone", full_page=True)

    services.round_clock(
        tournament_id=tournament.pk, round_number=1, user=tournament.created_by, pause=True
    )
    expect(clock).to_contain_text("(paused)")
    screen.context.close()
    phone.context.close()


def test_the_series_page_updates_itself_when_a_result_is_recorded(
    browser: Browser, asgi_server: str, policy_violations: PolicyViolations
):
    tournament = club_night()
    series = services.series_create(
        user=tournament.created_by,
        name="Autumn nights",
        tournament_ids=[tournament.pk],
        public=True,
    )
    phone = opened(
        browser, asgi_server, f"/tournaments/series/{series.pk}/", PHONE, policy_violations
    )
    standings = phone.locator("#series-standings tbody tr")
    expect(standings).to_have_count(0)  # nobody has played yet

    names = first_table_won(tournament)

    expect(standings).to_have_count(3)
    expect(standings.first).to_contain_text(names[0])
    assert phone.evaluate("window.sameDocument") is True
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    screenshot(phone, "series-page-live-phone", full_page=True)
    phone.context.close()


def test_a_directors_evening_at_the_desk_by_real_clicks_on_a_laptop(staff_page: Page):
    """Start, drop a player with the Withdraw button and its confirmation page (real clicks:
    Playwright refuses to click a button that another element covers), results in, the next
    round seated without them."""
    organiser = get_user_model().objects.get(username="desk")
    tournament = services.tournament_create(
        creator=organiser,
        name="Friday club",
        ruleset="french",
        scoring="french",
        planned_rounds=2,
        table_size=3,
        deals_per_round=1,
        play="offline",
        public=True,
    )
    services.entries_register(
        tournament_id=tournament.pk,
        user=organiser,
        entrants=[services.Entrant(guest=name) for name in [*GUESTS, "Gil Grey"]],
    )
    staff_page.set_viewport_size(LAPTOP)
    staff_page.goto(f"/admin/tournaments/tournament/{tournament.pk}/change/")

    staff_page.get_by_role("button", name="Seat and publish round 1").click()
    expect(staff_page.locator("#desk")).to_contain_text("round 1 of 2")

    staff_page.locator("#desk summary").click()
    row = staff_page.locator("#desk tr", has_text="Gil Grey")
    row.get_by_role("link", name="Withdraw").click()
    expect(staff_page.locator("#confirm")).to_contain_text("Gil Grey's results stay")
    staff_page.get_by_role("button", name="Yes, withdraw Gil Grey").click()
    expect(staff_page.locator(".messagelist")).to_contain_text("Gil Grey is withdrawn")
    screenshot(staff_page, "desk-withdrawn-laptop")

    for table in tournament.rounds.get(number=1).tables.order_by("number"):
        names = [seat.entry.name for seat in table.seats.order_by("seat").select_related("entry")]
        services.table_result_enter(
            tournament_id=tournament.pk,
            round_number=1,
            table_number=table.number,
            user=organiser,
            result={"deals": [{"winner": names[0], "points_left": dict.fromkeys(names[1:], 10)}]},
        )
    staff_page.goto(f"/admin/tournaments/tournament/{tournament.pk}/change/")
    staff_page.get_by_role("button", name="Seat and publish round 2").click()

    expect(staff_page.locator("#desk")).to_contain_text("round 2 of 2")
    seated_now = TableSeat.objects.filter(round__tournament=tournament, round__number=2)
    assert seated_now.count() == len(GUESTS)
    assert not seated_now.filter(entry__name="Gil Grey").exists()


def test_the_desk_withdraws_a_round_and_cancels_the_evening_by_real_clicks(staff_page: Page):
    """The ways back at the desk, each through its confirmation page: the round withdrawn on a
    laptop, published again, then the evening cancelled on a phone."""
    tournament = club_night()
    desk = f"/admin/tournaments/tournament/{tournament.pk}/change/"
    staff_page.set_viewport_size(LAPTOP)
    staff_page.goto(desk)

    staff_page.get_by_role("link", name="Withdraw round 1").click()
    expect(staff_page.locator("#confirm")).to_contain_text("Its tables leave the public page")
    staff_page.get_by_role("button", name="Yes, withdraw round 1").click()
    staff_page.wait_for_url(f"**{desk}")
    expect(staff_page.locator(".messagelist")).to_contain_text("Round 1 is withdrawn")
    screenshot(staff_page, "desk-round-withdrawn-laptop")
    staff_page.get_by_role("button", name="Publish round 1 as drafted").click()
    expect(staff_page.locator("#desk")).to_contain_text("round 1 of 2")

    staff_page.set_viewport_size(PHONE)
    staff_page.get_by_role("link", name="Cancel the tournament").click()
    staff_page.get_by_role("button", name="Yes, cancel Thursday club").click()
    staff_page.wait_for_url(f"**{desk}")
    expect(staff_page.locator(".messagelist")).to_contain_text("Thursday club is cancelled")
    expect(staff_page.locator("#desk")).not_to_contain_text("Cancel the tournament")
    screenshot(staff_page, "desk-cancelled-phone")
