"""Dealing shedding Switch from a layout (docs/rules.md §2): the cards a layout names, checked
against the deck, and turning the starter. The deal itself is :meth:`SheddingGame.deal`."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from switchgame.cards import CARD_CODES, JOKER_1, InvalidCard, parse_card
from switchgame.protocol import InvalidLayout
from switchgame.shedding.rulesets import Rules
from switchgame.shuffle import DealRng
from switchgame.words import quoted


def turn_starter(rules: Rules, stock: list[int]) -> int:
    """Turn the starter (docs/rules.md §2): a forbidden power card goes under the stock; never a joker."""
    power = rules.power
    for _ in range(len(stock)):
        starter = stock.pop()
        forbidden = power[starter] is not None and not rules.starter_may_be_power
        if not forbidden and starter < JOKER_1:
            return starter
        stock.insert(0, starter)
    # Every card left is a power card: take one anyway rather than loop (jokers excepted).
    for index in range(len(stock) - 1, -1, -1):
        if stock[index] < JOKER_1:
            return stock.pop(index)
    raise InvalidLayout("no card in the stock can be the starter")


def read_layout(
    rules: Rules, layout: Mapping[str, Any], rng: DealRng
) -> tuple[list[list[int]], int | None, list[int]]:
    """A layout's hands, starter (if named) and stock, top first: the cards it names, checked
    against the deck, and the rest shuffled under the named stock."""
    if not isinstance(layout, Mapping):
        raise InvalidLayout("a layout is an object with hands, starter and stock")
    unknown = set(layout) - {"hands", "starter", "stock"}
    if unknown:
        raise InvalidLayout(f"unknown layout field {quoted(sorted(unknown)[0])}")

    def read(cards: Any, where: str) -> list[int]:
        if not isinstance(cards, list):
            raise InvalidLayout(f"{where} must be a list of card codes")
        try:
            return [parse_card(c) for c in cards]
        except InvalidCard as error:
            raise InvalidLayout(f"{where}: {error}") from None

    raw_hands = layout.get("hands")
    if not isinstance(raw_hands, list) or len(raw_hands) != rules.players:
        raise InvalidLayout(f"hands must be a list of {rules.players} hands, one per seat")
    hands = [read(hand, f"hands[{seat}]") for seat, hand in enumerate(raw_hands)]
    for seat, hand in enumerate(hands):
        if not hand:
            raise InvalidLayout(f"hands[{seat}] is empty; every seat needs at least one card")
    starter = None
    if layout.get("starter") is not None:
        (starter,) = read([layout["starter"]], "starter")
        if starter >= JOKER_1:
            raise InvalidLayout("the starter cannot be a joker: it has no suit to follow")
    stock = read(layout.get("stock") or [], "stock")
    named = Counter([c for hand in hands for c in hand]) + Counter(stock)
    if starter is not None:
        named[starter] += 1
    deck = Counter(rules.deck)
    for card_id, count in sorted(named.items()):
        if count > deck[card_id]:
            raise InvalidLayout(
                f"{CARD_CODES[card_id]} is named {count} times but the deck has {deck[card_id]}"
            )
    rest = list((deck - named).elements())
    rng.shuffle(rest)
    if starter is None and not stock and not rest:
        raise InvalidLayout("no card is left for the starter")
    return hands, starter, stock + rest
