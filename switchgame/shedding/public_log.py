"""The public log of a deal: what the whole table has seen, for the view's ``history``.

Only what every player at the table sees — never a drawn card. Oldest first, in the view:

``{"type": "starter", "card": "9C"}``
    the card turned up to start the pile;
``{"type": "play", "seat": 0, "card": "JC", "suit": "H", "announce": "last_card"}``
    a card played face up (``suit`` when it named one, ``announce`` when announced);
``{"type": "draw", "seat": 1, "count": 2, "reason": "pick_up"}``
    cards drawn. ``reason``: ``draw`` by the draw rule (where voluntary draws are not allowed, the
    seat could not play; where they are, the table cannot tell), ``pick_up`` a pending pick-up
    taken, ``last_card``, ``cover`` or ``blunder`` a penalty;
``{"type": "end_turn", "seat": 1}``
    the seat ended its turn itself;
``{"type": "skip", "seat": 2, "turns": 1}``
    the seat misses turns;
``{"type": "reshuffle", "count": 30}``
    the pile under the top card became the stock.

Inside the state, and in its saved form, each entry is one int — cheap to append, copy, save and
load: bits 0–2 the type, 3–6 the seat, 7 and up the details (see the ``log_*`` functions).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

from switchgame.cards import CARD_CODES, CARD_IDS, SUITS
from switchgame.shedding.actions import SUIT_IDS, SharedDict

_TYPES = ("starter", "play", "draw", "end_turn", "skip", "reshuffle")
_STARTER, _PLAYED, _DREW, _ENDED, _SKIPPED, _RESHUFFLED = range(len(_TYPES))
DRAW_REASONS = ("draw", "pick_up", "last_card", "cover", "blunder")
_REASON_INDEX = {reason: index for index, reason in enumerate(DRAW_REASONS)}


def log_starter(card_id: int) -> int:
    return _STARTER | card_id << 7


def log_play(seat: int, card_id: int, suit: int, announce: bool) -> int:
    return _PLAYED | seat << 3 | (card_id | (suit + 1) << 6 | announce << 9) << 7


def log_draw(seat: int, count: int, reason: str) -> int:
    return _DREW | seat << 3 | (_REASON_INDEX[reason] | count << 3) << 7


def log_end_turn(seat: int) -> int:
    return _ENDED | seat << 3


def log_skip(seat: int, turns: int) -> int:
    return _SKIPPED | seat << 3 | turns << 7


def log_reshuffle(count: int) -> int:
    return _RESHUFFLED | count << 7


@functools.cache  # a few thousand distinct entries; every view renders the deal's whole log
def history_entry(entry: int) -> SharedDict:
    """The view's form of one entry of the public log, shared between views."""
    return SharedDict(_history_fields(entry))


def _history_fields(entry: int) -> dict[str, Any]:
    kind, seat, details = entry & 7, entry >> 3 & 15, entry >> 7
    name = _TYPES[kind]
    if kind == _PLAYED:
        out: dict[str, Any] = {"type": name, "seat": seat, "card": CARD_CODES[details & 63]}
        if details >> 6 & 7:
            out["suit"] = SUITS[(details >> 6 & 7) - 1]
        if details >> 9:
            out["announce"] = "last_card"
        return out
    if kind == _DREW:
        return {
            "type": name,
            "seat": seat,
            "count": details >> 3,
            "reason": DRAW_REASONS[details & 7],
        }
    if kind == _ENDED:
        return {"type": name, "seat": seat}
    if kind == _SKIPPED:
        return {"type": name, "seat": seat, "turns": details}
    if kind == _RESHUFFLED:
        return {"type": name, "count": details}
    return {"type": name, "card": CARD_CODES[details]}


def log_entry(item: Mapping[str, Any]) -> int:
    """The public log's form of one entry of a view's history (the inverse of history_entry)."""
    kind = item["type"]
    if kind == "play":
        suit = item.get("suit")
        return log_play(
            item["seat"],
            CARD_IDS[item["card"]],
            -1 if suit is None else SUIT_IDS[suit],
            "announce" in item,
        )
    if kind == "draw":
        return log_draw(item["seat"], item["count"], item["reason"])
    if kind == "end_turn":
        return log_end_turn(item["seat"])
    if kind == "skip":
        return log_skip(item["seat"], item["turns"])
    if kind == "reshuffle":
        return log_reshuffle(item["count"])
    return log_starter(CARD_IDS[item["card"]])
