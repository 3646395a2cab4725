"""The best five-card poker hand from any number of cards, none to a whole deck (docs/rules.md §4.9).

No library on PyPI fits (see docs/dependencies.md): the fast ones take only five to seven cards, none takes fewer
than five, and the one that takes many cards enumerates every five-card subset (~186 ms for 20 cards).
Abbott's Switch needs "best five of N" for N from 0 to about 40 (a seat's cards plus the whole grid,
for the unbeatable-hand rule), so this module builds the hand directly from rank groups and per-suit
rank bitmasks: straight flushes per suit first, then the rank groups.

The result is a comparable key ``(category, value, value, ...)``. Values run 2..14 (ace 14; an ace-low
straight has top value 5). A hand of fewer than five cards simply has a shorter key, and Python's
tuple order then ranks a missing card below any card: 9-9-K > 9-9-2 > 9-9 > A-K-Q-J > nothing.
Suits never rank. phevaluator is the test oracle (tests/engine/test_abbott_poker.py).
"""

from __future__ import annotations

from collections.abc import Iterable

from switchgame.cards import RANK_OF, SUIT_OF

HIGH_CARD, PAIR, TWO_PAIR, THREE_OF_A_KIND, STRAIGHT, FLUSH, FULL_HOUSE, FOUR_OF_A_KIND = range(8)
STRAIGHT_FLUSH = 8
CATEGORY_NAMES = (
    "high_card",
    "pair",
    "two_pair",
    "three_of_a_kind",
    "straight",
    "flush",
    "full_house",
    "four_of_a_kind",
    "straight_flush",
)
NOTHING = "nothing"  # the category name of a hand without cards

Key = tuple[int, ...]

# Poker value of each standard card: 2..13 for two..king, 14 for the ace.
VALUE_OF: tuple[int, ...] = tuple(14 if RANK_OF[c] == 0 else RANK_OF[c] + 1 for c in range(52))
_SUIT: tuple[int, ...] = SUIT_OF[:52]
_ACE_BIT = 1 << 14
_VALUES_DOWN = range(14, 1, -1)


def _straight_top(mask: int) -> int:
    """The top value of the highest five-in-a-row in a value bitmask, or 0 (ace also counts as 1)."""
    if mask & _ACE_BIT:
        mask |= 2
    runs = mask & (mask >> 1) & (mask >> 2) & (mask >> 3) & (mask >> 4)
    return runs.bit_length() + 3 if runs else 0


def _run_values(top: int) -> list[int]:
    return [14 if v == 1 else v for v in range(top, top - 5, -1)]


def evaluate(cards: Iterable[int]) -> tuple[Key, list[int]]:
    """The key of the best hand in ``cards`` and the (at most five) cards that make it.

    The chosen cards come in the order of the key: the group first (quads, trips, pairs, or the run
    from the top), then the kickers from high to low.
    """
    by_value: list[list[int]] = [[] for _ in range(15)]
    suit_masks = [0, 0, 0, 0]
    suit_counts = [0, 0, 0, 0]
    for c in cards:
        v = VALUE_OF[c]
        s = _SUIT[c]
        by_value[v].append(c)
        suit_masks[s] |= 1 << v
        suit_counts[s] += 1

    flush_suits = [s for s in range(4) if suit_counts[s] >= 5]
    best_sf = 0
    sf_suit = -1
    for s in flush_suits:
        top = _straight_top(suit_masks[s])
        if top > best_sf:
            best_sf, sf_suit = top, s
    if best_sf:
        chosen = [next(c for c in by_value[v] if _SUIT[c] == sf_suit) for v in _run_values(best_sf)]
        return (STRAIGHT_FLUSH, best_sf), chosen

    quads: list[int] = []
    trips: list[int] = []
    pairs: list[int] = []
    singles: list[int] = []
    for v in _VALUES_DOWN:
        n = len(by_value[v])
        if n == 0:
            continue
        if n >= 4:
            quads.append(v)
        elif n == 3:
            trips.append(v)
        elif n == 2:
            pairs.append(v)
        else:
            singles.append(v)

    if quads:
        q = quads[0]
        kickers = [v for v in _VALUES_DOWN if v != q and by_value[v]][:1]
        return (FOUR_OF_A_KIND, q, *kickers), by_value[q][:4] + [by_value[v][0] for v in kickers]

    if trips and (len(trips) > 1 or pairs):
        t = trips[0]
        p = max(trips[1:] + pairs)
        return (FULL_HOUSE, t, p), by_value[t][:3] + by_value[p][:2]

    if flush_suits:
        best_values: list[int] = []
        best_suit = -1
        for s in flush_suits:
            values = [v for v in _VALUES_DOWN if suit_masks[s] >> v & 1][:5]
            if values > best_values:
                best_values, best_suit = values, s
        chosen = [next(c for c in by_value[v] if _SUIT[c] == best_suit) for v in best_values]
        return (FLUSH, *best_values), chosen

    top = _straight_top(suit_masks[0] | suit_masks[1] | suit_masks[2] | suit_masks[3])
    if top:
        return (STRAIGHT, top), [by_value[v][0] for v in _run_values(top)]

    if trips:
        t = trips[0]
        kickers = singles[:2]  # no pair here, or it would be a full house
        return (THREE_OF_A_KIND, t, *kickers), by_value[t] + [by_value[v][0] for v in kickers]

    if len(pairs) >= 2:
        high, low = pairs[0], pairs[1]
        kickers = [v for v in _VALUES_DOWN if v != high and v != low and by_value[v]][:1]
        chosen = by_value[high] + by_value[low] + [by_value[v][0] for v in kickers]
        return (TWO_PAIR, high, low, *kickers), chosen

    if pairs:
        p = pairs[0]
        kickers = singles[:3]
        return (PAIR, p, *kickers), by_value[p] + [by_value[v][0] for v in kickers]

    kickers = singles[:5]
    return (HIGH_CARD, *kickers), [by_value[v][0] for v in kickers]


class HandRank:
    """The best hand of some cards: comparable (by ``key``), with its category name and cards."""

    __slots__ = ("cards", "key")

    def __init__(self, key: Key, cards: list[int]) -> None:
        self.key = key
        self.cards = cards

    @property
    def category(self) -> str:
        """``"pair"``, ``"straight_flush"``… and ``"nothing"`` for a hand without cards."""
        return CATEGORY_NAMES[self.key[0]] if self.cards else NOTHING

    def __eq__(self, other: object) -> bool:
        return isinstance(other, HandRank) and self.key == other.key

    def __lt__(self, other: HandRank) -> bool:
        return self.key < other.key

    def __le__(self, other: HandRank) -> bool:
        return self.key <= other.key

    def __gt__(self, other: HandRank) -> bool:
        return self.key > other.key

    def __ge__(self, other: HandRank) -> bool:
        return self.key >= other.key

    def __hash__(self) -> int:
        return hash(self.key)

    def __repr__(self) -> str:
        return f"HandRank({self.category}, key={self.key})"


def best_hand(cards: Iterable[int]) -> HandRank:
    """The best five-card poker hand that ``cards`` (standard card ints, any number) contain."""
    return HandRank(*evaluate(cards))
