"""Cards as small integers, and their codes (docs/rules.md §1).

A card is an ``int``: ``rank * 4 + suit`` for the 52 standard cards (``0..51``), and ``52`` / ``53``
for the jokers ``X1`` / ``X2``. Ranks run ``A 2 … T J Q K`` (index 0..12), suits ``C D H S``
(index 0..3). Two decks simply contain every code twice: cards are identified by code.

Everything else in the engines works on these ints; codes appear only at the edges (parsing input,
building views and events), through the lookup tables below.
"""

from __future__ import annotations

from collections.abc import Iterable

from switchgame.words import quoted

RANKS = "A23456789TJQK"
SUITS = "CDHS"
BLACK_SUITS = frozenset({0, 3})  # clubs, spades

ACE, TWO, THREE, FOUR, FIVE, SIX, SEVEN, EIGHT, NINE, TEN, JACK, QUEEN, KING = range(13)
CLUBS, DIAMONDS, HEARTS, SPADES = range(4)

JOKER_1 = 52
JOKER_2 = 53
JOKER_RANK = 13
NO_SUIT = -1
STANDARD_CARDS = range(52)

CARD_CODES: tuple[str, ...] = (
    *[RANKS[c >> 2] + SUITS[c & 3] for c in STANDARD_CARDS],
    "X1",
    "X2",
)
RANK_OF: tuple[int, ...] = (*[c >> 2 for c in STANDARD_CARDS], JOKER_RANK, JOKER_RANK)
SUIT_OF: tuple[int, ...] = (*[c & 3 for c in STANDARD_CARDS], NO_SUIT, NO_SUIT)

CARD_IDS: dict[str, int] = {code: card for card, code in enumerate(CARD_CODES)}

# Every card of the same rank as a card (itself included; the two jokers together).
SAME_RANK: tuple[frozenset[int], ...] = tuple(
    frozenset(other for other in range(len(CARD_CODES)) if RANK_OF[other] == RANK_OF[c])
    for c in range(len(CARD_CODES))
)


class InvalidCard(ValueError):
    """A card code that names no card."""


def card(rank: int, suit: int) -> int:
    """The standard card of ``rank`` (0 = ace … 12 = king) and ``suit`` (0 = clubs … 3 = spades)."""
    return rank * 4 + suit


def parse_card(text: object) -> int:
    """Parse a card code, accepting lower case and ``10`` for ``T`` (``"10s"`` → the ten of spades)."""
    if not isinstance(text, str):
        raise InvalidCard(f"{quoted(text)} is not a card code")
    code = text.strip().upper()
    if code.startswith("10"):
        code = "T" + code[2:]
    try:
        return CARD_IDS[code]
    except KeyError:
        raise InvalidCard(f"{quoted(text)} is not a card code") from None


def parse_suit(text: object) -> int:
    """Parse a suit letter (``C D H S``, either case)."""
    if isinstance(text, str) and len(text.strip()) == 1:
        index = SUITS.find(text.strip().upper())
        if index >= 0:
            return index
    raise InvalidCard(f"{quoted(text)} is not a suit (one of C, D, H, S)")


def card_code(card_id: int) -> str:
    """The canonical code of a card (``"TS"``, ``"X1"``)."""
    return CARD_CODES[card_id]


def codes(cards: Iterable[int]) -> list[str]:
    """Canonical codes of several cards, in the order given."""
    return [CARD_CODES[c] for c in cards]


def make_deck(decks: int = 1, jokers: int = 0) -> list[int]:
    """An ordered deck: ``decks`` × 52 standard cards plus ``jokers`` jokers (``X1``, ``X2``, ``X1``…)."""
    if decks < 1:
        raise ValueError("at least one deck is needed")
    deck = [c for _ in range(decks) for c in STANDARD_CARDS]
    deck.extend(JOKER_1 + (i % 2) for i in range(jokers))
    return deck
