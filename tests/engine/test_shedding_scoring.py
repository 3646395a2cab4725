"""The French tally and placements (docs/rules.md §5)."""

from __future__ import annotations

from games.rules.cards import parse_card
from games.rules.shedding.scoring import (
    deal_placings,
    french_tally,
    hand_order,
    match_ranking,
    winner_points,
)


def cards(*codes: str) -> list[int]:
    return [parse_card(c) for c in codes]


def test_french_tally_values() -> None:
    """docs/rules.md §5: ace 20; 2, 4, jack 15; king, queen 10; others face value; joker 25."""
    assert french_tally(cards("AS")) == 20
    assert french_tally(cards("2C", "4D", "JH")) == 45
    assert french_tally(cards("KS", "QH")) == 20
    assert french_tally(cards("3C", "5D", "9H", "TS")) == 3 + 5 + 9 + 10
    assert french_tally(cards("X1", "X2")) == 50
    assert french_tally([]) == 0


def test_winner_scores_every_other_hand() -> None:
    hands = [cards(), cards("AS", "3C"), cards("KD")]
    assert winner_points(hands, 0) == 20 + 3 + 10


def test_hand_order_breaks_ties_by_cards_then_turn_order() -> None:
    """docs/rules.md §2 Blocked deal: lowest tally, then fewest cards, then earliest in turn order."""
    hands = [cards("TC"), cards("5C", "5D"), cards("QS"), cards("3C")]
    assert hand_order(hands, [2, 3, 0, 1]) == [3, 2, 0, 1]


def test_deal_placings_put_finishers_first() -> None:
    """docs/rules.md §5 Placement: the finishing order, then the rest."""
    hands = [cards(), cards("KD"), cards(), cards("3C")]
    assert deal_placings([2, 0], hands, [3, 1]) == [2, 0, 3, 1]


def test_match_ranking() -> None:
    assert match_ranking([10, 30, 30, 0], [1, 1, 2, 0]) == [2, 1, 0, 3]
