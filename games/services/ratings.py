"""Ratings: rated results recorded with the result, rated in date order by a background replay.

A result is written as a :class:`~games.models.RatedResult` in the transaction that produces it,
not yet applied; :func:`ratings_replay_step` (run by a task, re-published by the sweep) rates the
pending results of one game in bounded batches, one short transaction each. A result that is the
newest changes only its own holders; a correction (or a result that arrived late) makes everything
after it be replayed, starting from each holder's rating just before it (kept per result in
:class:`~games.models.RatingChange`). The replay locks only rating rows, never ``games_player``
(whose ``feed_seq`` every move increments), so play goes on while it runs.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.db.models import OuterRef, Q, Subquery
from django.utils import timezone

from games.models import Match, RatedResult, Rating, RatingChange, RatingReplay, Seat
from switchgame import protocol, ratings
from switchsite.tasks import publish_after_commit

# Results rated per transaction: a replay of any length holds its locks this long at most.
REPLAY_BATCH = 500


def rated_results_write(
    *,
    game: str,
    results: Sequence[tuple[str, list[list[str]], list[int]]],
    played_at: datetime,
    replacing: str | None = None,
) -> None:
    """Record results to rate — ``(source, teams of holders, ranks)`` — in the caller's
    transaction, and publish their replay after commit. ``replacing`` (a source prefix) deletes the
    earlier results it names first: the replay then starts where the earliest of them was.
    """
    with transaction.atomic():
        if replacing is not None:
            earlier = RatedResult.objects.filter(source__startswith=replacing)
            first = earlier.order_by("played_at", "pk").first()
            if first is not None:
                _replay_from(first.game, first.played_at, first.pk)
                earlier.delete()
        RatedResult.objects.bulk_create(
            RatedResult(game=game, source=source, teams=teams, ranks=ranks, played_at=played_at)
            for source, teams, ranks in results
        )
    if results or replacing is not None:
        publish_after_commit("games.tasks.replay_ratings", game)


def match_rated(match: Match, seats: Sequence[Seat]) -> None:
    """Record a rated match that has just finished as a result to rate, in the transaction that
    ends it: one update per match, each seat a team (Abbott's Switch: the alliances of its last
    hand), ranked by the match's ranking. A server bot plays as the player ``bot:<strategy>``; two
    bots of one strategy in a match are rated once, by the first of their seats."""
    outcome = protocol.Outcome.from_json(match.result or {})
    holders = [
        ratings.user_holder(s.player_id) if s.player_id else ratings.bot_holder(s.bot_strategy)
        for s in seats
    ]
    alone = tuple((seat,) for seat in range(len(seats)))
    sides = outcome.hands[-1].teams if match.game == Match.Game.ABBOTT else alone
    place = {seat: position for position, seat in enumerate(outcome.ranking)}
    best = [min(place[seat] for seat in side) for side in sides]
    rated: set[str] = set()
    teams, ranks = [], []
    for side, own in sorted(zip(sides, best, strict=True)):
        team = [holders[seat] for seat in side if holders[seat] not in rated]
        if team:
            rated.update(team)
            teams.append(team)
            ranks.append(1 + sum(other < own for other in best))
    assert match.finished_at is not None  # it has just finished
    rated_results_write(
        game=match.game,
        results=[(f"match:{match.pk}", teams, ranks)],
        played_at=match.finished_at,
    )


def ratings_replay_step(*, game: str, batch: int = REPLAY_BATCH) -> bool:
    """Rate up to ``batch`` results of ``game`` from the first that needs it, in one transaction.

    Safe to run twice and concurrently (the game's replay row is locked). Returns whether more
    remain (the task then runs again).
    """
    RatingReplay.objects.get_or_create(game=game)
    with transaction.atomic():
        replay = RatingReplay.objects.select_for_update().get(game=game)
        start = _start(replay)
        if start is None:
            return False
        results = list(_from(game, *start).order_by("played_at", "pk")[:batch])
        holders = {holder for result in results for team in result.teams for holder in team}
        current, games = _ratings_before(game, holders, *start)
        changes = []
        for result in results:
            rated = ratings.RatedMatch(teams=result.teams, ranks=result.ranks)
            for holder, rating in ratings.rate_match(rated, current).items():
                current[holder], games[holder] = rating, games.get(holder, 0) + 1
                changes.append(
                    RatingChange(
                        result=result,
                        holder=holder,
                        game=game,
                        played_at=result.played_at,
                        mu=rating.mu,
                        sigma=rating.sigma,
                        games=games[holder],
                    )
                )
        RatingChange.objects.filter(result__in=results).delete()
        RatingChange.objects.bulk_create(changes)
        RatedResult.objects.filter(pk__in=[r.pk for r in results]).update(applied=True)
        _store(game, current, games)
        last = results[-1]
        more = _after(game, last.played_at, last.pk).exists()
        replay.from_at, replay.from_id = (last.played_at, last.pk + 1) if more else (None, 0)
        replay.save(update_fields=["from_at", "from_id"])
    return more


def games_to_replay(*, quiet_for: timedelta) -> list[str]:
    """Games with rating work that shows no progress (its task was lost): the sweep publishes
    their replay again."""
    before = timezone.now() - quiet_for
    pending = RatedResult.objects.filter(applied=False, played_at__lte=before)
    unfinished = RatingReplay.objects.filter(from_at__isnull=False)
    return sorted(
        {*pending.order_by().values_list("game", flat=True).distinct()}
        | {*unfinished.values_list("game", flat=True)}
    )


def _replay_from(game: str, played_at: datetime, result_id: int) -> None:
    """Make the next replay of ``game`` start no later than this point."""
    replay, _ = RatingReplay.objects.get_or_create(game=game)
    replay = RatingReplay.objects.select_for_update().get(pk=replay.pk)
    if replay.from_at is None or (played_at, result_id) < (replay.from_at, replay.from_id):
        replay.from_at, replay.from_id = played_at, result_id
        replay.save(update_fields=["from_at", "from_id"])


def _start(replay: RatingReplay) -> tuple[datetime, int] | None:
    """The first result to rate: the replay's point or the first pending result, if earlier."""
    pending = (
        RatedResult.objects.filter(game=replay.game, applied=False)
        .order_by("played_at", "pk")
        .values_list("played_at", "pk")
        .first()
    )
    points = [p for p in (pending, replay.from_at and (replay.from_at, replay.from_id)) if p]
    return min(points) if points else None


def _from(game: str, played_at: datetime, result_id: int) -> Any:
    return RatedResult.objects.filter(game=game).filter(
        Q(played_at__gt=played_at) | Q(played_at=played_at, pk__gte=result_id)
    )


def _after(game: str, played_at: datetime, result_id: int) -> Any:
    return _from(game, played_at, result_id + 1)


def _ratings_before(
    game: str, holders: Iterable[str], played_at: datetime, result_id: int
) -> tuple[dict[str, ratings.Rating], dict[str, int]]:
    """Each holder's rating and rated games just before a point (from their last change)."""
    last_change = RatingChange.objects.filter(
        game=game, holder=OuterRef("holder"), played_at__lte=played_at
    ).exclude(played_at=played_at, result_id__gte=result_id)
    last_ids = (
        Rating.objects.filter(game=game, holder__in=list(holders))
        .annotate(last=Subquery(last_change.order_by("-played_at", "-result_id").values("pk")[:1]))
        .values_list("last", flat=True)
    )
    before = RatingChange.objects.filter(pk__in=[pk for pk in last_ids if pk is not None])
    current = {c.holder: ratings.Rating(mu=c.mu, sigma=c.sigma) for c in before}
    games = {c.holder: c.games for c in before}
    return current, games


def _store(game: str, current: dict[str, ratings.Rating], games: dict[str, int]) -> None:
    """Write the holders' ratings as this batch leaves them (a later batch overwrites them)."""
    Rating.objects.bulk_create(
        [
            Rating(
                holder=holder,
                game=game,
                user_id=ratings.holder_user(holder),
                mu=rating.mu,
                sigma=rating.sigma,
                games=games[holder],
            )
            for holder, rating in sorted(current.items())
        ],
        update_conflicts=True,
        unique_fields=["holder", "game"],
        update_fields=["mu", "sigma", "games", "updated_at"],
    )
