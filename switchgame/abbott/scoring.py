"""Abbott's Switch scoring: per-hand points, the 16-or-more control rule, the winner of the game.

Pure functions of a hand's outcome and the running totals (docs/rules.md §4.10 "Scores per hand",
§4.7 "16 or more", §4.11 "Game", §5.4 "Abbott running totals"), so the engine, the tests and
tournaments share one definition.
"""

from __future__ import annotations

from collections.abc import Sequence

Alliance = tuple[int, int]  # (chooser, chosen)

NO_ALLIANCE_WIN = 10
CHOOSER_WHEN_CHOSEN_WINS, CHOSEN_WINS = 3, 7
OPPONENT_WINS, OTHER_OPPONENT = 6, 4
CONTROL_MARGIN = 4  # "16 or more" in a game to 20: the power starts this far below the target


def hand_scores(players: int, winner: int | None, alliance: Alliance | None) -> list[int]:
    """Points each seat scores for one hand.

    ``winner`` is ``None`` for a tie for best hand, which scores nothing. Without an alliance (always
    so with two players) the winner scores 10. With one: the chosen partner winning scores chooser 3,
    chosen 7; the chooser winning scores nothing; an opponent winning scores 6, the other opponent 4.
    """
    scores = [0] * players
    if winner is None:
        return scores
    if alliance is None:
        scores[winner] = NO_ALLIANCE_WIN
        return scores
    chooser, chosen = alliance
    if winner == chosen:
        scores[chooser] = CHOOSER_WHEN_CHOSEN_WINS
        scores[chosen] = CHOSEN_WINS
    elif winner != chooser:
        (other,) = (s for s in range(players) if s not in (chooser, chosen, winner))
        scores[winner] = OPPONENT_WINS
        scores[other] = OTHER_OPPONENT
    return scores


def control_threshold(target: int) -> int:
    """The total from which a player moves his partner's piece: 16 in a game to 20."""
    return target - CONTROL_MARGIN


def controls(totals: Sequence[int], alliance: Alliance | None, threshold: int) -> list[int]:
    """For each piece, the seat that makes its moves (docs/rules.md §4.7).

    A player with ``threshold`` or more points who is in an alliance moves his partner's piece as
    well as his own, unless the partner also has ``threshold`` or more.
    """
    result = list(range(len(totals)))
    if alliance is not None:
        a, b = alliance
        if totals[a] >= threshold > totals[b]:
            result[b] = a
        elif totals[b] >= threshold > totals[a]:
            result[a] = b
    return result


def game_winner(totals: Sequence[int], target: int) -> int | None:
    """The winner of the game once someone has reached ``target``: the single highest total.

    Partners (or anyone) reaching the target in the same hand: the higher total wins; an equal highest
    total means more hands are played until one player alone is highest (docs/rules.md §4.11).
    """
    top = max(totals)
    if top < target:
        return None
    leaders = [seat for seat, total in enumerate(totals) if total == top]
    return leaders[0] if len(leaders) == 1 else None
