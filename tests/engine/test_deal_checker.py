"""The independent checker of shuffles (scripts/verify_deals.py, docs/fair-shuffles.md) agrees
with the engine's deal of every ruleset, at every table size where the deck or the hand size
changes: one or two decks, jokers, the hand sizes of the presets, Abbott's grids.

The checker reads a match's public log; here the log is the deal's events as a finished match
shows them to anyone (every hand, the commitment, the seed revealed at the deal's end). The API
tier plays whole matches and runs the checker on the log the API serves
(tests/api/test_full_games.py)."""

from __future__ import annotations

import hashlib
import random
from typing import Any

import pytest

from scripts.verify_deals import verify
from switchgame import catalog

TABLES = [
    (name, players)
    for name, info in sorted(catalog.RULESETS.items())
    for players in range(info.players[0], min(info.players[1], 8) + 1)
]


def revealed_log(ruleset: str, players: int, seed: bytes) -> list[dict[str, Any]]:
    """The deal's events as the log of a finished match shows them, then its end with the seed."""
    events = catalog.new_game(ruleset, players).deal(seed)
    datas: list[dict[str, Any]] = [{**e.data, **(e.private or {})} for e in events]
    datas[0]["shuffle_commitment"] = hashlib.sha256(seed).hexdigest()
    log = [
        {"type": e.type, "seat": e.seat, "data": data}
        for e, data in zip(events, datas, strict=True)
    ]
    end = "hand_end" if catalog.RULESETS[ruleset].game == catalog.ABBOTT else "deal_end"
    return [*log, {"type": end, "seat": None, "data": {"seed": seed.hex()}}]


@pytest.mark.parametrize(("ruleset", "players"), TABLES)
def test_the_checker_finds_every_deal_of_every_ruleset_fair(ruleset: str, players: int) -> None:
    seed = random.Random(f"{ruleset} {players}").randbytes(32)

    assert verify(revealed_log(ruleset, players, seed)) == []


def test_the_checker_catches_a_hand_the_seed_did_not_deal_and_a_seed_not_committed_to() -> None:
    log = revealed_log("french", 6, b"a seed of the tampered deal")
    hand = next(e for e in log if e["type"] == "hand" and e["seat"] == 2)
    hand["data"]["cards"] = hand["data"]["cards"][1:] + hand["data"]["cards"][:1]
    assert verify(log) == ["deal 1: seat 2's hand is not the one the seed deals"]

    log[-1]["data"]["seed"] = "00" * 32
    assert verify(log) == ["deal 1: the revealed seed does not match its commitment"]
