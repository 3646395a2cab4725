"""The end of a match and its replay, in a real browser: the score explained, Play again (the
same game, the bots kept), and /play/matches/N/replay/ stepping through every hand by buttons,
keys and a shared link — for both games, and in French."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone
from playwright.sync_api import Page, expect

from games import services
from games.models import Match
from switchgame.protocol import HandOutcome, Outcome, solo_teams
from tests.browser.conftest import PHONE
from tests.browser.play import PASSWORD, finished_match, sign_in

pytestmark = pytest.mark.django_db(transaction=True)


def step(page: Page) -> int:
    return int(page.locator("#replay").get_attribute("data-step") or 0)


def test_the_end_explains_the_score_plays_again_and_replays_every_hand(play_contexts):
    match_id = finished_match("emma", "switch", 2)
    page = play_contexts[0].new_page()
    sign_in(page, "emma", f"/play/matches/{match_id}/")

    result = page.get_by_role("region", name="Result")
    expect(result).to_contain_text("wins the match")
    expect(result).to_contain_text("French tally of the cards left in the other hands")
    expect(result.locator(".sum, .tally").first).to_be_visible()  # where the points come from

    page.get_by_role("link", name="Watch the replay").click()
    page.wait_for_url(f"**/play/matches/{match_id}/replay/")
    expect(page.get_by_role("status").first).to_contain_text(re.compile(r"Step 1 of \d+"))
    hands = page.get_by_role("region", name="Every hand")
    expect(hands.get_by_role("img").first).to_be_visible()  # a hand face up
    page.keyboard.press("ArrowRight")
    expect(page.locator("#replay")).to_have_attribute("data-step", "2")
    page.keyboard.press("End")
    last = step(page)
    assert last > 2
    expect(page.locator(".replay-said")).to_contain_text("The match is over")
    page.get_by_role("button", name="Back").click()
    expect(page.locator("#replay")).to_have_attribute("data-step", str(last - 1))
    page.keyboard.press("Home")
    expect(page.locator("#replay")).to_have_attribute("data-step", "1")
    # The address says where the replay stands: a link to share.
    page.keyboard.press("ArrowRight")
    shared = page.url
    assert shared.endswith("?step=2")
    other = play_contexts[1].new_page()
    get_user_model().objects.create_user("finn", password=PASSWORD)
    sign_in(other, "finn", "/" + shared.split("//", 1)[1].split("/", 1)[1])
    expect(other.locator("#replay")).to_have_attribute("data-step", "2")

    # Play again: the same game against the same bot, started at once.
    page.goto(f"/play/matches/{match_id}/")
    page.get_by_role("button", name="Play again").click()
    page.wait_for_url(re.compile(rf"/play/matches/(?!{match_id}/)\d+/$"))
    table = page.locator("#table")
    expect(table).to_have_attribute("data-status", "active")
    expect(page.get_by_role("region", name="Seats")).to_contain_text("Random bot")


def test_abbotts_replay_shows_the_grid_and_the_french_table_speaks_french(play_contexts):
    match_id = finished_match("gaspard", "abbott-2", 2, target=5)
    page = play_contexts[0].new_page()
    sign_in(page, "gaspard")
    expect(page.get_by_text("Signed in as gaspard.")).to_be_visible()
    # The language chosen, as the switcher keeps it.
    play_contexts[0].add_cookies([{"name": "language", "value": "fr", "url": page.url}])
    page.goto(f"/play/matches/{match_id}/replay/")
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    expect(page.get_by_role("status").first).to_contain_text(re.compile(r"Étape 1 sur \d+"))
    expect(page.locator(".grid .square")).to_have_count(25)
    page.keyboard.press("End")
    expect(page.locator(".replay-said")).to_contain_text("La partie est finie")
    page.goto(f"/play/matches/{match_id}/")
    expect(page.get_by_role("button", name="Rejouer")).to_be_visible()
    expect(page.locator(".status")).to_have_text("La partie est finie.")


def test_the_points_by_deal_fit_a_phone(play_contexts):
    """Issue 37: the points-by-deal table was cut off on a phone. Four players, a column each:
    the table scrolls inside its own region, and the page is no wider than the phone."""
    iris = get_user_model().objects.create_user("iris", password=PASSWORD)
    bots = [{"seat": seat, "strategy": "random"} for seat in (1, 2, 3)]
    match = services.match_create(creator=iris, ruleset="switch", seats=4, bots_wanted=bots)
    services.match_start(match_id=match.pk, user=iris)
    # Its end, written as a finished match's (playing four seats to the end takes half a minute).
    deal = HandOutcome(1, (95, 0, 0, 0), 0, (0, 2, 1, 3), solo_teams(4), (0, 20, 25, 50))
    outcome = Outcome((deal,), (95, 0, 0, 0), (0, 2, 1, 3), (0, 20, 25, 50))
    Match.objects.filter(pk=match.pk).update(
        status=Match.Status.FINISHED, result=outcome.to_json(), finished_at=timezone.now()
    )
    match_id = match.pk
    context = play_contexts[0]
    page = context.new_page()
    page.set_viewport_size(PHONE)
    sign_in(page, "iris", f"/play/matches/{match_id}/")

    expect(page.get_by_role("region", name="Result")).to_contain_text("wins the match")
    region = page.get_by_role("region", name="Points")
    box = region.bounding_box()
    assert box is not None
    assert box["x"] >= 0
    assert box["x"] + box["width"] <= PHONE["width"]
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    wide, shown = region.evaluate("region => [region.scrollWidth, region.clientWidth]")
    assert wide > shown  # wider than the phone: the case of the issue
    last_column = region.locator("tr.total td").last
    last_column.scroll_into_view_if_needed()
    cell = last_column.bounding_box()
    assert cell is not None
    assert cell["x"] + cell["width"] <= PHONE["width"]  # reachable by scrolling the region
