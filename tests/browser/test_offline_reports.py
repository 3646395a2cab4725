"""Nothing lost when the venue's network drops (docs/tournaments.md, "Results from the players'
phones"): in Chromium with Playwright's offline mode, a guest reports from the seat link while the
network is down, the page says it waits, then sends it when the network is back; a second phone
confirms it the same way; one result is recorded, once. The desk's result form likewise. And a
member's own page of the tournament: check in, then confirm their opponent's report."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import BrowserContext, Page, expect

from games import services as game_services
from tests.browser.conftest import PASSWORD, PHONE, screenshot
from tests.browser.play import PASSWORD as BROWSER_PASSWORD
from tests.browser.play import sign_in
from tournaments import selectors
from tournaments import services as tournament_services
from tournaments.models import Entry, ResultEntry, ResultReport, Table, Tournament
from tournaments.powers import directors

pytestmark = pytest.mark.django_db(transaction=True)

GUESTS = ("Ann", "Bea", "Cal", "Dee")


def club_night(**settings) -> tuple[Tournament, dict[str, str]]:
    """An offline night of four guests at one table, round 1 seated: the seat link of each."""
    organiser = get_user_model().objects.create_user("desk", is_staff=True)
    organiser.groups.add(directors())
    tournament = tournament_services.tournament_create(
        creator=organiser,
        name="Friday cards",
        ruleset="switch",
        scoring="french",
        planned_rounds=1,
        table_size=4,
        deals_per_round=1,
        play="offline",
        **settings,
    )
    tournament_services.entries_register(
        tournament_id=tournament.pk,
        user=organiser,
        entrants=[tournament_services.Entrant(guest=name) for name in GUESTS],
    )
    tournament_services.tournament_start(tournament_id=tournament.pk, user=organiser)
    detail = selectors.tournament_detail(tournament=tournament, seat_links=True)
    return tournament, {entry["name"]: entry["play_url"] for entry in detail["entries"]}


def seated_names(tournament: Tournament) -> list[str]:
    table = Table.objects.get(round__tournament=tournament)
    return [seat.entry.name for seat in table.seats.select_related("entry").order_by("seat")]


def phone(context: BrowserContext, url: str) -> Page:
    page = context.new_page()
    page.set_viewport_size(PHONE)
    page.goto(url)
    return page


def test_a_report_and_a_confirmation_made_offline_are_sent_once_when_the_network_is_back(
    play_contexts: list[BrowserContext],
):
    tournament, links = club_night(self_report="confirm")
    names = seated_names(tournament)
    first_context, second_context = play_contexts[:2]
    first = phone(first_context, links[names[0]])
    second = phone(second_context, links[names[1]])
    for page in (first, second):
        expect(page.get_by_role("heading", name="Friday cards: round 1, table 1")).to_be_visible()

    first_context.set_offline(True)
    first.get_by_label("Went out").select_option(names[0])
    for name in names[1:]:
        first.get_by_label(f"Tally left to {name}").fill("10")
    first.get_by_role("button", name="Report this result").click()

    expect(first.get_by_text("Waiting to send: the result of table 1.")).to_be_visible()
    screenshot(first, "offline-report-waiting")
    assert not ResultReport.objects.exists()
    first_context.set_offline(False)
    expect(first.get_by_text("Sent: the result of table 1.")).to_be_visible()
    expect(first.get_by_text("Your report awaits an opponent's confirmation.")).to_be_visible()

    # The second phone hears of it through its feed, then confirms while offline.
    expect(second.get_by_text(f"Reported by {names[0]}:")).to_be_visible()
    second_context.set_offline(True)
    second.get_by_role("button", name="Confirm").click()
    expect(second.get_by_text("Waiting to send: your confirmation.")).to_be_visible()
    assert not ResultEntry.objects.exists()
    second_context.set_offline(False)
    expect(second.get_by_text("Sent: your confirmation.")).to_be_visible()
    expect(second.get_by_text(f"Result recorded: {names[0]} 30")).to_be_visible()
    expect(first.get_by_text(f"Result recorded: {names[0]} 30")).to_be_visible()
    screenshot(second, "offline-report-confirmed")

    # Opened again, neither phone sends anything twice.
    first.reload()
    expect(first.get_by_text(f"Result recorded: {names[0]} 30")).to_be_visible()
    assert ResultReport.objects.get().status == ResultReport.Status.CONFIRMED
    assert ResultEntry.objects.count() == 1
    assert Table.objects.get(round__tournament=tournament).outcome == Table.Outcome.ENTERED


def test_the_desks_result_form_filled_offline_is_saved_once_when_the_network_is_back(
    play_contexts: list[BrowserContext],
):
    tournament, _ = club_night()
    names = seated_names(tournament)
    get_user_model().objects.create_superuser("root", "root@example.invalid", PASSWORD)
    context = play_contexts[0]
    desk = context.new_page()
    desk.goto("/admin/login/")
    desk.fill("#id_username", "root")
    desk.fill("#id_password", PASSWORD)
    desk.click("input[type=submit]")
    desk.wait_for_url("**/admin/")
    desk.goto(f"/admin/tournaments/tournament/{tournament.pk}/rounds/1/tables/1/result/")

    context.set_offline(True)
    desk.locator("#id_d0-out-0").check()
    for seat, _name in enumerate(names[1:], start=1):
        desk.locator(f"#id_d0-tally-{seat}").fill("10")
    desk.get_by_role("button", name="Save the result").click()

    status = desk.locator("#desk-outbox")
    expect(status).to_contain_text("Waiting to send: the result of table 1, round 1.")
    assert not ResultEntry.objects.exists()
    context.set_offline(False)
    expect(status).to_contain_text("Sent: the result of table 1, round 1.")
    screenshot(desk, "offline-desk-sent")

    assert ResultEntry.objects.count() == 1
    assert Table.objects.get(round__tournament=tournament).outcome == Table.Outcome.ENTERED


def test_a_member_checks_in_and_confirms_on_their_own_tournament_page(
    play_contexts: list[BrowserContext],
):
    organiser = get_user_model().objects.create_user("desk", is_staff=True)
    organiser.groups.add(directors())
    member, _ = game_services.player_register(username="marie", password=BROWSER_PASSWORD)
    tournament = tournament_services.tournament_create(
        creator=organiser,
        name="Members night",
        ruleset="switch",
        scoring="placement",
        planned_rounds=1,
        table_size=2,
        deals_per_round=1,
        play="offline",
        self_report="confirm",
        self_checkin=True,
    )
    tournament_services.entry_register(
        tournament_id=tournament.pk, user=member, entrant=tournament_services.Entrant()
    )
    tournament_services.entry_register(
        tournament_id=tournament.pk,
        user=organiser,
        entrant=tournament_services.Entrant(guest="Zoé"),
    )
    Entry.objects.filter(player=member).update(present=False)
    page = play_contexts[0].new_page()
    page.set_viewport_size(PHONE)

    sign_in(page, "marie", f"/play/tournaments/{tournament.pk}/")
    page.get_by_role("button", name="I'm here: check in").click()
    expect(page.get_by_text("You are checked in for the next round.")).to_be_visible()
    tournament_services.tournament_start(tournament_id=tournament.pk, user=organiser)
    expect(page.get_by_role("heading", name="Members night: round 1, table 1")).to_be_visible()
    guest = Entry.objects.get(name="Zoé").guest_user
    assert guest is not None
    tournament_services.report_create(
        tournament_id=tournament.pk,
        round_number=1,
        table_number=1,
        user=guest,
        result={"deals": [{"order": ["Zoé", "marie"]}]},
    )
    expect(page.get_by_text("Reported by Zoé:")).to_be_visible()
    page.get_by_role("button", name="Confirm").click()

    expect(page.get_by_text("Result recorded: ")).to_contain_text("Zoé 1")
    screenshot(page, "member-table-recorded")
    assert ResultEntry.objects.get().entered_by == member


def test_the_desk_shows_a_report_as_it_comes_but_not_under_the_directors_typing(
    play_contexts: list[BrowserContext],
):
    tournament, _ = club_night(self_report="confirm")
    names = seated_names(tournament)
    get_user_model().objects.create_superuser("root", "root@example.invalid", PASSWORD)
    desk = play_contexts[0].new_page()
    desk.goto("/admin/login/")
    desk.fill("#id_username", "root")
    desk.fill("#id_password", PASSWORD)
    desk.click("input[type=submit]")
    desk.wait_for_url("**/admin/")
    desk.goto(f"/admin/tournaments/tournament/{tournament.pk}/change/")
    # A second desk tab, where nobody types: it shows when the news has reached the desk.
    witness = play_contexts[0].new_page()
    witness.goto(f"/admin/tournaments/tournament/{tournament.pk}/change/")
    minutes = desk.locator("#desk-clock input[name=minutes]")
    minutes.fill("25")  # the director is typing the round's minutes
    reporter = Entry.objects.get(name=names[0]).guest_user
    assert reporter is not None

    tournament_services.report_create(
        tournament_id=tournament.pk,
        round_number=1,
        table_number=1,
        user=reporter,
        result={"deals": [{"winner": names[0], "points_left": dict.fromkeys(names[1:], 10)}]},
    )
    expect(witness.locator("#desk-reports")).to_contain_text("Table 1")
    desk.wait_for_timeout(500)  # the typing tab heard the same news at the same moment
    expect(minutes).to_have_value("25")
    expect(desk.locator("#desk-reports")).to_have_count(0)

    minutes.blur()
    expect(desk.locator("#desk-reports")).to_contain_text(
        "Table 1: reported, awaiting an opponent's confirmation"
    )
