"""Series standings: each person's results in several tournaments added up.

Pure: the caller says who is who (``person``: an account, or a guest's name whatever its case)
and hands in each tournament's standings rows.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

# Who a line belongs to: ("player", account id) or ("guest", the name in lower case).
Person = tuple[str, int | str]


@dataclass(frozen=True)
class NightResult:
    """One person's line in one tournament's standings."""

    tournament: int
    person: Person
    name: str
    rank: int
    score: float
    points: float


@dataclass
class SeriesRow:
    person: Person
    name: str
    score: float = 0.0
    points: float = 0.0
    ranks: dict[int, int] = field(default_factory=dict)  # tournament id -> rank there
    rank: int = 0

    @property
    def nights(self) -> int:
        return len(self.ranks)


def series_standings(results: Iterable[NightResult]) -> list[SeriesRow]:
    """Rows ranked by the sum of the tournaments' scores, then of their points, then by the best
    places (a 1st before a 2nd); rows equal on all three share a rank. The name shown is the one
    of the person's latest tournament (the highest id)."""
    rows: dict[Person, SeriesRow] = {}
    latest: dict[Person, int] = {}
    for result in results:
        row = rows.setdefault(result.person, SeriesRow(result.person, result.name))
        row.score += result.score
        row.points += result.points
        row.ranks[result.tournament] = result.rank
        if result.tournament >= latest.get(result.person, result.tournament):
            row.name, latest[result.person] = result.name, result.tournament

    def order(row: SeriesRow) -> tuple[float, float, list[int]]:
        return (-round(row.score, 9), -round(row.points, 9), sorted(row.ranks.values()))

    ranked = sorted(rows.values(), key=lambda row: (order(row), row.name.casefold()))
    for place, row in enumerate(ranked, start=1):
        before = ranked[place - 2] if place > 1 else None
        row.rank = before.rank if before is not None and order(before) == order(row) else place
    return ranked
