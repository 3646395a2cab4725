"""The lobby between people: refusals shown in the server's words, a challenge that reaches the
invitee's open lobby without a reload and starts the match when accepted, a third person watching
that match on the big screen without seeing a card of anyone's hand, and a tournament's table in
play offered to watch."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import LAPTOP, PHONE, screenshot
from tests.browser.play import PASSWORD, account, online_tournament, sign_up
from tournaments import services as tournaments
from tournaments.powers import directors

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_challenge_reaches_the_open_lobby_starts_the_match_and_others_watch(play_contexts):
    bob, alice, carol = (context.new_page() for context in play_contexts)
    sign_up(bob, "bob")

    # A refusal is shown in the server's words: the name is taken.
    alice.goto("/play/")
    alice.get_by_label("Username").fill("bob")
    alice.get_by_label("Password").fill(PASSWORD)
    alice.get_by_role("button", name="Sign up").click()
    expect(alice.get_by_role("alert")).to_contain_text("taken")
    sign_up(alice, "alice")
    alice.set_viewport_size(PHONE)
    alice.get_by_label("Game").select_option("switch")
    assert alice.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    screenshot(alice, "play-lobby-phone", full_page=True)
    alice.set_viewport_size(LAPTOP)

    alice.get_by_label("Game").select_option("switch")
    alice.get_by_label("Number of players").fill("3")
    alice.get_by_label("Invite by username").fill("bob")
    alice.get_by_label("Seat 3", exact=True).select_option("random")
    alice.get_by_text("House rules").click()
    alice.get_by_label("draw rule").fill("sometimes")
    alice.get_by_role("button", name="Send challenge").click()
    form = alice.get_by_role("form", name="New match")
    expect(form.get_by_role("alert")).to_contain_text("draw_rule")
    alice.get_by_label("draw rule").fill("one")
    alice.get_by_role("button", name="Send challenge").click()
    expect(alice.get_by_text("You challenged bob")).to_be_visible()

    # Bob's lobby, open all along, hears of it from his feed.
    challenge = bob.locator(".challenges li", has_text="alice challenges bob")
    expect(challenge).to_be_visible()
    challenge.get_by_role("button", name="Accept").click()
    started = re.compile(r"Match (\d+) has started")
    expect(alice.locator(".notices")).to_contain_text(started)
    match_id = started.search(alice.locator(".notices").inner_text()).group(1)  # type: ignore[union-attr]
    alice.get_by_role("link", name=f"Go to match {match_id}").first.click()
    expect(alice.locator("#table")).to_have_attribute("data-status", "active")
    expect(alice.get_by_role("region", name="Your hand")).to_be_visible()

    # Carol watches: the spectator's view, on the big screen.
    sign_up(carol, "carol")
    carol.get_by_role("link", name=f"Watch match {match_id}").click()
    table = carol.locator("#table")
    expect(table).to_have_attribute("data-status", "active")
    expect(carol.get_by_role("status").first).to_contain_text("You are watching")
    expect(carol.get_by_role("region", name="Your hand")).to_have_count(0)
    expect(carol.locator("button[data-move]")).to_have_count(0)
    expect(carol.get_by_role("region", name="The pile")).to_contain_text("Top card")
    carol.get_by_role("button", name="Big screen").click()
    expect(table).to_have_class(re.compile(r"\bscreen\b"))
    assert "screen=1" in carol.url
    screenshot(carol, "play-watching-big-screen")


def test_the_lobby_lists_a_tournament_table_in_play_to_watch(play_contexts):
    organiser = account("desk", is_staff=True)
    organiser.groups.add(directors())  # a tournament director
    erin = account("erin")
    online_tournament(
        organiser, [tournaments.Entrant(player=erin.username), tournaments.Entrant(bot="random")]
    )
    page = play_contexts[0].new_page()
    sign_up(page, "dave")

    page.get_by_role("link", name="Watch Thursday online, round 1, table 1").click()

    expect(page.locator("#table")).to_have_attribute("data-status", "active")
    expect(page.get_by_role("status").first).to_contain_text("You are watching")
    expect(page.get_by_role("region", name="Seats")).to_contain_text("erin")
