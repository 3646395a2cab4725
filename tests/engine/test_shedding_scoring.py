"""The French tally and placements (docs/rules.md §5)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from switchgame.cards import parse_card
from switchgame.shedding.scoring import (
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


def test_match_ranking_by_total_then_deals_won() -> None:
    """docs/rules.md §5.2 Ranking of a match: the highest total, then more deals won."""
    assert match_ranking([10, 30, 30, 0], [1, 1, 2, 0], [0, 0, 0, 0], [0, 1, 2, 3]) == [2, 1, 0, 3]


def test_match_ranking_then_fewest_tallies_conceded_then_the_last_deal() -> None:
    """docs/rules.md §5.2: equal totals and wins go to the fewest tallies conceded over the match,
    then to the better place in the last deal — not to the lower seat."""
    # The casual match of the issue: seat 3 won the only deal; seat 0 was left holding 13 cards.
    assert match_ranking([0, 0, 0, 95], [0, 0, 0, 1], [70, 5, 20, 0], [3, 1, 2, 0]) == [3, 1, 2, 0]
    # Equal tallies conceded: the last deal's placings decide.
    assert match_ranking([40, 0, 0], [1, 0, 0], [0, 25, 25], [0, 2, 1]) == [0, 2, 1]


@given(
    st.integers(min_value=2, max_value=7).flatmap(
        lambda n: st.tuples(
            st.lists(st.integers(0, 3), min_size=n, max_size=n),
            st.lists(st.integers(0, 2), min_size=n, max_size=n),
            st.lists(st.integers(0, 3), min_size=n, max_size=n),
            st.permutations(range(n)),
            st.permutations(range(n)),
        )
    )
)
def test_match_ranking_ignores_where_people_sit(case) -> None:
    """docs/rules.md §5.2, "never by seat number": the same match with the players seated
    elsewhere ranks the same players in the same order."""
    scores, won, conceded, placings, moved = case
    ranking = match_ranking(scores, won, conceded, placings)
    # ``moved[s]`` is where the player of seat ``s`` sits now.
    at = {new: old for old, new in enumerate(moved)}
    n = len(scores)
    reseated = match_ranking(
        [scores[at[s]] for s in range(n)],
        [won[at[s]] for s in range(n)],
        [conceded[at[s]] for s in range(n)],
        [moved[s] for s in placings],
    )
    assert reseated == [moved[s] for s in ranking]
