"""Quick play and the ladders in the browser: "Play now" seats two people who ask for the same
game together and takes each to the table; the ladders' page shows every ladder's standings; the
public ladder pages need no sign-in, and speak French to a French browser."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import Permission
from django.utils import timezone
from playwright.sync_api import Browser, expect

from games import services as game_services
from games.services.presence import presence_write
from matchmaking import services
from matchmaking.models import Ladder
from tests.browser.conftest import LAPTOP, PHONE, PolicyViolations, screenshot
from tests.browser.play import account, sign_up
from tests.browser.test_french_pages import english_on

pytestmark = pytest.mark.django_db(transaction=True)


def test_play_now_seats_two_people_wanting_the_same_game_together(play_contexts):
    alice, bob = (context.new_page() for context in play_contexts[:2])
    for page, name in ((alice, "alice"), (bob, "bob")):
        sign_up(page, name)
        quick = page.get_by_role("region", name="Play now")
        quick.get_by_label("Ruleset").select_option("switch")
        quick.get_by_label("Players").select_option("2")
        quick.get_by_label("Server bots may fill the table").uncheck()
        quick.get_by_role("button", name="Play now").click()
        if name == "alice":
            expect(quick.get_by_role("status")).to_contain_text("Waiting for players")
            screenshot(alice, "play-now-waiting")

    for page in (alice, bob):
        page.wait_for_url(re.compile(r"/play/matches/\d+/$"))
        expect(page.locator("#table")).to_have_attribute("data-status", "active")
    assert alice.url == bob.url


def test_stop_waiting_leaves_quick_play(play_contexts):
    alice = play_contexts[0].new_page()
    sign_up(alice, "alice")
    quick = alice.get_by_role("region", name="Play now")
    quick.get_by_role("button", name="Play now").click()
    expect(quick.get_by_role("status")).to_contain_text("server bots fill the table after 30")

    quick.get_by_role("button", name="Stop waiting").click()

    expect(quick.get_by_role("button", name="Play now")).to_be_visible()


def ladder_with_a_round() -> Ladder:
    keeper = account("keeper")
    keeper.user_permissions.add(Permission.objects.get(codename="add_ladder"))
    ladder = services.ladder_create(
        user=keeper, ruleset="switch", seats=2, interval_seconds=300, turn_seconds=30
    )
    bots = [
        game_services.player_register(username=name, password="pw", bot=True)[0]
        for name in ("robo", "hal", "ada")
    ]
    for user in bots:
        services.ladder_join(ladder_id=ladder.pk, user=user)
    presence_write(seen=dict.fromkeys((u.pk for u in bots), timezone.now()))
    Ladder.objects.filter(pk=ladder.pk).update(next_round_at=timezone.now())
    services.ladder_round_seat(ladder_id=ladder.pk)
    return ladder


def test_the_ladders_page_shows_each_ladders_standings(play_contexts):
    ladder = ladder_with_a_round()
    page = play_contexts[0].new_page()
    sign_up(page, "carol")

    page.get_by_role("link", name="Ladders").click()

    section = page.get_by_role("region", name="switch, 2 players")
    expect(section).to_contain_text("A round every 5 minutes; 3 bots, 3 online now.")
    rows = section.locator("tbody tr")
    expect(rows).to_have_count(5)  # three bots, and the two server bots of shedding
    expect(section).to_contain_text("Heuristic bot")
    expect(section).to_contain_text("Monte Carlo bot")
    expect(section.get_by_role("link", name="robo")).to_have_attribute(
        "href", "/play/players/robo/"
    )
    expect(section.get_by_role("link", name=re.compile(r"^Match \d+$")).first).to_be_visible()
    page.set_viewport_size(PHONE)
    screenshot(page, "play-ladders-phone", full_page=True)
    page.set_viewport_size(LAPTOP)
    section.get_by_role("link", name="Public page").click()
    expect(page).to_have_url(re.compile(f"/ladders/{ladder.pk}/$"))


def test_the_public_ladder_pages_need_no_sign_in_and_speak_french(
    browser: Browser, asgi_server: str, policy_violations: PolicyViolations
):
    ladder = ladder_with_a_round()
    context = policy_violations.watch(
        browser.new_context(viewport=PHONE, base_url=asgi_server, locale="fr-FR")
    )
    page = context.new_page()

    page.goto("/ladders/")
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    page.get_by_role("link", name="Switch", exact=True).click()
    expect(page).to_have_url(re.compile(f"/ladders/{ladder.pk}/$"))
    expect(page.get_by_role("heading", level=1)).to_contain_text("Échelle")
    expect(page.locator("tbody tr")).to_have_count(5)
    expect(page.locator("tbody")).to_contain_text("Robot heuristique")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    screenshot(page, "ladder-public-french", full_page=True)
    text = " ".join(["robo", "hal", "ada"])
    assert [w for w in english_on(page) if w not in text] == []
    context.close()
