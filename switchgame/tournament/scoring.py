"""Standings for club tournaments: placement points, the table-size-fair score and the tie-breaks.

Pure functions (standard library only). The rules engines own the French tally and Abbott's hand
scores; here every table result is just each entry's raw points at that table (a French tally, an
Abbott total or placement points) and the deals each entry won there. Arithmetic is exact
(fractions), so entries whose results are equal are really tied, never split by a rounding error.

**Scorings** (:class:`Scoring`): ``french`` (the French tally, docs/rules.md §5), ``placement``
(the finishing order of each deal) and ``abbott`` (Abbott's running totals, docs/rules.md §4).

**Placement points** (:func:`placement_points`): at a table of ``n``, the first to finish gets
``n − 1``, the next ``n − 2``, …, the last 0 — one point per opponent finished ahead of.

**Round score** (fair between table sizes): at each table, the share of one's table opponents one
outscored, a tie counting one half (match-pointing, as in bridge): outscoring all three opponents
at a table of four is 1, beating one and tying one is (1 + ½) / 3 = ½.

**Score** (what ranks first, :class:`Ranking`): ``total`` — the sum of the round scores over the
tables played and the byes (the default: a round not played counts nothing); ``average`` — their
mean. On equal score, the entry that played more tables ranks first: a bye is never worth more
than a game played, so byes never let an entry with fewer games outrank one that played more on
equal results (late entries and absences included).

**Forfeited tables**: a table whose game was abandoned with no result (every human resigned) and
no result from the desk counts as played and lost by everyone at it: score 0, share 0, no points,
and nobody met anybody there (it counts for no opponents' score or head-to-head). Scoring them as
a draw would rank players who walked away above players who played and lost.

**Byes**, per the organiser's bye policy, are credited for each per-round figure (score, points,
share of the table's points): ``zero`` — 0; ``average`` — the entry's own average of that figure over
the tables it played (0 if none); ``maximum`` — the best figure any entry reached at a table of that
round (0 if nobody played that round). A bye wins no deals.

**Points**: the raw points added up, byes included.

**Tie-breaks**, after the score and the tables played, in this order (:func:`tiebreak_order`):

0. ``conceded`` (French scoring only) — the tallies an entry was left holding, added up; lower
   is better. Without it a French loser holding 35 would rank like one holding 5.
1. ``table_share`` — the share of its table's points an entry took (its points divided by the table's
   total; an equal share each when the table scored nothing), averaged like the score.
2. ``opponents_score`` — the average score of the opponents met, counted once per table at which they
   were met; each opponent's score here leaves out their byes and is raised to at least ⅓, so an
   opponent who withdrew or lost everything does not sink the entries who played them.
3. ``deals_won`` — deals won, added up.
4. ``head_to_head`` — only when every pair of the entries still tied met at least once: each one's
   share of the meetings among them it won (more points at the table), a tie counting one half.
   Otherwise left empty.
5. ``lot`` — a number in [0, 1) drawn from the standings seed and the entry id alone, so it does not
   change when other entries join or results change; the higher lot ranks first.

Lots always separate, so the ranks are 1 to n with no shared rank.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from itertools import combinations, groupby
from typing import Generic, TypeVar

# Whatever identifies an entry (the selectors score entries by id; the tests by name): the
# standings come back with the same kind of entry as the results went in.
Entry = TypeVar("Entry", bound=Hashable)

OPPONENT_SCORE_FLOOR = Fraction(1, 3)


class Scoring(StrEnum):
    FRENCH = "french"
    PLACEMENT = "placement"
    ABBOTT = "abbott"


class Ranking(StrEnum):
    """What ranks first: ``total``, the sum of the round scores (byes as the policy credits
    them), or ``average``, their mean."""

    TOTAL = "total"
    AVERAGE = "average"


class ByePolicy(StrEnum):
    ZERO = "zero"
    AVERAGE = "average"
    MAXIMUM = "maximum"


@dataclass(frozen=True)
class TableResult(Generic[Entry]):
    """One table of one round: each entry's raw points there, and the deals each won.

    ``forfeited``: the table has no result and everyone at it lost (see the module docstring).
    """

    round_number: int
    points: Mapping[Entry, float]
    deals_won: Mapping[Entry, int] = field(default_factory=dict)
    forfeited: bool = False
    conceded: Mapping[Entry, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if len(self.points) < 2:
            raise ValueError(f"a table in round {self.round_number} has fewer than two entries")
        strangers = [entry for entry in self.deals_won if entry not in self.points]
        if strangers:
            raise ValueError(f"deals won by entries not at the table: {strangers}")


@dataclass(frozen=True)
class Bye(Generic[Entry]):
    round_number: int
    entry: Entry


@dataclass(frozen=True)
class StandingRow(Generic[Entry]):
    rank: int
    entry: Entry
    score: float
    points: float
    deals_won: int
    played: int
    byes: int
    round_scores: dict[int, float]
    round_points: dict[int, float]
    tiebreaks: dict[str, float | None]


TIEBREAKS = ("table_share", "opponents_score", "deals_won", "head_to_head", "lot")


def tiebreak_order(scoring: Scoring | str) -> tuple[str, ...]:
    """The tie-breaks of a scoring, in the order used (after the score and the tables played)."""
    return ("conceded", *TIEBREAKS) if Scoring(scoring) is Scoring.FRENCH else TIEBREAKS


def placement_points(finishing_order: Sequence[Entry]) -> dict[Entry, int]:
    """Points for a finishing order, first to last: one per opponent finished ahead of."""
    last = len(finishing_order) - 1
    return {entry: last - place for place, entry in enumerate(finishing_order)}


def table_scores(points: Mapping[Entry, float]) -> dict[Entry, Fraction]:
    """Each entry's share of its table opponents outscored, a tie counting one half."""
    opponents = len(points) - 1
    return {
        entry: sum(
            (_compare(own, other) for rival, other in points.items() if rival != entry),
            Fraction(0),
        )
        / opponents
        for entry, own in points.items()
    }


def lot(entry: Entry, seed: int) -> float:
    """The entry's lot: the same for the same seed and entry, whatever else is in the standings."""
    return random.Random(f"{seed}:{entry!r}").random()


def standings(
    entries: Sequence[Entry],
    tables: Iterable[TableResult[Entry]],
    byes: Iterable[Bye[Entry]] = (),
    *,
    bye_policy: ByePolicy | str,
    seed: int,
    ranking: Ranking | str = Ranking.TOTAL,
    with_conceded: bool = False,
) -> list[StandingRow[Entry]]:
    """Every entry ranked 1 to n by score and the tie-breaks of the module docstring
    (``with_conceded``: French scoring, ``conceded`` first)."""
    bye_policy = ByePolicy(bye_policy)
    ranking = Ranking(ranking)
    tables = list(tables)
    byes = list(byes)
    _check_one_place_per_round(tables, byes)
    played: dict[Entry, list[_Played[Entry]]] = defaultdict(list)
    for table in tables:
        scores, shares = _table_figures(table)
        for entry, own in table.points.items():
            played[entry].append(
                _Played(
                    round_number=table.round_number,
                    score=scores[entry],
                    points=Fraction(own),
                    share=shares[entry],
                    deals_won=table.deals_won.get(entry, 0),
                    conceded=table.conceded.get(entry, 0),
                    opponents={}
                    if table.forfeited
                    else {rival: p for rival, p in table.points.items() if rival != entry},
                )
            )
    round_best = _round_best(played)
    totals = {
        entry: _Totals.add_up(
            played[entry], [b for b in byes if b.entry == entry], bye_policy, round_best, ranking
        )
        for entry in entries
    }
    opponents_score = {entry: _opponents_score(played[entry], played) for entry in entries}

    def before_head_to_head(entry: Entry) -> tuple[Fraction, int, int, Fraction, Fraction, int]:
        t = totals[entry]
        conceded = -t.conceded if with_conceded else 0
        return (t.score, len(played[entry]), conceded, t.share, opponents_score[entry], t.deals_won)

    ordered = sorted(entries, key=before_head_to_head, reverse=True)
    head_to_head: dict[Entry, Fraction | None] = {}
    for _, tied in groupby(ordered, key=before_head_to_head):
        head_to_head.update(_head_to_head(list(tied), played))
    ordered.sort(
        key=lambda e: (*before_head_to_head(e), head_to_head[e] or 0, lot(e, seed)), reverse=True
    )
    return [
        StandingRow(
            rank=rank,
            entry=entry,
            score=float(totals[entry].score),
            points=float(totals[entry].points),
            deals_won=totals[entry].deals_won,
            played=len(played[entry]),
            byes=totals[entry].byes,
            round_scores={r: float(s) for r, s in totals[entry].round_scores.items()},
            round_points={r: float(p) for r, p in totals[entry].round_points.items()},
            tiebreaks={
                **({"conceded": totals[entry].conceded} if with_conceded else {}),
                "table_share": float(totals[entry].share),
                "opponents_score": float(opponents_score[entry]),
                "deals_won": totals[entry].deals_won,
                "head_to_head": None if (share := head_to_head[entry]) is None else float(share),
                "lot": lot(entry, seed),
            },
        )
        for rank, entry in enumerate(ordered, start=1)
    ]


@dataclass(frozen=True)
class _Played(Generic[Entry]):
    """One entry's result at one table."""

    round_number: int
    score: Fraction
    points: Fraction
    share: Fraction
    deals_won: int
    opponents: dict[Entry, float]
    conceded: int = 0


@dataclass(frozen=True)
class _RoundBest:
    score: Fraction
    points: Fraction
    share: Fraction


@dataclass(frozen=True)
class _Totals:
    score: Fraction
    points: Fraction
    share: Fraction
    deals_won: int
    conceded: int
    byes: int
    round_scores: dict[int, Fraction]
    round_points: dict[int, Fraction]

    @classmethod
    def add_up(
        cls,
        played: list[_Played[Entry]],
        byes: list[Bye[Entry]],
        policy: ByePolicy,
        round_best: Mapping[int, _RoundBest],
        ranking: Ranking,
    ) -> _Totals:
        scores = {p.round_number: p.score for p in played}
        points = {p.round_number: p.points for p in played}
        shares = {p.round_number: p.share for p in played}
        for bye in byes:
            best = round_best.get(
                bye.round_number, _RoundBest(Fraction(0), Fraction(0), Fraction(0))
            )
            scores[bye.round_number] = _bye_credit(policy, played, "score", best.score)
            points[bye.round_number] = _bye_credit(policy, played, "points", best.points)
            shares[bye.round_number] = _bye_credit(policy, played, "share", best.share)
        rounds = len(scores)
        total = sum(scores.values(), Fraction(0))
        return cls(
            score=total if ranking is Ranking.TOTAL else _mean(scores.values(), rounds),
            points=sum(points.values(), Fraction(0)),
            share=_mean(shares.values(), rounds),
            deals_won=sum(p.deals_won for p in played),
            conceded=sum(p.conceded for p in played),
            byes=len(byes),
            round_scores=dict(sorted(scores.items())),
            round_points=dict(sorted(points.items())),
        )


def _bye_credit(
    policy: ByePolicy, played: list[_Played[Entry]], figure: str, best: Fraction
) -> Fraction:
    if policy is ByePolicy.ZERO:
        return Fraction(0)
    if policy is ByePolicy.MAXIMUM:
        return best
    return _mean((getattr(p, figure) for p in played), len(played))


def _mean(values: Iterable[Fraction], count: int) -> Fraction:
    return sum(values, Fraction(0)) / count if count else Fraction(0)


def _compare(own: float | Fraction, other: float | Fraction) -> Fraction:
    """1 for a win, ½ for a tie, 0 for a loss."""
    return Fraction(1) if own > other else Fraction(1, 2) if own == other else Fraction(0)


def _table_figures(
    table: TableResult[Entry],
) -> tuple[dict[Entry, Fraction], dict[Entry, Fraction]]:
    """Each entry's score and share of the table's points (both 0 at a forfeited table)."""
    if table.forfeited:
        nothing = dict.fromkeys(table.points, Fraction(0))
        return nothing, dict(nothing)
    return table_scores(table.points), _table_shares(table.points)


def _table_shares(points: Mapping[Entry, float]) -> dict[Entry, Fraction]:
    total = sum(Fraction(p) for p in points.values())
    if total == 0:
        return {entry: Fraction(1, len(points)) for entry in points}
    return {entry: Fraction(p) / total for entry, p in points.items()}


def _round_best(played: Mapping[Entry, list[_Played[Entry]]]) -> dict[int, _RoundBest]:
    by_round: dict[int, list[_Played[Entry]]] = defaultdict(list)
    for results in played.values():
        for result in results:
            by_round[result.round_number].append(result)
    return {
        number: _RoundBest(
            score=max(r.score for r in results),
            points=max(r.points for r in results),
            share=max(r.share for r in results),
        )
        for number, results in by_round.items()
    }


def _opponents_score(
    own: list[_Played[Entry]], played: Mapping[Entry, list[_Played[Entry]]]
) -> Fraction:
    floored = [
        max(_mean((p.score for p in played[rival]), len(played[rival])), OPPONENT_SCORE_FLOOR)
        for result in own
        for rival in result.opponents
    ]
    return _mean(floored, len(floored))


def _head_to_head(
    tied: list[Entry], played: Mapping[Entry, list[_Played[Entry]]]
) -> dict[Entry, Fraction | None]:
    """Shares of the meetings among ``tied`` won, or ``None`` unless every pair of them met."""
    if len(tied) < 2:
        return dict.fromkeys(tied)
    group = set(tied)
    meetings = {
        entry: [
            _compare(result.points, Fraction(other))
            for result in played[entry]
            for rival, other in result.opponents.items()
            if rival in group
        ]
        for entry in tied
    }
    met = {
        frozenset((entry, rival))
        for entry in tied
        for result in played[entry]
        for rival in result.opponents
        if rival in group
    }
    if any(frozenset(pair) not in met for pair in combinations(tied, 2)):
        return dict.fromkeys(tied)
    return {entry: _mean(meetings[entry], len(meetings[entry])) for entry in tied}


def _check_one_place_per_round(tables: list[TableResult[Entry]], byes: list[Bye[Entry]]) -> None:
    places = [(t.round_number, entry) for t in tables for entry in t.points]
    places += [(bye.round_number, bye.entry) for bye in byes]
    seen: set[tuple[int, Entry]] = set()
    for place in places:
        if place in seen:
            raise ValueError(f"entry {place[1]!r} is placed twice in round {place[0]}")
        seen.add(place)
