"""A whole club night from the players' phones (docs/tournaments.md, "Results from the players'
phones"), in Chromium: guests check themselves in by their seat links, most tables are reported
on a phone and confirmed on another, one report is disputed and the desk settles it on its
result form, the venue's network drops during round 2 and what the phones typed meanwhile is sent
when it is back; the projector follows throughout. Every table gets one result, recorded once."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import BrowserContext, Page, expect

from tests.browser.conftest import PASSWORD, PHONE, screenshot
from tournaments import selectors
from tournaments import services as tournament_services
from tournaments.models import Entry, ResultEntry, ResultReport, Table, Tournament
from tournaments.powers import directors

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

GUESTS = ("Ann", "Bea", "Cal", "Dee", "Eve", "Fay", "Gus", "Hal")


def club_night() -> tuple[Tournament, dict[str, str]]:
    """Eight guests, tables of four, two rounds, reports confirmed and self check-in; all absent."""
    organiser = get_user_model().objects.create_user("desk", is_staff=True)
    organiser.groups.add(directors())
    tournament = tournament_services.tournament_create(
        creator=organiser,
        name="Club night",
        ruleset="switch",
        scoring="french",
        planned_rounds=2,
        table_size=4,
        deals_per_round=1,
        play="offline",
        public=True,
        self_report="confirm",
        self_checkin=True,
    )
    tournament_services.entries_register(
        tournament_id=tournament.pk,
        user=organiser,
        entrants=[tournament_services.Entrant(guest=name) for name in GUESTS],
    )
    Entry.objects.filter(tournament=tournament).update(present=False)
    detail = selectors.tournament_detail(tournament=tournament, seat_links=True)
    return tournament, {entry["name"]: entry["play_url"] for entry in detail["entries"]}


def seated(tournament: Tournament, round_number: int) -> dict[int, list[str]]:
    """Each table's names in seat order."""
    return {
        table.number: [s.entry.name for s in table.seats.select_related("entry").order_by("seat")]
        for table in Table.objects.filter(round__tournament=tournament, round__number=round_number)
    }


def report(page: Page, names: list[str], tally: int = 10) -> None:
    page.get_by_label("Went out").select_option(names[0])
    for name in names[1:]:
        page.get_by_label(f"Tally left to {name}").fill(str(tally))
    page.get_by_role("button", name="Report this result").click()


def test_a_club_night_reported_from_the_phones_with_a_dispute_and_a_network_drop(
    play_contexts: list[BrowserContext],
):
    tournament, links = club_night()
    phones_context, other_phones_context, desk_context = play_contexts
    # Two phones' worth of pages in each of two contexts (the venue's network is per context).
    pages: dict[str, Page] = {}
    for index, name in enumerate(GUESTS):
        page = (phones_context if index % 2 == 0 else other_phones_context).new_page()
        page.set_viewport_size(PHONE)
        page.goto(links[name])
        pages[name] = page
    screen = desk_context.new_page()
    screen.goto(f"/tournaments/{tournament.pk}/screen/")

    # Check-in: every guest taps "I'm here" on their own phone.
    for name in GUESTS:
        pages[name].get_by_role("button", name="I'm here: check in").click()
    for name in GUESTS:
        expect(pages[name].get_by_text("You are checked in for the next round.")).to_be_visible()
    assert Entry.objects.filter(tournament=tournament, present=True).count() == len(GUESTS)
    tournament_services.tournament_start(tournament_id=tournament.pk, user=tournament.created_by)

    # Round 1: table 1 reported and confirmed; table 2 disputed, then settled at the desk.
    tables = seated(tournament, 1)
    for table, names in tables.items():
        expect(
            pages[names[0]].get_by_role("heading", name=f"Club night: round 1, table {table}")
        ).to_be_visible()
        report(pages[names[0]], names)
    first, second = tables[1], tables[2]
    pages[first[1]].get_by_role("button", name="Confirm").click()
    expect(screen.locator("#screen-tables [data-table='1'].recorded")).to_be_visible()
    expect(screen.locator("#screen-tables [data-table='2']")).to_contain_text(
        "awaiting confirmation"
    )
    pages[second[2]].get_by_label("What is wrong (for the desk)").fill("I held 20")
    pages[second[2]].get_by_role("button", name="Dispute").click()
    expect(
        pages[second[0]].get_by_text("This result is disputed: the desk settles it.")
    ).to_be_visible()
    expect(screen.locator("#screen-tables [data-table='2']")).to_contain_text("disputed")

    get_user_model().objects.create_superuser("root", "root@example.invalid", PASSWORD)
    desk = desk_context.new_page()
    desk.goto("/admin/login/")
    desk.fill("#id_username", "root")
    desk.fill("#id_password", PASSWORD)
    desk.click("input[type=submit]")
    desk.wait_for_url("**/admin/")
    desk.goto(f"/admin/tournaments/tournament/{tournament.pk}/change/")
    expect(desk.locator("#desk-reports")).to_contain_text("Table 2: disputed")
    desk.locator("#desk-reports").get_by_role("link", name="enter result").click()
    desk.locator("#id_d0-out-0").check()
    for seat in range(1, 4):
        desk.locator(f"#id_d0-tally-{seat}").fill("20" if seat == 2 else "10")
    desk.get_by_role("button", name="Save the result").click()
    expect(screen.locator("#screen-tables [data-table='2'].recorded")).to_be_visible()
    expect(pages[second[3]].get_by_text(f"Result recorded: {second[0]} 40")).to_be_visible()
    assert ResultReport.objects.get(table__number=2, table__round__number=1).status == "settled"

    # Round 2: the venue's network drops while the tables report and confirm.
    tournament_services.round_next(tournament_id=tournament.pk, user=tournament.created_by)
    tables = seated(tournament, 2)
    for table, names in tables.items():
        expect(
            pages[names[0]].get_by_role("heading", name=f"Club night: round 2, table {table}")
        ).to_be_visible()
        report(pages[names[0]], names)
        expect(pages[names[1]].get_by_role("button", name="Confirm")).to_be_visible()
    for context in (phones_context, other_phones_context):
        context.set_offline(True)
    for names in tables.values():
        pages[names[1]].get_by_role("button", name="Confirm").click()
        expect(pages[names[1]].get_by_text("Waiting to send: your confirmation.")).to_be_visible()
    screenshot(pages[tables[1][1]], "club-night-offline")
    assert not ResultEntry.objects.filter(table__round__number=2).exists()
    for context in (phones_context, other_phones_context):
        context.set_offline(False)
    for names in tables.values():
        expect(pages[names[1]].get_by_text("Sent: your confirmation.")).to_be_visible()
    for table in tables:
        expect(screen.locator(f"#screen-tables [data-table='{table}'].recorded")).to_be_visible()
    screenshot(screen, "club-night-screen")

    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    recorded = Table.objects.filter(round__tournament=tournament)
    assert sorted(ResultEntry.objects.values_list("table_id", flat=True)) == sorted(
        recorded.values_list("pk", flat=True)
    )
    assert ResultReport.objects.filter(status="confirmed").count() == 3
