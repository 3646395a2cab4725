"""Abbott's Switch scoring: docs/rules.md §4.10 "Scores per hand", §4.7 "16 or more", §4.11 "Game", and §5.4."""

from __future__ import annotations

import pytest

from switchgame.abbott.scoring import controls, game_winner, hand_scores

SMITH, JONES, ROBINSON, BROWN = range(4)

# The source's example of the scoring in one game (abbott-switch-1963.txt, "Winning the Game"):
# (chooser, chosen, winner, the hand's scores as printed, the running totals as printed).
WORKED_EXAMPLE = [
    (SMITH, JONES, JONES, [3, 7, 0, 0], [3, 7, 0, 0]),
    (JONES, BROWN, ROBINSON, [4, 0, 6, 0], [7, 7, 6, 0]),
    (SMITH, BROWN, SMITH, [0, 0, 0, 0], [7, 7, 6, 0]),
    (ROBINSON, SMITH, JONES, [0, 6, 0, 4], [7, 13, 6, 4]),
    (ROBINSON, SMITH, SMITH, [7, 0, 3, 0], [14, 13, 9, 4]),
    (BROWN, SMITH, ROBINSON, [0, 4, 6, 0], [14, 17, 15, 4]),
    (JONES, BROWN, BROWN, [0, 3, 0, 7], [14, 20, 15, 11]),
]


def test_worked_example_of_the_source_hand_by_hand() -> None:
    """Every score and running total of the source's seven-hand game between Smith, Jones,
    Robinson and Brown; Jones wins at 20 in the last hand while moving Brown's piece."""
    totals = [0, 0, 0, 0]
    for number, (chooser, chosen, winner, printed_scores, printed_totals) in enumerate(
        WORKED_EXAMPLE, start=1
    ):
        pieces_moved_by = controls(totals, (chooser, chosen), 16)
        if number == 7:
            assert totals[JONES] == 17
            assert pieces_moved_by == [SMITH, JONES, ROBINSON, JONES]  # Jones moves Brown's piece
        else:
            assert pieces_moved_by == [SMITH, JONES, ROBINSON, BROWN]
        scores = hand_scores(4, winner, (chooser, chosen))
        assert scores == printed_scores, f"hand {number}"
        totals = [t + s for t, s in zip(totals, scores, strict=True)]
        assert totals == printed_totals, f"hand {number}"
        expected_winner = JONES if number == 7 else None
        assert game_winner(totals, 20) == expected_winner, f"hand {number}"


@pytest.mark.parametrize(
    ("players", "winner", "alliance", "expected"),
    [
        (4, 2, None, [0, 0, 10, 0]),  # no alliance: the winner scores 10
        (4, 1, (0, 1), [3, 7, 0, 0]),  # the chosen partner wins: chooser 3, chosen 7
        (4, 0, (0, 1), [0, 0, 0, 0]),  # the chooser wins: nobody scores
        (4, 2, (0, 1), [0, 0, 6, 4]),  # an opponent wins: 6, and the other opponent 4
        (4, 3, (2, 0), [0, 4, 0, 6]),
        (4, None, (0, 1), [0, 0, 0, 0]),  # a tie for best hand scores nothing
        (4, None, None, [0, 0, 0, 0]),
        (2, 1, None, [0, 10]),  # two players: the winner scores 10
        (2, None, None, [0, 0]),
    ],
)
def test_hand_scores(
    players: int, winner: int | None, alliance: tuple[int, int] | None, expected: list[int]
) -> None:
    assert hand_scores(players, winner, alliance) == expected


@pytest.mark.parametrize(
    ("totals", "alliance", "expected"),
    [
        ([16, 0, 0, 0], (0, 2), [0, 1, 0, 3]),  # the chooser with 16 moves the chosen's piece
        ([0, 0, 18, 0], (0, 2), [2, 1, 2, 3]),  # ...and the chosen with 16+ the chooser's
        ([15, 0, 0, 0], (0, 2), [0, 1, 2, 3]),  # 15 is not enough
        ([16, 0, 17, 0], (0, 2), [0, 1, 2, 3]),  # not if both partners have 16 or more
        ([19, 0, 0, 0], None, [0, 1, 2, 3]),  # not without an alliance
        ([19, 18, 0, 0], (2, 3), [0, 1, 2, 3]),  # opponents have no power over each other
    ],
)
def test_sixteen_or_more_control(
    totals: list[int], alliance: tuple[int, int] | None, expected: list[int]
) -> None:
    assert controls(totals, alliance, 16) == expected


@pytest.mark.parametrize(
    ("totals", "target", "expected"),
    [
        ([19, 13, 12, 0], 20, None),
        ([20, 13, 12, 0], 20, 0),
        ([20, 24, 12, 0], 20, 1),  # partners both past 20: the higher total wins
        ([20, 20, 12, 0], 20, None),  # an equal highest total: more hands are played
        ([20, 20, 22, 0], 20, 2),  # ...until one player alone is highest, whoever it is
        ([39, 30], 40, None),
        ([40, 30], 40, 0),
    ],
)
def test_game_winner(totals: list[int], target: int, expected: int | None) -> None:
    assert game_winner(totals, target) == expected
