"""Player ratings: a thin wrapper over openskill's Plackett-Luce model.

One rating per holder (a player, a server bot strategy, a tournament entry), updated once per
finished match. Each match is a list of teams — one player per team, except Abbott's Switch alliances, which are two-player teams — and each team's
finishing rank (1 is first; equal ranks are a tie). A rating depends on the whole history before
it, so matches are rated in date order (the service replays them from a corrected result onwards).

:func:`conservative_rating` (``mu − 3·sigma``, openskill's "ordinal") is the one number shown and
sorted by, wherever a rating appears:

>>> before = {"user:1": initial_rating(), "user:2": initial_rating()}
>>> after = rate_match(RatedMatch(teams=[["user:1"], ["user:2"]], ranks=[1, 2]), before)
>>> {holder: round(rating.ordinal, 2) for holder, rating in after.items()}
{'user:1': 3.44, 'user:2': -1.83}
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce, PlackettLuceRating

PlayerId = str  # a rating holder: "user:<id>", "bot:<strategy>", "entry:<id>"

MODEL = PlackettLuce()


def conservative_rating(mu: float, sigma: float) -> float:
    """The rating one can be fairly sure of: the mean less three standard deviations."""
    return mu - 3 * sigma


@dataclass(frozen=True)
class Rating:
    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        return conservative_rating(self.mu, self.sigma)


@dataclass(frozen=True)
class RatedMatch:
    """A finished match: teams of player ids and each team's finishing rank (ties share a rank)."""

    teams: Sequence[Sequence[PlayerId]]
    ranks: Sequence[int]

    def __post_init__(self) -> None:
        if len(self.teams) != len(self.ranks):
            raise ValueError(f"{len(self.teams)} teams but {len(self.ranks)} ranks")
        players = [player for team in self.teams for player in team]
        if len(set(players)) != len(players):
            raise ValueError("a player appears twice in one match")
        if any(not team for team in self.teams):
            raise ValueError("a team has no players")


def user_holder(user_id: int) -> str:
    """Who holds a player's rating (see ``games.models.Rating``)."""
    return f"user:{user_id}"


def bot_holder(strategy: str) -> str:
    """Who holds a server bot's rating: the player ``bot:<strategy>``."""
    return f"bot:{strategy}"


def holder_user(holder: str) -> int | None:
    """The user id of a player's holder; None for any other holder."""
    return int(holder.removeprefix("user:")) if holder.startswith("user:") else None


def initial_rating() -> Rating:
    return _plain(MODEL.rating())


def rate_match(match: RatedMatch, ratings: Mapping[PlayerId, Rating]) -> dict[PlayerId, Rating]:
    """The new ratings of the match's players (unrated players start from the model's default).

    A match with fewer than two teams teaches nothing and leaves its players' ratings as they were.
    """
    current = {
        player: ratings.get(player, initial_rating()) for team in match.teams for player in team
    }
    if len(match.teams) < 2:
        return current
    teams = [
        [MODEL.rating(mu=current[p].mu, sigma=current[p].sigma) for p in team]
        for team in match.teams
    ]
    updated = MODEL.rate(teams, ranks=[float(rank) for rank in match.ranks])
    return {
        player: _plain(rating)
        for team, new_team in zip(match.teams, updated, strict=True)
        for player, rating in zip(team, new_team, strict=True)
    }


def _plain(rating: PlackettLuceRating) -> Rating:
    return Rating(mu=rating.mu, sigma=rating.sigma)
