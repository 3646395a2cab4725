"""the API guide "Matches": create, join, start, view, list, resign — with every error code they name."""

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission

from games import services, tasks
from games.models import Match, MatchEvent
from games.powers import Power
from tests.api.conftest import assert_problem

pytestmark = pytest.mark.django_db

LAYOUT: dict[str, Any] = {
    "hands": [
        ["7H", "9S", "2C", "JD", "KH", "3C", "4C"],
        ["9D", "5S", "6S", "QS", "QH", "4D", "8C"],
    ],
    "starter": "9H",
    "stock": ["TC", "TD"],
}


def create(client, **body):
    return client.post("/api/v1/matches/", {"ruleset": "switch", "seats": 2, **body})


def started_match(creator, other, **body) -> int:
    match_id = create(creator, **body).json()["id"]
    assert other.post(f"/api/v1/matches/{match_id}/join/").status_code == 200
    assert creator.post(f"/api/v1/matches/{match_id}/start/").status_code == 200
    return match_id


def test_create_seats_the_creator_at_seat_0_and_waits(alice):
    response = create(
        alice, seats=3, options={"hand_size": 5}, bots=[{"seat": 2, "strategy": "random"}]
    )

    assert response.status_code == 201
    view = response.json()
    assert view["status"] == "waiting"
    assert view["ruleset"] == "switch"
    assert view["options"] == {"hand_size": 5}
    assert [(s["seat"], s["player"], s["bot"]) for s in view["seats"]] == [
        (0, "alice", None),
        (1, None, None),
        (2, None, "random"),
    ]
    assert view["legal_moves"] == []


def test_a_strategy_asked_for_by_its_earlier_name_is_seated_by_its_name(alice):
    # the API guide, "Matches": `ismcts` is accepted as `montecarlo`'s earlier name.
    response = create(alice, bots=[{"seat": 1, "strategy": "ismcts"}])

    assert response.status_code == 201
    assert [s["bot"] for s in response.json()["seats"]] == [None, "montecarlo"]


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"ruleset": "whist"}, "invalid_ruleset"),
        ({"options": {"hand_size": 0}}, "invalid_options"),
        ({"options": {"no_such_option": True}}, "invalid_options"),
        ({"ruleset": "french", "seats": 8}, "invalid_options"),
        ({"ruleset": "abbott", "seats": 3}, "invalid_options"),
        ({"bots": [{"seat": 0, "strategy": "random"}]}, "invalid_bots"),
        ({"bots": [{"seat": 2, "strategy": "random"}]}, "invalid_bots"),
        ({"bots": [{"seat": 1, "strategy": "psychic"}]}, "invalid_bots"),
    ],
)
def test_bad_ruleset_options_and_bots_are_400_with_a_code(alice, body, code):
    body = assert_problem(create(alice, **body), 400, code)

    assert body["detail"]
    assert not Match.objects.exists()


def test_unknown_fields_of_the_wrong_type_are_listed(alice):
    body = assert_problem(create(alice, seats="many", deals=0), 400, "invalid")

    assert set(body["errors"]) == {"seats", "deals"}


@pytest.fixture
def clerk(make_client):
    """A staff user of the admin, with no permission at all."""
    client = make_client("clerk")
    get_user_model().objects.filter(username="clerk").update(is_staff=True)
    return client


def grant(client, power: Power) -> None:
    get_user_model().objects.get(username=client.username).user_permissions.add(
        Permission.objects.get(content_type__app_label="games", codename=power.codename)
    )


def test_a_layout_needs_its_permission_being_staff_is_not_enough(alice, clerk):
    assert_problem(create(alice, layout=LAYOUT), 403, "layout_staff_only")
    body = assert_problem(create(clerk, layout=LAYOUT), 403, "layout_staff_only")
    assert "permission" in body["detail"]

    grant(clerk, Power.LAYOUT)

    created = create(clerk, layout=LAYOUT)
    assert created.status_code == 201
    assert Match.objects.get(pk=created.json()["id"]).layout == LAYOUT


def test_layout_that_is_not_a_partition_of_the_deck_is_invalid_layout(staff):
    duplicated = {**LAYOUT, "starter": "7H"}

    body = assert_problem(create(staff, layout=duplicated), 400, "invalid_layout")
    assert "7H" in body["detail"]


def test_join_takes_the_first_free_seat_or_the_one_asked_for(alice, bob, carol):
    match_id = create(alice, seats=3).json()["id"]

    assert bob.post(f"/api/v1/matches/{match_id}/join/", {"seat": 2}).status_code == 200
    view = carol.post(f"/api/v1/matches/{match_id}/join/").json()

    assert [s["player"] for s in view["seats"]] == ["alice", "carol", "bob"]
    assert view["you"]["seat"] == 1


def test_join_errors(alice, bob, carol, make_client):
    match_id = create(alice).json()["id"]

    assert_problem(alice.post(f"/api/v1/matches/{match_id}/join/"), 409, "already_seated")
    assert bob.post(f"/api/v1/matches/{match_id}/join/").status_code == 200
    assert_problem(carol.post(f"/api/v1/matches/{match_id}/join/"), 409, "match_full")
    assert_problem(carol.post("/api/v1/matches/999999/join/"), 404, "not_found")

    three = create(alice, seats=3).json()["id"]
    bob.post(f"/api/v1/matches/{three}/join/", {"seat": 1})
    assert_problem(carol.post(f"/api/v1/matches/{three}/join/", {"seat": 1}), 409, "seat_taken")
    alice.post(f"/api/v1/matches/{three}/join/")
    carol.post(f"/api/v1/matches/{three}/join/")
    alice.post(f"/api/v1/matches/{three}/start/")
    assert_problem(make_client("dave").post(f"/api/v1/matches/{three}/join/"), 409, "match_started")


def test_start_needs_every_seat_filled_and_the_creator(alice, bob):
    match_id = create(alice).json()["id"]

    assert_problem(alice.post(f"/api/v1/matches/{match_id}/start/"), 409, "seats_empty")
    bob.post(f"/api/v1/matches/{match_id}/join/")
    assert_problem(bob.post(f"/api/v1/matches/{match_id}/start/"), 403, "not_match_creator")
    response = alice.post(f"/api/v1/matches/{match_id}/start/")

    assert response.status_code == 200
    view = response.json()
    assert view["status"] == "active"
    assert view["deal"] == 1
    assert len(view["you"]["hand"]) == 7
    assert len(view["shuffle_commitment"]) == 64
    assert_problem(alice.post(f"/api/v1/matches/{match_id}/start/"), 409, "match_started")


def test_starting_anyones_match_needs_its_permission_being_staff_is_not_enough(alice, clerk):
    match_id = create(alice, bots=[{"seat": 1, "strategy": "random"}]).json()["id"]
    assert_problem(clerk.post(f"/api/v1/matches/{match_id}/start/"), 403, "not_match_creator")

    grant(clerk, Power.START)

    assert clerk.post(f"/api/v1/matches/{match_id}/start/").status_code == 200


def test_view_shows_own_hand_and_only_counts_of_others(staff, bob):
    match_id = started_match(staff, bob, layout=LAYOUT)

    mine = staff.get(f"/api/v1/matches/{match_id}/").json()
    theirs = bob.get(f"/api/v1/matches/{match_id}/").json()

    assert mine["you"] == {"seat": 0, "hand": LAYOUT["hands"][0], "drawn": None}
    assert theirs["you"] == {"seat": 1, "hand": LAYOUT["hands"][1], "drawn": None}
    assert mine["top_card"] == "9H"
    assert [s["hand_count"] for s in mine["seats"]] == [7, 7]
    assert mine["legal_moves"]
    assert theirs["legal_moves"] == []
    for card in LAYOUT["hands"][1] + LAYOUT["stock"]:
        assert card not in str(mine["seats"])
        assert card not in str(mine.get("legal_moves"))
    assert "hands" not in str(mine)
    assert "TC" not in str(mine)


def test_spectators_see_the_public_part_only(staff, bob, carol):
    match_id = started_match(staff, bob, layout=LAYOUT)

    view = carol.get(f"/api/v1/matches/{match_id}/").json()

    assert view["you"] is None
    assert view["legal_moves"] == []
    for card in LAYOUT["hands"][0] + LAYOUT["hands"][1] + LAYOUT["stock"]:
        assert f'"{card}"' not in str(view).replace("'", '"') or card == view["top_card"]


def test_list_filters_by_status_and_player(alice, bob, carol):
    waiting = create(alice).json()["id"]
    active = started_match(bob, carol)

    mine = alice.get("/api/v1/matches/?player=me").json()
    actives = alice.get("/api/v1/matches/?status=active").json()

    assert [m["id"] for m in mine["results"]] == [waiting]
    assert [m["id"] for m in actives["results"]] == [active]
    assert set(mine) == {"count", "next", "previous", "results"}
    assert_problem(alice.get("/api/v1/matches/?status=sleeping"), 400, "invalid")


def test_resign_hands_the_seat_to_a_bot_which_plays_on(
    alice, bob, django_capture_on_commit_callbacks
):
    match_id = started_match(alice, bob)
    to_move = alice.get(f"/api/v1/matches/{match_id}/").json()["to_move"]
    leaver = [alice, bob][to_move]

    with django_capture_on_commit_callbacks() as after_commit:
        response = leaver.post(f"/api/v1/matches/{match_id}/resign/")

    assert response.status_code == 200
    assert response.json()["you"] is None
    assert after_commit, "the bot's turn is handed to a worker after commit"
    assert tasks.play_bot_turns(match_id) >= 1  # what the worker runs
    view = leaver.get(f"/api/v1/matches/{match_id}/").json()
    assert view["seats"][to_move]["bot"] == services.REPLACEMENT_BOT
    assert view["seats"][to_move]["resigned"] is True
    assert view["to_move"] != to_move or view["status"] != "active"
    assert MatchEvent.objects.filter(match_id=match_id, type="resign").exists()
    assert_problem(leaver.post(f"/api/v1/matches/{match_id}/resign/"), 403, "not_seated")


def test_forfeit_policy_abandons_the_match(alice, bob):
    match_id = started_match(alice, bob, on_resign="forfeit")

    view = bob.post(f"/api/v1/matches/{match_id}/resign/").json()

    assert view["status"] == "abandoned"
    assert (view["to_move"], view["legal_moves"]) == (None, [])  # nobody is to move any more
    assert alice.get(f"/api/v1/matches/{match_id}/").json()["status"] == "abandoned"


def test_a_resignation_that_abandons_the_match_puts_no_bot_in_the_seat(alice, bob):
    """on_resign "bot", but nobody is left to play: the match ends, and no bot played the seat."""
    match_id = started_match(alice, bob)
    bob.post(f"/api/v1/matches/{match_id}/resign/")

    view = alice.post(f"/api/v1/matches/{match_id}/resign/").json()
    record = alice.get(f"/api/v1/matches/{match_id}/record/").json()

    assert view["status"] == "abandoned"
    assert [s["bot"] for s in view["seats"]] == [None, "heuristic"]
    assert [p["bot"] for p in record["players"]] == [None, "heuristic"]
    resign = MatchEvent.objects.get(match_id=match_id, type="resign", seat=0)
    assert resign.data == {"replaced_by": None}
