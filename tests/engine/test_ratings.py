"""Ratings: openskill's Plackett-Luce with ties and Abbott alliances."""

import pytest

from switchgame.ratings import (
    RatedMatch,
    Rating,
    initial_rating,
    rate_match,
)


def test_a_new_player_starts_at_the_model_default():
    assert initial_rating() == Rating(mu=25.0, sigma=25 / 3)
    assert initial_rating().ordinal == pytest.approx(0.0)


def test_the_winner_gains_and_the_loser_loses():
    after = rate_match(RatedMatch(teams=[["ann"], ["bob"], ["cat"]], ranks=[1, 2, 3]), {})
    assert after["ann"].mu > 25 > after["cat"].mu
    assert after["ann"].mu > after["bob"].mu > after["cat"].mu
    for rating in after.values():
        assert rating.ordinal == pytest.approx(rating.mu - 3 * rating.sigma)


def test_a_tie_between_equals_moves_neither_mean():
    after = rate_match(RatedMatch(teams=[["ann"], ["bob"]], ranks=[1, 1]), {})
    assert after["ann"].mu == pytest.approx(25.0)
    assert after["ann"] == after["bob"]
    assert after["ann"].sigma < 25 / 3  # still learnt something: they are alike


def test_players_sharing_a_rank_are_rated_alike():
    after = rate_match(RatedMatch(teams=[["ann"], ["bob"], ["cat"]], ranks=[1, 2, 2]), {})
    assert after["bob"] == after["cat"]
    assert after["ann"].mu > after["bob"].mu


def test_abbott_alliance_partners_are_one_team():
    match = RatedMatch(teams=[["ann", "bob"], ["cat"], ["dan"]], ranks=[1, 2, 3])
    after = rate_match(match, {})
    assert after["ann"] == after["bob"]
    assert after["ann"].mu > 25 > after["dan"].mu


def test_existing_ratings_are_the_starting_point():
    strong = Rating(mu=35.0, sigma=2.0)
    after = rate_match(RatedMatch(teams=[["ann"], ["bob"]], ranks=[1, 2]), {"ann": strong})
    assert after["ann"].mu - 35.0 < 25.0 - after["bob"].mu  # an expected win teaches little
    assert after["ann"].sigma < 25 / 3


def test_a_match_of_one_team_changes_nothing():
    before: dict[str, Rating] = {"ann": Rating(mu=30.0, sigma=5.0)}
    assert rate_match(RatedMatch(teams=[["ann"]], ranks=[1]), before) == before


@pytest.mark.parametrize(
    ("teams", "ranks", "message"),
    [
        ([["ann"], ["bob"]], [1], "2 teams but 1 ranks"),
        ([["ann"], ["ann"]], [1, 2], "appears twice"),
        ([["ann"], []], [1, 2], "no players"),
    ],
)
def test_malformed_matches_are_rejected(teams, ranks, message):
    with pytest.raises(ValueError, match=message):
        RatedMatch(teams=teams, ranks=ranks)
