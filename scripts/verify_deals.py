#!/usr/bin/env python3
"""Check a match's shuffles from its public event log — standard library only, on purpose.

Every deal event carries ``shuffle_commitment`` = SHA-256 of the deal's secret seed; the deal's end
event (``deal_end`` / ``hand_end``) reveals the seed. This script re-implements the published
shuffle (docs/fair-shuffles.md) without any of the service's code and checks, for every deal, that
the seed matches its commitment and that the cards you can see — your own dealt hand during a
match, every hand once it is over, Abbott's whole grid — are exactly what the seed deals.

    python scripts/verify_deals.py --server http://127.0.0.1:8000 --token TOKEN --match 42
    python scripts/verify_deals.py --file events.json      # a saved list of events
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import urllib.request
from typing import Any

RANKS = "A23456789TJQK"
SUITS = "CDHS"


def deck(decks: int, jokers: int) -> list[str]:
    """The deck before shuffling: AC AD AH AS 2C … KS per deck, then jokers X1 X2 X1 …"""
    one = [rank + suit for rank in RANKS for suit in SUITS]
    return one * decks + ["X1" if i % 2 == 0 else "X2" for i in range(jokers)]


def shuffle(seed: bytes, items: list[Any]) -> list[Any]:
    """Fisher–Yates from the end; draw k = first 8 bytes of SHA-256(seed ‖ k as 8 bytes), big-endian,
    rejecting draws at or above the largest multiple of n below 2**64."""
    items, counter = list(items), 0

    def below(n: int) -> int:
        nonlocal counter
        limit = 2**64 - 2**64 % n
        while True:
            value = int.from_bytes(
                hashlib.sha256(seed + counter.to_bytes(8, "big")).digest()[:8], "big"
            )
            counter += 1
            if value < limit:
                return value % n

    for i in range(len(items) - 1, 0, -1):
        j = below(i + 1)
        items[i], items[j] = items[j], items[i]
    return items


def shedding_hands(seed: bytes, deal: dict[str, Any]) -> tuple[list[list[str]], list[str]]:
    """The hands a shedding deal gives (one card at a time from ``first``) and the rest, top first."""
    cards = shuffle(seed, deck(deal["decks"], deal["jokers"]))
    players = len(deal["hand_counts"])
    hands: list[list[str]] = [[] for _ in range(players)]
    position = 0
    for _ in range(deal["hand_size"]):
        for offset in range(players):
            hands[(deal["first"] + offset) % players].append(cards[position])
            position += 1
    return hands, cards[position:]


def abbott_grid(seed: bytes, size: int) -> list[list[str]]:
    """Abbott's grid: the first size×size cards of the shuffled deck, row by row."""
    cards = shuffle(seed, deck(1, 0))
    return [cards[row * size : (row + 1) * size] for row in range(size)]


def verify(events: list[dict[str, Any]]) -> list[str]:
    """Every problem found in the log (an empty list means every revealed deal checks out)."""
    problems: list[str] = []
    deals = [i for i, e in enumerate(events) if e["type"] == "deal"]
    for number, start in enumerate(deals, 1):
        stop = deals[number] if number < len(deals) else len(events)
        deal, rest = events[start], events[start + 1 : stop]
        end = next((e for e in rest if e["type"] in ("deal_end", "hand_end")), None)
        if end is None or "seed" not in end["data"]:
            continue  # still in play: the seed is not revealed yet
        seed = bytes.fromhex(end["data"]["seed"])
        if hashlib.sha256(seed).hexdigest() != deal["data"]["shuffle_commitment"]:
            problems.append(f"deal {number}: the revealed seed does not match its commitment")
            continue
        if deal["data"].get("from_layout"):
            continue  # a fixed layout (staff tests): nothing was shuffled
        if "grid" in deal["data"]:
            dealt = abbott_grid(seed, len(deal["data"]["grid"]))
            if dealt != deal["data"]["grid"]:
                problems.append(f"hand {number}: the grid is not the one the seed deals")
            continue
        hands, remaining = shedding_hands(seed, deal["data"])
        for event in rest:
            if (
                event["type"] == "hand"
                and "cards" in event["data"]
                and event["data"]["cards"] != hands[event["seat"]]
            ):
                problems.append(
                    f"deal {number}: seat {event['seat']}'s hand is not the one the seed deals"
                )
        if deal["data"]["starter"] not in remaining:
            problems.append(
                f"deal {number}: the starter {deal['data']['starter']} was not left in the stock"
            )
    return problems


def fetch_events(server: str, token: str, match: int) -> list[dict[str, Any]]:
    url: str | None = f"{server.rstrip('/')}/api/v1/matches/{match}/events/?limit=500"
    events: list[dict[str, Any]] = []
    while url:
        request = urllib.request.Request(url, headers={"Authorization": f"Token {token}"})
        with urllib.request.urlopen(request) as response:
            page = json.load(response)
        events += page["results"]
        url = page["next"]
    return events


def main() -> int:
    parser = argparse.ArgumentParser(description="Check a match's shuffles from its event log.")
    parser.add_argument("--file", help="a JSON file holding the list of events")
    parser.add_argument("--server", help="the service's base URL")
    parser.add_argument("--token", help="your API token")
    parser.add_argument("--match", type=int, help="the match id")
    args = parser.parse_args()
    if args.file:
        with open(args.file) as handle:
            events = json.load(handle)
    elif args.server and args.token and args.match:
        events = fetch_events(args.server, args.token, args.match)
    else:
        parser.error("give --file, or --server, --token and --match")
    problems = verify(events)
    revealed = sum(e["type"] in ("deal_end", "hand_end") for e in events)
    for problem in problems:
        print(problem)
    print(
        f"{revealed} revealed deal(s) checked: {'all fair' if not problems else f'{len(problems)} problem(s)'}"
    )
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
