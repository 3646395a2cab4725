"""Ratings held by players and entries, updated from a table's rating updates or replayed whole."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from games.models import Player
from tournaments.core import ratings
from tournaments.models import Entry, RatedGame


def ratings_apply(games: Iterable[RatedGame]) -> None:
    """Update the ratings of the players of ``games`` (new rating updates), in date order."""
    games = sorted(games, key=lambda g: (g.played_at, g.table_id, g.hand))
    if not games:
        return
    holders = _RatingHolders(games)
    for game in games:
        holders.current.update(ratings.rate_match(holders.rated_match(game), holders.current))
    holders.store()


def ratings_replay() -> None:
    """Every rating from scratch: all rating updates of the service replayed in date order."""
    games = list(RatedGame.objects.order_by("played_at", "table_id", "hand"))
    holders = _RatingHolders(games, start_fresh=True)
    holders.current.update(ratings.recompute_ratings(holders.rated_match(g) for g in games))
    holders.store()


class _RatingHolders:
    """Where the ratings of the entries in some rating updates live: a player's on their game
    profile (one rating across tournaments), a guest's or a bot entrant's on the entry. Rows are locked in id
    order, after the tournament, so concurrent updates queue instead of deadlocking."""

    def __init__(self, games: Sequence[RatedGame], *, start_fresh: bool = False) -> None:
        entry_ids = {entry for game in games for team in game.teams for entry in team}
        self.entries = {
            e.pk: e
            for e in Entry.objects.select_for_update().filter(pk__in=entry_ids).order_by("pk")
        }
        user_ids = {e.player_id for e in self.entries.values() if e.player_id is not None}
        profiled = set(
            Player.objects.filter(user_id__in=user_ids).values_list("user_id", flat=True)
        )
        Player.objects.bulk_create(Player(user_id=user_id) for user_id in user_ids - profiled)
        self.players = {
            p.user_id: p
            for p in Player.objects.select_for_update().filter(user_id__in=user_ids).order_by("pk")
        }
        self.current: dict[Any, ratings.Rating] = {}
        if start_fresh:
            return
        for entry in self.entries.values():
            if entry.player_id is not None:
                player = self.players[entry.player_id]
                self.current[self.key(entry.pk)] = _rating(player.rating_mu, player.rating_sigma)
            elif entry.rating_mu is not None and entry.rating_sigma is not None:
                self.current[self.key(entry.pk)] = _rating(entry.rating_mu, entry.rating_sigma)

    def key(self, entry_id: int) -> tuple[str, int]:
        entry = self.entries[entry_id]
        return ("player", entry.player_id) if entry.player_id else ("entry", entry.pk)

    def rated_match(self, game: RatedGame) -> ratings.RatedMatch:
        return ratings.RatedMatch(
            teams=[[self.key(entry) for entry in team] for team in game.teams], ranks=game.ranks
        )

    def store(self) -> None:
        fresh = ratings.initial_rating()
        for entry in self.entries.values():
            rating = self.current.get(self.key(entry.pk), fresh)
            holder = self.players[entry.player_id] if entry.player_id else entry
            holder.rating_mu, holder.rating_sigma = rating.mu, rating.sigma
        Player.objects.bulk_update(self.players.values(), ["rating_mu", "rating_sigma"])
        own_rating = [e for e in self.entries.values() if e.player_id is None]
        Entry.objects.bulk_update(own_rating, ["rating_mu", "rating_sigma"])


def _rating(mu: float, sigma: float) -> ratings.Rating:
    return ratings.Rating(mu=mu, sigma=sigma)
