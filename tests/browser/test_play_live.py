"""The table live: a multi-card turn of jacks-twos-eights played with the keyboard alone, and two
browsers at one table, one of which loses its network for ten seconds and catches up by itself
(resuming the match's stream with Last-Event-ID), without a reload."""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import expect

from games import services
from tests.browser.play import (
    account,
    focus_with_tab,
    legal_moves,
    move_button,
    shedding_choice,
    sign_in,
)
from tests.conftest import with_game_powers

pytestmark = pytest.mark.django_db(transaction=True)

OFFLINE_SECONDS = 10


def test_a_jacks_twos_eights_turn_of_several_actions_is_played_with_the_keyboard(play_contexts):
    jay = with_game_powers(account("jay"))  # the deal is laid out (docs/api.md, "layout")
    layout = {
        "hands": [
            ["6S", "6C", "5C", "4C", "KD", "QD", "3D"],
            ["9H", "9S", "TD", "TC", "KH", "QH", "3H"],
        ],
        "starter": "6H",
        "stock": [],
    }
    match = services.match_create(
        creator=jay,
        ruleset="jacks-twos-eights",
        seats=2,
        bots_wanted=[{"seat": 1, "strategy": "random"}],
        layout=layout,
        turn_seconds=600,
    )
    services.match_start(match_id=match.pk, user=jay)
    page = play_contexts[0].new_page()
    sign_in(page, "jay", f"/play/matches/{match.pk}/")
    table = page.locator("#table")
    expect(table).to_have_attribute("data-to-move", "0")
    expect(page.locator(".clock")).to_contain_text(re.compile(r"Clock: (10:00|9:5\d) left"))
    hand = page.get_by_role("region", name="Your hand")
    for name in ("six of spades", "six of clubs", "king of diamonds", "three of diamonds"):
        expect(
            hand.get_by_role("img", name=name).or_(
                hand.get_by_role("button", name=f"Play the {name}")
            )
        ).to_be_visible()

    turn = [
        {"action": "play", "card": "6S"},
        {"action": "play", "card": "6C"},
        {"action": "play", "card": "5C"},
        {"action": "end_turn"},
    ]
    for move in turn:
        expect(move_button(page, move)).to_be_enabled()
        version = table.get_attribute("data-version")
        focus_with_tab(page, move)
        page.keyboard.press("Enter")
        expect(table).not_to_have_attribute("data-version", version or "")
        if move["action"] == "play":
            expect(table).to_have_attribute("data-to-move", "0")  # still this seat's turn

    log = page.locator(".log")
    for sentence in (
        "jay plays the six of spades.",
        "jay plays the six of clubs.",
        "jay plays the five of clubs.",
        "jay ends the turn.",
    ):
        expect(log).to_contain_text(sentence)
    expect(table).not_to_have_attribute("data-to-move", "")
    expect(hand).to_contain_text("(4 cards)")


def test_two_browsers_at_one_table_one_loses_its_network_and_catches_up(play_contexts, settings):
    # Streams end every two seconds, so the offline browser's stream is sure to break and resume.
    settings.SSE_MAX_SECONDS = 2
    alice, bob = account("alice"), account("bob")
    match = services.match_create(
        creator=alice, ruleset="switch", seats=3, bots_wanted=[{"seat": 1, "strategy": "random"}]
    )
    services.match_join(match_id=match.pk, user=bob, seat=2)
    services.match_start(match_id=match.pk, user=alice)
    pages = []
    for context, name in zip(play_contexts[:2], ("alice", "bob"), strict=True):
        page = context.new_page()
        sign_in(page, name, f"/play/matches/{match.pk}/")
        expect(page.locator(".connection")).to_have_attribute("data-state", "live")
        pages.append(page)
    alice_page, bob_page = pages
    alice_table, bob_table = alice_page.locator("#table"), bob_page.locator("#table")
    expect(bob_table).to_have_attribute(
        "data-version", alice_table.get_attribute("data-version") or ""
    )

    play_contexts[1].set_offline(True)
    offline_at = time.monotonic()
    expect(bob_page.locator(".connection")).to_have_attribute("data-state", "reconnecting")
    # Alice plays (the bot after her too) while Bob cannot hear of it.
    expect(alice_table).to_have_attribute("data-to-move", "0")
    move_button(alice_page, shedding_choice(legal_moves(alice_page))).click()
    expect(alice_table).to_have_attribute("data-to-move", "2")  # the bot has played: Bob's turn
    missed = alice_table.get_attribute("data-version")
    assert bob_table.get_attribute("data-version") != missed
    time.sleep(max(0.0, OFFLINE_SECONDS - (time.monotonic() - offline_at)))
    play_contexts[1].set_offline(False)

    expect(bob_page.locator(".connection")).to_have_attribute("data-state", "live")
    expect(bob_table).to_have_attribute("data-version", missed or "")
    expect(bob_table).to_have_attribute("data-to-move", "2")
    expect(bob_page.locator(".log")).to_contain_text("alice")
    # The same events in both logs (each in its own words: a seat's own cards are its own).
    public = ".log li:not(.hand)"
    seqs = [[e.get_attribute("data-seq") for e in p.locator(public).all()] for p in pages]
    assert seqs[0] == seqs[1]
    # Bob plays; Alice sees it.
    move_button(bob_page, shedding_choice(legal_moves(bob_page))).click()
    expect(alice_table).not_to_have_attribute("data-version", missed or "")
    expect(alice_table).to_have_attribute(
        "data-version", bob_table.get_attribute("data-version") or ""
    )


def test_four_seat_abbotts_switch_offers_an_alliance_and_shows_it(play_contexts):
    ann = account("ann")
    bots = [{"seat": seat, "strategy": "random"} for seat in (1, 2, 3)]
    match = services.match_create(creator=ann, ruleset="abbott", seats=4, bots_wanted=bots)
    services.match_start(match_id=match.pk, user=ann)
    page = play_contexts[0].new_page()
    sign_in(page, "ann", f"/play/matches/{match.pk}/")
    expect(page.locator(".grid .square")).to_have_count(36)
    for partner in ("Random bot 2", "Random bot 3", "Random bot 4"):
        expect(page.get_by_role("button", name=f"Ally with {partner}")).to_be_enabled()

    page.get_by_role("button", name="Ally with Random bot 3").click()

    expect(page.locator(".log")).to_contain_text("ann allies with Random bot 3.")
    expect(page.get_by_text("Alliance: ann chose Random bot 3.")).to_be_visible()
    expect(page.get_by_role("button", name=re.compile("^Ally with"))).to_have_count(0)
    expect(page.locator(".grid button[data-move]").first).to_be_enabled()  # now the move
