"""Cards and codes (docs/rules.md §1)."""

from __future__ import annotations

import pytest

from switchgame.cards import CARD_CODES, InvalidCard, card_code, make_deck, parse_card, parse_suit


@pytest.mark.parametrize(
    ("text", "code"), [("TS", "TS"), ("10S", "TS"), ("10s", "TS"), ("ah", "AH"), ("x1", "X1")]
)
def test_aliases_and_canonical_codes(text: str, code: str) -> None:
    assert card_code(parse_card(text)) == code


@pytest.mark.parametrize("text", ["", "1S", "AX", "X3", "TTS", 10, None])
def test_bad_codes(text: object) -> None:
    with pytest.raises(InvalidCard):
        parse_card(text)


def test_every_code_round_trips() -> None:
    assert [card_code(parse_card(c)) for c in CARD_CODES] == list(CARD_CODES)
    assert parse_suit("h") == 2


def test_decks_and_jokers() -> None:
    deck = make_deck(2, 3)
    assert len(deck) == 107
    assert deck.count(parse_card("AS")) == 2
    assert [card_code(c) for c in deck[-3:]] == ["X1", "X2", "X1"]
