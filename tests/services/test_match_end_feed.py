"""``match_end`` in the players' feeds: with the result when a match finishes, and marked abandoned
for those still seated when a resignation forfeits it."""

import pytest
from django.contrib.auth import get_user_model

from games import services
from games.models import FeedEvent, Match, MatchEvent
from tests.conftest import with_game_powers

pytestmark = pytest.mark.django_db

# Seat 0 holds one card that follows the starter, so its first play ends the one-deal match.
LAST_CARD = {"hands": [["9S"], ["5D", "6D"]], "starter": "9H", "stock": ["TC"]}


def started(on_resign: str = "bot") -> tuple[Match, list]:
    users = get_user_model().objects
    creator, other = with_game_powers(users.create_user("first")), users.create_user("second")
    created = services.match_create(
        creator=creator, ruleset="switch", seats=2, layout=LAST_CARD, on_resign=on_resign
    )
    services.match_join(match_id=created.pk, user=other)
    return services.match_start(match_id=created.pk, user=creator).match, [creator, other]


def match_end_feed(user) -> list[dict]:
    return list(
        FeedEvent.objects.filter(player__user=user, type="match_end").values_list("data", flat=True)
    )


def test_a_finished_match_gives_each_player_its_result():
    match, (first, second) = started()

    services.action_apply(match_id=match.pk, user=first, action={"action": "play", "card": "9S"})

    result = Match.objects.get(pk=match.pk).result
    assert result is not None
    assert result["winner"] == 0
    assert match_end_feed(first) == [{"match": match.pk, "result": result}]
    assert match_end_feed(second) == [{"match": match.pk, "result": result}]


def test_a_forfeit_tells_the_players_still_seated_but_not_the_one_who_left():
    match, (first, second) = started(on_resign="forfeit")

    services.match_resign(match_id=match.pk, user=second)

    assert Match.objects.get(pk=match.pk).status == Match.Status.ABANDONED
    assert match_end_feed(first) == [{"match": match.pk, "abandoned": True}]
    assert match_end_feed(second) == []


def test_a_forfeit_ends_the_log_with_a_match_end_event_as_every_ending_does():
    match, (_, second) = started(on_resign="forfeit")

    services.match_resign(match_id=match.pk, user=second)

    last = MatchEvent.objects.filter(match=match).order_by("-seq").first()
    assert last is not None
    assert (last.type, last.data) == ("match_end", {"abandoned": True, "resigned": [1]})
    assert Match.objects.get(pk=match.pk).result == {"abandoned": True, "resigned": [1]}
