"""Driving the web client at /play/ as a person does: sign up, create a match, click the legal
moves until the match is over. Shared by the browser tests of the client."""

from __future__ import annotations

import json
import random
import re
import time
from collections.abc import Callable
from typing import Any

from django.contrib.auth import get_user_model
from playwright.sync_api import Page, expect

from games import selectors, services
from tournaments import services as tournaments
from tournaments.models import Tournament

PASSWORD = "a long secret phrase"
# A whole match against random bots, clicked through; far more than one takes.
MATCH_SECONDS = 150

Move = dict[str, Any]
Chooser = Callable[[list[Move]], Move]


def account(username: str, **fields: Any) -> Any:
    """A user who signs in with :data:`PASSWORD`."""
    return get_user_model().objects.create_user(username, password=PASSWORD, **fields)


def online_tournament(
    director: Any, entrants: list[tournaments.Entrant], **fields: Any
) -> Tournament:
    """A public online tournament of one table of two, one deal of French-scored Switch, started:
    its table is being played. ``fields`` change its name, its language…"""
    tournament = tournaments.tournament_create(
        creator=director,
        **{
            "name": "Thursday online",
            "ruleset": "switch",
            "scoring": "french",
            "planned_rounds": 1,
            "table_size": 2,
            "deals_per_round": 1,
            "play": "online",
            "public": True,
            **fields,
        },
    )
    tournaments.entries_register(tournament_id=tournament.pk, user=director, entrants=entrants)
    tournaments.tournament_start(tournament_id=tournament.pk, user=director)
    return tournament


def focus_with_tab(page: Page, move: dict) -> None:
    """Press Tab until the button of ``move`` has the focus."""
    wanted = json.dumps(move, separators=(",", ":"))
    for _ in range(60):
        if page.evaluate("document.activeElement.getAttribute('data-move')") == wanted:
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {wanted}")


def sign_up(page: Page, username: str) -> None:
    page.goto("/play/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign up").click()
    expect(page.get_by_text(f"Signed in as {username}.")).to_be_visible()


def sign_in(page: Page, username: str, path: str = "/play/") -> None:
    page.goto(path)
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()


def create_match(page: Page, ruleset: str, players: int, target: int | None = None) -> int:
    """From the lobby: a match of ``ruleset`` against random bots, started; its id."""
    page.get_by_label("Game").select_option(ruleset)
    seats = page.get_by_label("Number of players")
    if seats.is_editable():
        seats.fill(str(players))
    expect(seats).to_have_value(str(players))
    for seat in range(2, players + 1):
        page.get_by_label(f"Seat {seat}", exact=True).select_option("random")
    if target is not None:
        page.get_by_label("Play to a target score").fill(str(target))
    page.get_by_role("button", name="Create match").click()
    page.wait_for_url(re.compile(r"/play/matches/\d+/$"))
    table = page.locator("#table")
    expect(table).to_have_attribute("data-status", "active")
    return int(table.get_attribute("data-match") or 0)


def legal_moves(page: Page) -> list[Move]:
    """The moves the table offers now, from their buttons' ``data-move``."""
    buttons = page.locator("#table button[data-move]:enabled")
    return [json.loads(button.get_attribute("data-move") or "{}") for button in buttons.all()]


def move_button(page: Page, move: Move):
    """The button of exactly this move (the API's JSON, compact, in the API's key order)."""
    return page.locator(f"#table button[data-move='{json.dumps(move, separators=(',', ':'))}']")


def play_to_the_end(
    page: Page, choose: Chooser, on_turn: Callable[[int], None] | None = None
) -> int:
    """Click a legal move whenever the table offers some, until the match is over; the number
    of moves clicked. ``on_turn(n)`` runs before the n-th click (screenshots, checks)."""
    table = page.locator("#table")
    over = page.locator("#table[data-status=finished], #table[data-status=abandoned]")
    deadline = time.monotonic() + MATCH_SECONDS
    clicked = 0
    while time.monotonic() < deadline:
        page.locator(
            "#table[data-status=finished], #table[data-status=abandoned], "
            "#table button[data-move]:enabled"
        ).first.wait_for(timeout=20_000)
        if over.count():
            return clicked
        moves = legal_moves(page)
        if not moves:
            continue  # the buttons were redrawn between the two looks
        if on_turn is not None:
            on_turn(clicked)
        version = table.get_attribute("data-version") or ""
        move_button(page, choose(moves)).click()
        clicked += 1
        expect(table).not_to_have_attribute("data-version", version)
    raise AssertionError(f"the match was not over after {MATCH_SECONDS} s ({clicked} moves)")


def shedding_choice(moves: list[Move]) -> Move:
    """Play rather than draw, and say "last card" when it may be said; between equals, the same
    move whatever order the moves come in (a seeded match is then the same match every time)."""
    return min(
        moves,
        key=lambda move: (
            move["action"] != "play",
            "announce" not in move,
            json.dumps(move, sort_keys=True),
        ),
    )


def abbott_choice(page: Page) -> Chooser:
    """Take a card rather than move onto an empty square; agree to end a hand when asked."""

    def choose(moves: list[Move]) -> Move:
        def rank(move: Move) -> int:
            if move["action"] == "move":
                label = move_button(page, move).get_attribute("aria-label") or ""
                return 0 if "taking" in label else 1
            return {"propose_end": 2, "pass": 2}.get(move["action"], 3)

        return min(moves, key=rank)

    return choose


def finished_match(username: str, ruleset: str, seats: int, **settings: Any) -> int:
    """A match of ``username`` against random bots, played to its end through the services."""
    user = account(username)
    bots = [{"seat": seat, "strategy": "random"} for seat in range(1, seats)]
    match = services.match_create(
        creator=user, ruleset=ruleset, seats=seats, bots_wanted=bots, **settings
    )
    services.match_start(match_id=match.pk, user=user)
    choose = random.Random(match.pk).choice  # the first listed play can loop for thousands of turns
    for _ in range(1500):
        view = selectors.match_view_for(match_id=match.pk, user=user)
        if view["status"] != "active":
            return match.pk
        moves = view["legal_moves"]
        if not moves:  # the bots' turn: played here, whether or not a server's task thread is too
            services.bot_turns_play(match_id=match.pk)
            continue
        takes = [m for m in moves if m["action"] == "play"] or [
            m for m in moves if m["action"] == "move" and view["grid"][m["to"][0]][m["to"][1]]
        ]
        services.action_apply(match_id=match.pk, user=user, action=choose(takes or moves))
    raise AssertionError("the match did not end")
