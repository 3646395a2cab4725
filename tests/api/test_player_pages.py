"""Bot accounts, public player pages, a player's match list, rated matches and the leaderboard.

With a broker configured (CI, PostgreSQL) the rated matches are rated by a real Celery worker;
without one the rating task runs in-process after the match's end commits.
"""

import time

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from games.models import Match, RatedResult, Rating, RatingReplay
from tests.api.conftest import PASSWORD, Client, assert_problem

pytestmark = pytest.mark.django_db(transaction=True)  # tasks run after commit, as served


@pytest.fixture
def worker(request):
    """A real worker when a broker is configured; otherwise tasks already run in-process."""
    if settings.CELERY_BROKER_URL:
        request.getfixturevalue("celery_worker")


def wait_until_rated(timeout: float = 30.0) -> None:
    """Until every rated result is applied and no replay is under way (the worker's task)."""
    deadline = time.monotonic() + timeout
    while (
        RatedResult.objects.filter(applied=False).exists()
        or RatingReplay.objects.filter(from_at__isnull=False).exists()
    ):
        assert time.monotonic() < deadline, "timed out waiting for the ratings"
        time.sleep(0.05)


def finished_against_a_bot(client, *, rated: bool) -> int:
    """A match of the (staff) client against a random bot, from a fixed deal that the client
    wins with its one action: 9H on the starter TH (jacks-twos-eights, docs/rules.md §3.7)."""
    body = {
        "ruleset": "jacks-twos-eights",
        "seats": 2,
        "bots": [{"seat": 1, "strategy": "random"}],
        "layout": {"hands": [["9H"], ["5D", "6D"]], "starter": "TH", "stock": ["3C", "4C"]},
        "rated": rated,
    }
    match = client.post("/api/v1/matches/", body).json()
    assert match["rated"] is rated
    client.post(f"/api/v1/matches/{match['id']}/start/")
    client.post(f"/api/v1/matches/{match['id']}/moves/", {"action": "play", "card": "9H"})
    assert Match.objects.get(pk=match["id"]).status == Match.Status.FINISHED
    return match["id"]


def test_a_bot_account_is_shown_as_one():
    body = {"username": "robo", "password": PASSWORD, "bot": True}
    registered = APIClient().post("/api/v1/players/", body, format="json")
    assert registered.status_code == 201
    assert registered.json()["bot"] is True

    page = Client("robo", registered.json()["token"]).get("/api/v1/players/robo/").json()

    assert page["username"] == "robo"
    assert page["bot"] is True
    assert page["matches"] == {"played": 0, "won": 0}
    fresh = {"rating": pytest.approx(0.0), "mu": 25.0, "sigma": pytest.approx(25 / 3), "games": 0}
    assert page["ratings"] == {"shedding": fresh, "abbott": fresh}


def test_an_unknown_player_is_404(alice):
    assert_problem(alice.get("/api/v1/players/nobody/"), 404, "not_found")
    assert_problem(alice.get("/api/v1/players/nobody/matches/"), 404, "not_found")


def test_a_rated_match_rates_every_seat_once_and_an_unrated_one_nothing(worker, staff, bob):
    finished_against_a_bot(staff, rated=False)
    assert not RatedResult.objects.exists()

    rated = finished_against_a_bot(staff, rated=True)
    wait_until_rated()

    page = bob.get("/api/v1/players/organiser/").json()
    assert page["ratings"]["shedding"]["games"] == 1
    assert page["ratings"]["abbott"]["games"] == 0
    assert page["matches"]["played"] == 2
    organiser = get_user_model().objects.get(username="organiser").pk
    assert set(Rating.objects.values_list("holder", "games")) == {
        (f"user:{organiser}", 1),
        ("bot:random", 1),
    }
    listed = bob.get("/api/v1/players/organiser/matches/?status=finished").json()
    assert listed["count"] == 2
    assert listed["results"][0]["id"] == rated  # newest first
    assert listed["results"][0]["rated"] is True


def test_the_leaderboard_lists_who_has_five_rated_matches(worker, staff, make_client, bob):
    for _ in range(5):
        finished_against_a_bot(staff, rated=True)
    finished_against_a_bot(make_client("deputy", staff=True), rated=True)
    wait_until_rated()

    board = bob.get("/api/v1/leaderboard/?game=shedding").json()

    rows = board["results"]
    assert {(row["player"], row["bot"], row["games"]) for row in rows} == {
        ("organiser", False, 5),
        ("bot:random", True, 6),
    }
    assert [row["rating"] for row in rows] == sorted((row["rating"] for row in rows), reverse=True)
    assert bob.get("/api/v1/leaderboard/?game=abbott").json()["count"] == 0
    assert_problem(bob.get("/api/v1/leaderboard/"), 400, "invalid")
