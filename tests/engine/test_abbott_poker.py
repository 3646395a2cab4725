"""The poker evaluator of Abbott's Switch (docs/rules.md §4.9), against phevaluator.

phevaluator (a test-only dependency) ranks 5–7 cards, lower is better; for more cards the oracle is
the best of all five-card subsets; for fewer than five there is no library, so a small independent
reference ranks them by their rank groups.
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations, pairwise

import pytest
from hypothesis import given
from hypothesis import strategies as st
from phevaluator import evaluate_cards

from switchgame.abbott.poker import (
    FLUSH,
    FOUR_OF_A_KIND,
    FULL_HOUSE,
    HIGH_CARD,
    PAIR,
    STRAIGHT,
    STRAIGHT_FLUSH,
    THREE_OF_A_KIND,
    TWO_PAIR,
    best_hand,
    evaluate,
)
from switchgame.cards import RANK_OF, SUIT_OF, parse_card


def cards(text: str) -> list[int]:
    return [parse_card(code) for code in text.split()]


def key(text: str) -> tuple[int, ...]:
    return best_hand(cards(text)).key


def ph_id(card: int) -> int:
    """phevaluator's card id: (value - 2) * 4 + suit, value 2..14 with the ace high, suits c d h s."""
    value = 14 if RANK_OF[card] == 0 else RANK_OF[card] + 1
    return (value - 2) * 4 + SUIT_OF[card]


def ph(hand: list[int]) -> int:
    return evaluate_cards(*(ph_id(c) for c in hand))


@pytest.mark.parametrize("size", [5, 6, 7])
def test_agrees_with_phevaluator_on_random_hands(size: int) -> None:
    """Our keys must order 4,000 random hands exactly as phevaluator's ranks do (ties included)."""
    rng = random.Random(size)
    key_of_rank: dict[int, tuple[int, ...]] = {}
    for _ in range(4000):
        hand = rng.sample(range(52), size)
        our_key, chosen = evaluate(hand)
        assert key_of_rank.setdefault(ph(hand), our_key) == our_key
        assert len(chosen) == 5
        assert set(chosen) <= set(hand)
        assert evaluate(chosen)[0] == our_key
    ordered = [key_of_rank[rank] for rank in sorted(key_of_rank)]  # best first
    assert all(a > b for a, b in pairwise(ordered))


@pytest.mark.parametrize("size", [8, 9, 10, 12, 14, 16, 18, 20, 22])
def test_many_cards_equal_the_best_five_card_subset(size: int) -> None:
    rng = random.Random(100 + size)
    for _ in range(2):
        hand = rng.sample(range(52), size)
        best_subset = min(combinations(hand, 5), key=lambda five: ph(list(five)))
        our_key, chosen = evaluate(hand)
        assert our_key == evaluate(best_subset)[0]
        assert ph(chosen) == ph(list(best_subset))
        assert set(chosen) <= set(hand)


def test_straight_flush_in_any_suit_beats_a_flush_in_another() -> None:
    """eval7 gets this wrong from about ten cards up: it only looks at one suit."""
    hand = cards("AS KS QS 9S 7S 3S 2C 3C 4C 5C 6C")
    best = best_hand(hand)
    assert best.category == "straight_flush"
    assert best.key == (STRAIGHT_FLUSH, 6)
    assert sorted(best.cards) == sorted(cards("2C 3C 4C 5C 6C"))


def test_whole_deck_is_a_royal_flush_and_forty_cards_work() -> None:
    assert best_hand(range(52)).key == (STRAIGHT_FLUSH, 14)
    rng = random.Random(40)
    hand = rng.sample(range(52), 40)
    best_subset = min(combinations(hand, 5), key=lambda five: ph(list(five)))
    assert best_hand(hand).key == evaluate(best_subset)[0]


@pytest.mark.parametrize(
    ("text", "category", "expected"),
    [
        ("TH JH QH KH AH", "straight_flush", (STRAIGHT_FLUSH, 14)),
        ("AD 2D 3D 4D 5D", "straight_flush", (STRAIGHT_FLUSH, 5)),
        ("9C 9D 9H 9S 2C", "four_of_a_kind", (FOUR_OF_A_KIND, 9, 2)),
        ("9C 9D 9H 2S 2C", "full_house", (FULL_HOUSE, 9, 2)),
        ("2H 7H 9H JH KH", "flush", (FLUSH, 13, 11, 9, 7, 2)),
        ("TC JD QH KS AC", "straight", (STRAIGHT, 14)),
        ("AC 2D 3H 4S 5C", "straight", (STRAIGHT, 5)),
        ("9C 9D 9H 2S 4C", "three_of_a_kind", (THREE_OF_A_KIND, 9, 4, 2)),
        ("9C 9D 4H 4S KC", "two_pair", (TWO_PAIR, 9, 4, 13)),
        ("9C 9D 4H 3S KC", "pair", (PAIR, 9, 13, 4, 3)),
        ("9C 7D 4H 3S KC", "high_card", (HIGH_CARD, 13, 9, 7, 4, 3)),
        ("", "nothing", (HIGH_CARD,)),
    ],
)
def test_every_category(text: str, category: str, expected: tuple[int, ...]) -> None:
    best = best_hand(cards(text))
    assert best.category == category
    assert best.key == expected


@pytest.mark.parametrize(
    ("higher", "lower"),
    [
        ("AC 2C 3C 4C 5C", "KD KH KS KC AD"),  # the lowest straight flush beats quads
        ("2D 3D 4D 5D 6D", "AC 2C 3C 4C 5C"),  # ace low only in A-2-3-4-5
        ("TC JD QH KS AC", "9C TD JH QS KC"),
        ("AC 2D 3H 4S 5C", "AC KD QH JS 9C"),  # the wheel is a straight, above any trips
        ("QC KD AH 2S 4C", "QC KD AH 2S 3C"),  # no wrapping round: Q-K-A-2-3 is only ace high
        ("3C 3D 3H 2S 2C", "2C 2D 2H AS AC"),  # full house: the trips decide
        ("AH 9H 7H 4H 2H", "KC QC JC 9C 7C"),  # flush: the highest card decides
        ("AH 9H 7H 4H 3H", "AC 9C 7C 4C 2C"),  # ...then the next ones
        ("9C 9D 4H 4S 3C", "9H 9S 4C 4D 2C"),  # two pair: the kicker
        ("TC TD 2H 2S 3C", "9C 9D 8H 8S AC"),
        ("9C 9D KH", "9H 9S 2C"),  # 9-9-K > 9-9-2 > 9-9 > A-K-Q-J > nothing
        ("9H 9S 2C", "9C 9D"),
        ("9C 9D", "AC KD QH JS"),
        ("AC KD QH JS", "AC KD QH"),
        ("2C", ""),
        ("2C 2D 2H 2S", "AC AD AH KS"),  # quads with four cards beat trips with a kicker
        ("AC AD KH KS", "AH AS KC"),
        ("3C 3D 3H 3S KC", "3C 3D 3H 3S QC"),
    ],
)
def test_order(higher: str, lower: str) -> None:
    assert best_hand(cards(higher)) > best_hand(cards(lower))
    assert key(higher) > key(lower)


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("AC KC QC JC TC", "AH KH QH JH TH"),
        ("TC JD QH KS AC", "TH JS QC KD AS"),
        ("9C 9D 4H 4S KC", "9H 9S 4C 4D KS"),
        ("9C 9D", "9H 9S"),
        ("", ""),
        ("AC KD QH JS 9C 2D", "AD KH QS JC 9D 3H"),  # only five cards count: the 2 and 3 do not
    ],
)
def test_ties(one: str, other: str) -> None:
    assert best_hand(cards(one)) == best_hand(cards(other))


@pytest.mark.parametrize(
    ("text", "expected_cards"),
    [
        ("9C 9D 9H 5C 5D 5H 2S", "9C 9D 9H 5C 5D"),  # two trips: the lower one is the pair
        ("9C 9D 9H 9S 5C 5D 5H KS", "9C 9D 9H 9S KS"),  # quads take the highest other card
        ("9C 9D 5H 5S 3C 3D AH", "9C 9D 5H 5S AH"),  # two pair from three: the ace kicks
        ("9C 9D 5H 5S 3C 3D", "9C 9D 5H 5S 3C"),  # ...or the third pair's rank
        ("2S 3S 4S 5S 6S 7S 8S", "8S 7S 6S 5S 4S"),
    ],
)
def test_chosen_cards(text: str, expected_cards: str) -> None:
    assert best_hand(cards(text)).key == best_hand(cards(expected_cards)).key
    assert sorted(best_hand(cards(text)).cards) == sorted(cards(expected_cards))


def reference_small_key(hand: list[int]) -> tuple[int, ...]:
    """An independent ranking of 0–4 cards: rank groups by (size, value), largest group first."""
    values = Counter(14 if RANK_OF[c] == 0 else RANK_OF[c] + 1 for c in hand)
    groups = sorted(values.items(), key=lambda item: (item[1], item[0]), reverse=True)
    shape = tuple(size for _, size in groups)
    category = {
        (4,): FOUR_OF_A_KIND,
        (3,): THREE_OF_A_KIND,
        (3, 1): THREE_OF_A_KIND,
        (2, 2): TWO_PAIR,
    }.get(shape, PAIR if shape and shape[0] == 2 else HIGH_CARD)
    return (category, *(value for value, _ in groups))


@given(st.lists(st.integers(0, 51), max_size=4, unique=True))
def test_fewer_than_five_cards(hand: list[int]) -> None:
    best = best_hand(hand)
    assert best.key == reference_small_key(hand)
    assert sorted(best.cards) == sorted(hand)  # with four cards or fewer, every card counts


@given(st.lists(st.integers(0, 51), max_size=20, unique=True), st.integers(0, 51))
def test_another_card_never_makes_a_hand_worse(hand: list[int], extra: int) -> None:
    if extra not in hand:
        assert best_hand([*hand, extra]) >= best_hand(hand)
