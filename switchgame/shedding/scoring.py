"""Scoring a deal of shedding Switch (docs/rules.md §5): the French tally and placements.

Pure functions over card ids and seats, so tournaments can score deals of any ruleset the same way.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from switchgame.cards import ACE, FOUR, JACK, JOKER_RANK, KING, QUEEN, RANK_OF, TWO
from switchgame.protocol import HandOutcome, Outcome, solo_teams

JOKER_POINTS = 25  # the French source has no jokers: this project's choice (docs/rules.md §5)


def _points(rank: int) -> int:
    if rank == ACE:
        return 20
    if rank in (TWO, FOUR, JACK):
        return 15
    if rank in (QUEEN, KING):
        return 10
    if rank == JOKER_RANK:
        return JOKER_POINTS
    return rank + 1  # 3 … 10 count their face value


CARD_POINTS: tuple[int, ...] = tuple(_points(rank) for rank in RANK_OF)


def french_tally(cards: Iterable[int]) -> int:
    """The French tally of cards left in a hand: ace 20; 2, 4, jack 15; king, queen 10; joker 25."""
    return sum(CARD_POINTS[c] for c in cards)


def hand_order(hands: Sequence[Sequence[int]], seats: Sequence[int]) -> list[int]:
    """``seats`` (given in turn order) best first: lowest tally, then fewest cards, then turn order."""
    position = {seat: index for index, seat in enumerate(seats)}
    return sorted(seats, key=lambda s: (french_tally(hands[s]), len(hands[s]), position[s]))


def deal_placings(
    finish_order: Sequence[int], hands: Sequence[Sequence[int]], remaining: Sequence[int]
) -> list[int]:
    """Every seat, first place first: the finishing order, then the others by :func:`hand_order`.

    ``remaining`` lists the seats still holding cards, in turn order from the seat to move.
    """
    return [*finish_order, *hand_order(hands, remaining)]


def winner_points(hands: Sequence[Sequence[int]], winner: int) -> int:
    """What the winner of a deal scores: the French tally of every other hand."""
    return sum(french_tally(hand) for seat, hand in enumerate(hands) if seat != winner)


def match_ranking(
    scores: Sequence[int],
    deals_won: Sequence[int],
    conceded: Sequence[int],
    last_placings: Sequence[int],
) -> list[int]:
    """Seats best first (docs/rules.md §5.2): highest total, then most deals won, then the fewest
    tallies conceded over the match, then the better place in the last deal — never seat number."""
    place = {seat: index for index, seat in enumerate(last_placings)}
    return sorted(
        range(len(scores)), key=lambda s: (-scores[s], -deals_won[s], conceded[s], place[s])
    )


def match_outcome(
    players: int,
    history: Sequence[Mapping[str, Any]],
    scores: Sequence[int],
    deals_won: Sequence[int],
) -> Outcome:
    """A finished match's outcome: every deal's points, winner, placings and tallies (from the
    deals' summaries in ``history``), the totals, the tallies conceded and the ranking; every seat
    plays for itself."""
    teams = solo_teams(players)
    hands = tuple(
        HandOutcome(
            number=summary["deal"],
            points=tuple(summary["points"]),
            winner=summary["winner"],
            placings=tuple(summary["placings"]),
            teams=teams,
            tallies=tuple(summary["tallies"]),
        )
        for summary in history
    )
    conceded = tuple(sum(hand.conceded()[seat] for hand in hands) for seat in range(players))
    return Outcome(
        hands=hands,
        totals=tuple(scores),
        ranking=tuple(match_ranking(scores, deals_won, conceded, hands[-1].placings)),
        conceded=conceded,
    )
