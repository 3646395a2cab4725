"""The web client for everyone, in Chromium: axe-core finds no serious or critical violation on
the lobby, a player's page, a table of each game, the end screen and the replay; the turn is
announced through a live region; each game's moves are played by keyboard alone; a move
survives the network cut during it and after it, applied once; the lobby follows the server without a reload, each
match listed once; the language switcher works on /play/ pages; the big screen fills a
1920×1080 projector and the points table scrolls on a phone.

Checks are grouped so that one server and one Chromium serve many of them (CI's budget): one test
for the pages around the table, one for the table itself.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import Browser, BrowserContext, Page, Route, ViewportSize, expect

from games import services
from games.models import MatchEvent
from tests.browser.conftest import LAPTOP, PHONE, screenshot
from tests.browser.play import (
    account,
    finished_match,
    focus_with_tab,
    move_button,
    online_tournament,
    sign_in,
)
from tests.conftest import IN_CI, with_game_powers
from tournaments import services as tournaments
from tournaments.powers import directors

pytestmark = pytest.mark.django_db(transaction=True)

AXE = Path(__file__).resolve().parents[2] / "play" / "node_modules" / "axe-core" / "axe.min.js"
PROJECTOR: ViewportSize = {"width": 1920, "height": 1080}


@pytest.fixture
def axe_context(browser: Browser, asgi_server: str) -> Iterator[BrowserContext]:
    """A laptop-sized context that may inject axe-core (the pages' policy forbids inline scripts:
    the other browser tests keep it)."""
    if not AXE.exists():
        if IN_CI:
            pytest.fail("CI=true but axe-core is not installed (make lint runs npm ci in play/)")
        pytest.skip("axe-core is not installed: run make lint (npm ci in play/)")
    context = browser.new_context(viewport=LAPTOP, base_url=asgi_server, bypass_csp=True)
    context.set_default_timeout(15_000)
    yield context
    context.close()


def serious_violations(page: Page) -> list[str]:
    """axe-core's serious and critical findings on the page as it is now, one line each."""
    if not page.evaluate("typeof axe !== 'undefined'"):
        page.add_script_tag(content=AXE.read_text())
    return page.evaluate(
        """async () => (await axe.run(document, {resultTypes: ["violations"]})).violations
            .filter((v) => v.impact === "serious" || v.impact === "critical")
            .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)"""
    )


def online_tournament_table() -> int:
    """A public online tournament's table being played (erin against a bot): its match."""
    organiser = account("desk", is_staff=True)
    organiser.groups.add(directors())  # a tournament director
    account("erin")
    entrants = [tournaments.Entrant(player="erin"), tournaments.Entrant(bot="random")]
    match_id = online_tournament(organiser, entrants).rounds.get().tables.get().match_id
    assert match_id is not None  # an online table has its match
    return match_id


def test_the_pages_around_the_table_are_live_accessible_and_fit_phone_and_projector(axe_context):
    ended = finished_match("alice", "switch", 6)  # six columns of points: wider than a phone
    at_table = online_tournament_table()
    account("bob")
    carol = account("carol")
    page = axe_context.new_page()
    sign_in(page, "bob")
    expect(page.get_by_text("Signed in as bob.")).to_be_visible()

    # Each match once: the tournament's table under its tournament only.
    expect(page.get_by_role("link", name="Watch Thursday online, round 1, table 1")).to_be_visible()
    expect(page.get_by_text("No other match is being played.")).to_be_visible()
    expect(page.locator(f"a[href='/play/matches/{at_table}/']")).to_have_count(1)
    assert serious_violations(page) == []

    # Live: a match opened, then filled and started elsewhere, without a reload.
    alice = get_user_model().objects.get(username="alice")
    opened = services.match_create(creator=alice, ruleset="switch", seats=2, auto_start=True)
    expect(page.get_by_role("button", name=f"Join match {opened.pk}")).to_be_visible()
    services.match_join(match_id=opened.pk, user=carol)
    expect(page.get_by_role("link", name=f"Watch match {opened.pk}")).to_be_visible()
    expect(page.get_by_role("button", name=f"Join match {opened.pk}")).to_have_count(0)
    expect(page.locator(f"a[href='/play/matches/{at_table}/']")).to_have_count(1)
    screenshot(page, "play-lobby-live")

    # The language switcher answers (Chromium sends the page's Origin with its form).
    page.get_by_role("button", name="Français").click()
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    expect(page.get_by_role("heading", name="Vos parties")).to_be_visible()
    page.locator(".language-switcher button[lang=en]").click()
    expect(page.get_by_role("heading", name="Your matches")).to_be_visible()

    # A player's page: the rating in each game, the newest matches, each over one to its replay.
    page.get_by_role("link", name="Your page").click()
    expect(page.get_by_role("heading", name="bob", exact=True)).to_be_visible()
    page.goto("/play/players/alice/")
    ratings = page.get_by_role("table")
    expect(ratings.get_by_role("row")).to_have_count(3)  # the header, then each game
    expect(ratings).to_contain_text("Abbott's Switch")
    screenshot(page, "play-player-page")
    assert serious_violations(page) == []
    page.get_by_role("link", name=f"Replay of match {ended}").click()
    expect(page.locator("#replay")).to_have_attribute("data-step", "1")
    assert serious_violations(page) == []

    # The end screen; on a phone its points table scrolls rather than being cut or widening the page.
    page.goto(f"/play/matches/{ended}/")
    points = page.get_by_role("region", name="Points")
    expect(points.get_by_role("table")).to_contain_text("Total")
    assert serious_violations(page) == []
    page.set_viewport_size(PHONE)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    wrap = points.evaluate("e => [e.scrollWidth, e.clientWidth, e.getBoundingClientRect().right]")
    assert wrap[0] > wrap[1], "the table is wider than the phone: it must scroll"
    assert wrap[2] <= PHONE["width"]
    points.evaluate("e => e.scrollBy(1000, 0)")
    expect(points.get_by_role("columnheader").last).to_be_in_viewport()
    screenshot(page, "play-points-phone", full_page=True)

    # The big screen fills a projector: the whole width, the pile large, nothing to scroll.
    page.set_viewport_size(PROJECTOR)
    page.goto(f"/play/matches/{at_table}/?screen=1")
    table = page.locator("#table")
    expect(table).to_have_class(re.compile(r"\bscreen\b"))
    expect(page.get_by_role("region", name="The pile")).to_be_visible()
    expect(page.get_by_role("link", name="erin")).to_have_attribute("href", "/play/players/erin/")
    screenshot(page, "play-big-screen-projector")
    box = table.bounding_box()
    assert box is not None
    assert box["width"] >= 0.95 * PROJECTOR["width"]
    assert page.evaluate("document.documentElement.scrollHeight") <= PROJECTOR["height"]
    top = page.locator(".top-card .card").first.bounding_box()
    assert top is not None
    assert top["height"] >= 0.25 * PROJECTOR["height"]


# Everything the page says of its turn and connection while the browser is offline, as it changes.
WATCH_WORDS = """() => {
  window.said = [];
  const note = () => navigator.onLine || window.said.push([
    document.querySelector("#table .status")?.textContent ?? "",
    document.querySelector("#table .connection")?.textContent ?? "",
  ]);
  new MutationObserver(note).observe(document.getElementById("table"),
    {subtree: true, childList: true, characterData: true});
}"""


def test_a_table_plays_by_keyboard_speaks_the_turn_and_keeps_a_move_through_a_cut(axe_context):
    jay = with_game_powers(account("jay"))  # the deal is laid out (docs/api.md, "layout")
    # The bot can follow neither seven (no heart, no seven, nothing that goes on anything) and
    # draws the nine of clubs, which does not follow either: jay is to play again each time.
    layout = {
        "hands": [
            ["7H", "7S", "KH", "4H", "QD", "TC", "5H"],
            ["3S", "4C", "5C", "6S", "9D", "TD", "3C"],
        ],
        "starter": "7D",
        "stock": ["9C", "TS", "3D", "5D", "6C", "4S", "9H", "6H"],
    }
    match = services.match_create(
        creator=jay,
        ruleset="switch",
        seats=2,
        bots_wanted=[{"seat": 1, "strategy": "random"}],
        layout=layout,
    )
    services.match_start(match_id=match.pk, user=jay)
    page = axe_context.new_page()
    sign_in(page, "jay", f"/play/matches/{match.pk}/")
    table = page.locator("#table")
    expect(table).to_have_attribute("data-to-move", "0")
    expect(page.locator(".connection")).to_have_attribute("data-state", "live")

    # The turn is announced: a polite live region that stays in the page and says it.
    status = page.locator("#table .status")
    expect(status).to_have_attribute("role", "status")
    expect(status).to_have_text("Your turn.")
    region = status.element_handle()
    assert serious_violations(page) == []

    # By keyboard alone: Tab to the seven of hearts, Enter plays it.
    version = table.get_attribute("data-version") or ""
    focus_with_tab(page, {"action": "play", "card": "7H"})
    page.keyboard.press("Enter")
    expect(table).not_to_have_attribute("data-version", version)
    expect(page.locator(".log")).to_contain_text("jay plays the seven of hearts.")
    expect(table).to_have_attribute("data-to-move", "0")  # the bot has answered
    expect(status).to_have_text("Your turn.")
    assert region.evaluate("e => e.isConnected && e.matches('[aria-live=polite]')")

    # The network is cut during a move: the server applies it, its answer never arrives.
    page.evaluate(WATCH_WORDS)
    move = {"action": "play", "card": "7S"}
    lost: list[str] = []

    def answer_lost(route: Route) -> None:
        route.fetch()  # the server applies the move
        axe_context.set_offline(True)
        lost.append(route.request.headers["idempotency-key"])
        route.abort("internetdisconnected")

    page.route("**/moves/", answer_lost)
    move_button(page, move).click()
    expect(page.locator(".connection")).to_have_attribute("data-state", "reconnecting")
    expect(status).to_have_text(
        "Your move is kept and will be sent again when the connection is back."
    )
    page.unroute("**/moves/")
    page.wait_for_timeout(1500)  # a retry or two fail meanwhile
    said_offline = page.evaluate("window.said")
    with page.expect_request(lambda request: request.url.endswith("/moves/")) as again:
        axe_context.set_offline(False)
    assert again.value.headers["idempotency-key"] == lost[0]
    expect(page.locator(".connection")).to_have_attribute("data-state", "live")
    expect(page.locator(".log")).to_contain_text("jay plays the seven of spades.")
    played = MatchEvent.objects.filter(match=match, seat=0, type="play", data__card="7S")
    assert played.count() == 1
    assert page.locator(".log li", has_text="jay plays the seven of spades.").count() == 1

    # The network is cut after a move: the page says so until it is back, and catches up.
    expect(table).to_have_attribute("data-to-move", "0")
    page.evaluate(WATCH_WORDS)
    axe_context.set_offline(True)
    expect(status).to_have_text("Your turn, once the connection is back.")
    expect(page.locator(".connection")).to_have_text("Connection lost: reconnecting…")
    page.wait_for_timeout(1500)
    said_after = page.evaluate("window.said")
    axe_context.set_offline(False)
    expect(page.locator(".connection")).to_have_attribute("data-state", "live")
    expect(status).to_have_text("Your turn.")
    assert said_offline
    assert said_after
    for words in (*said_offline, *said_after):
        assert words[0] != "Your turn."
        assert words[1] != "Live"

    # Abbott's Switch's table: no serious violation either, and its moves by keyboard too.
    bots = [{"seat": seat, "strategy": "random"} for seat in (1, 2, 3)]
    grid = services.match_create(creator=jay, ruleset="abbott", seats=4, bots_wanted=bots)
    services.match_start(match_id=grid.pk, user=jay)
    page.goto(f"/play/matches/{grid.pk}/")
    expect(page.locator(".grid .square")).to_have_count(36)
    expect(table).to_have_attribute("data-to-move", "0")
    assert serious_violations(page) == []
    version = table.get_attribute("data-version") or ""
    first = json.loads(
        table.locator("button[data-move]:enabled").first.get_attribute("data-move") or ""
    )
    focus_with_tab(page, first)
    page.keyboard.press("Space")
    expect(table).not_to_have_attribute("data-version", version)
