"""Whole matches played through the API by random legal moves: one of each game.

Every ruleset is played to its end by the engine's property tests
(tests/engine/test_shedding_properties.py, tests/engine/test_abbott_properties.py), under the same
checks of conservation and hidden cards; the views the API serves are the engine's, typed per game
in the schema (tests/api/test_schema.py). What only this tier shows is the API's side of a whole
match, for which one representative of each game suffices: the richest shedding preset
(jacks-twos-eights: runs and sets, suit naming, skips that add up, counter-clockwise play) and
Abbott's Switch.

At every step each seat's view must conserve the cards and show nothing of another seat's hand or
of the stock (the API guide "Hidden information"; docs/rules.md §1 conservation). After the match, each deal's
revealed seed must match its commitment and re-create the deal exactly.
"""

from __future__ import annotations

import hashlib
import random
import re
from typing import Any

import pytest

from games.models import Match
from games.services import pipeline
from scripts.verify_deals import verify
from switchgame import catalog
from tests.api.conftest import Client

pytestmark = [pytest.mark.django_db, pytest.mark.slow]

CARD_CODE = re.compile(r"\b(?:[A2-9TJQK][CDHS]|X[12])\b")
SEATS = {"abbott": 4, "abbott-2": 2}
# One ruleset of each game (the module's docstring says why these).
REPRESENTATIVES = ["jacks-twos-eights", "abbott-2"]
MAX_ACTIONS = 3000


def deck_size(state: dict) -> int:
    """The number of cards in play, from the server's own state (one or two decks, jokers)."""
    size = sum(map(len, state["hands"])) + len(state["stock"]) + len(state["discard"])
    assert size in {52 * decks + jokers for decks in (1, 2) for jokers in range(5)}
    return size


def check_shedding_view(view: dict, seat: int, state: dict) -> None:
    counts = [s["hand_count"] for s in view["seats"]]
    assert sum(counts) + view["stock_count"] + view["discard_count"] == deck_size(state)
    assert sorted(view["you"]["hand"]) == sorted(state["hands"][seat])
    assert counts[seat] == len(view["you"]["hand"])
    # The history names cards played openly earlier in the deal, which may since have been
    # shuffled back into the stock: public knowledge, checked by the engine's own tests.
    public = {k: v for k, v in view.items() if k not in ("you", "legal_moves", "history")}
    seen = set(CARD_CODE.findall(str(public)))
    hidden = set().union(*(state["hands"][other] for other in range(len(counts)) if other != seat))
    hidden |= set(state["stock"])
    hidden -= set(state["hands"][seat]) | set(state["discard"])
    assert not seen & hidden, f"seat {seat} sees hidden cards {seen & hidden}"
    for move in view["legal_moves"]:
        if "card" in move:
            assert move["card"] in view["you"]["hand"]


def check_abbott_view(view: dict) -> None:
    on_grid = sum(code is not None for row in view["grid"] for code in row)
    taken = sum(len(s["cards"]) for s in view["seats"])
    assert on_grid + taken == len(view["grid"]) ** 2


def purposeful(view: dict) -> list[dict]:
    """Random play, but taking cards when it can: uniformly random moves draw voluntarily (or roam
    the grid) for thousands of actions, which tests nothing more and takes far longer."""
    legal = view["legal_moves"]
    if view["game"] == "shedding":
        return [m for m in legal if m["action"] == "play"] or legal
    takes = [m for m in legal if m["action"] == "move" and view["grid"][m["to"][0]][m["to"][1]]]
    return takes or legal


def play_out(clients: list[Client], match_id: int, rng: random.Random) -> dict:
    for _ in range(MAX_ACTIONS):
        views = [c.get(f"/api/v1/matches/{match_id}/").json() for c in clients]
        state = Match.objects.get(pk=match_id).state
        for seat, view in enumerate(views):
            assert view["you"]["seat"] == seat
            if view["game"] == "shedding" and view["status"] == "active":
                assert state is not None
                check_shedding_view(view, seat, state)
            elif view["game"] == "abbott":
                check_abbott_view(view)
            assert bool(view["legal_moves"]) == (
                view["status"] == "active" and view["to_move"] == seat
            )
        if views[0]["status"] != "active":
            return views[0]
        mover = views[0]["to_move"]
        move = rng.choice(purposeful(views[mover]))
        response = clients[mover].post(f"/api/v1/matches/{match_id}/moves/", move)
        assert response.status_code == 201, response.json()
    raise AssertionError(f"no end after {MAX_ACTIONS} actions")


def all_events(client: Client, match_id: int) -> list[dict]:
    url, events = f"/api/v1/matches/{match_id}/events/?limit=500", []
    while url:
        page = client.get(url).json()
        events += page["results"]
        url = page["next"]
    return events


def without_commitment(data: dict) -> dict:
    return {k: v for k, v in data.items() if k != "shuffle_commitment"}


def check_fair_shuffles(events: list[dict], ruleset: str, seats: int, options: dict) -> None:
    deals = [e for e in events if e["type"] == "deal"]
    ends = [e for e in events if e["type"] in ("deal_end", "hand_end")]
    assert len(deals) == len(ends) >= 1
    for deal, end in zip(deals, ends, strict=True):
        seed = bytes.fromhex(end["data"]["seed"])
        assert hashlib.sha256(seed).hexdigest() == deal["data"]["shuffle_commitment"]
    # Anyone can re-create the first deal from its revealed seed: it is the deal that was played.
    replayed = catalog.new_game(ruleset, seats, options).deal(
        bytes.fromhex(ends[0]["data"]["seed"])
    )
    logged = events[: len(replayed)]
    for event, log in zip(replayed, logged, strict=True):
        assert (log["type"], log["seat"]) == (event.type, event.seat)
        expected = {**event.data, **(event.private or {})}
        assert without_commitment(log["data"]) == without_commitment(expected)


@pytest.mark.parametrize("ruleset", REPRESENTATIVES)
def test_a_whole_match_through_the_api(make_client, monkeypatch, ruleset):
    # The deals' seeds drawn from a seeded source, so that each ruleset's match is the same match
    # (and takes the same time) run after run; what is checked holds for any seed.
    seeds = random.Random(ruleset)
    monkeypatch.setattr(pipeline, "next_deal_seed", lambda match: seeds.randbytes(32))
    seats = SEATS.get(ruleset, 3)
    clients = [make_client(f"player{i}") for i in range(seats)]
    options: dict[str, Any] = {}
    created = clients[0].post(
        "/api/v1/matches/", {"ruleset": ruleset, "seats": seats, "deals": 2, "options": options}
    )
    assert created.status_code == 201, created.json()
    match_id = created.json()["id"]
    for client in clients[1:]:
        assert client.post(f"/api/v1/matches/{match_id}/join/").status_code == 200
    assert clients[0].post(f"/api/v1/matches/{match_id}/start/").status_code == 200

    final = play_out(clients, match_id, random.Random(ruleset))

    assert final["status"] == "finished"
    assert final["result"]
    events = all_events(clients[0], match_id)
    check_fair_shuffles(events, ruleset, seats, options)
    assert verify(events) == []  # the published algorithm, re-implemented independently, agrees
