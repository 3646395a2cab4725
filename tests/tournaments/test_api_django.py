"""the API guide "Tournaments": every endpoint, its status codes and error codes, as a client sees them."""

import pytest

from tests.api.conftest import assert_problem
from tests.tournaments.conftest import TOURNAMENT
from tournaments.models import Entry, Round, TableSeat, Tournament

pytestmark = pytest.mark.django_db


def create(client, **body):
    return client.post("/api/v1/tournaments/", {**TOURNAMENT, **body})


def event_with(staff, *clients, **body) -> int:
    tournament_id = create(staff, **body).json()["id"]
    for client in clients:
        assert client.post(f"/api/v1/tournaments/{tournament_id}/register/").status_code == 200
    return tournament_id


def test_staff_creates_a_tournament_and_everyone_sees_it(staff, alice):
    response = create(staff, bye_policy="average", options={"hand_size": 5})

    assert response.status_code == 201
    body = response.json()
    assert body["status"] == "registering"
    assert body["planned_rounds"] == 2
    assert (body["scoring"], body["seating"], body["bye_policy"]) == (
        "french",
        "balanced",
        "average",
    )
    assert body["options"] == {"hand_size": 5}
    assert body["entries"] == body["rounds"] == []
    listing = alice.get("/api/v1/tournaments/").json()
    assert listing["count"] == 1
    assert listing["results"][0]["name"] == "Tuesday club"
    assert set(listing) == {"count", "next", "previous", "results"}
    assert alice.get(f"/api/v1/tournaments/{body['id']}/").json()["name"] == "Tuesday club"


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"ruleset": "whist"}, 400, "invalid_ruleset"),
        ({"options": {"no_such_option": 1}}, 400, "invalid_options"),
        ({"scoring": "abbott"}, 400, "invalid_scoring"),
        ({"ruleset": "abbott", "scoring": "french"}, 400, "invalid_scoring"),
        ({"target": 100}, 400, "invalid"),
        ({"seating": "alphabetical"}, 400, "invalid"),
    ],
)
def test_create_refuses_bad_settings(staff, body, status, code):
    assert_problem(create(staff, **body), status, code)


def test_a_scoring_that_does_not_fit_the_game_names_the_ones_that_do(staff):
    problem = assert_problem(
        create(staff, ruleset="abbott", scoring="french"), 400, "invalid_scoring"
    )

    assert problem["detail"] == "abbott tournaments are scored abbott, not 'french'"


def test_only_staff_create_and_strangers_are_refused(alice, client):
    assert_problem(create(alice), 403, "staff_only")
    assert client.get("/api/v1/tournaments/").status_code == 401


def test_unknown_tournament_is_404(alice):
    for path in ("", "standings/"):
        assert_problem(alice.get(f"/api/v1/tournaments/999/{path}"), 404, "not_found")
    assert_problem(alice.post("/api/v1/tournaments/999/register/"), 404, "not_found")


def test_register_and_withdraw_yourself(staff, alice):
    tournament_id = event_with(staff, alice)
    path = f"/api/v1/tournaments/{tournament_id}"

    entries = alice.get(f"{path}/").json()["entries"]
    assert [(e["name"], e["player"], e["bot"], e["withdrawn"]) for e in entries] == [
        ("alice", "alice", None, False)
    ]
    assert_problem(alice.post(f"{path}/register/"), 409, "already_registered")

    assert alice.post(f"{path}/withdraw/").json()["entries"][0]["withdrawn"] is True
    assert_problem(alice.post(f"{path}/withdraw/"), 409, "not_registered")
    assert alice.post(f"{path}/register/").json()["entries"][0]["withdrawn"] is False


def test_staff_register_players_and_bots(staff, alice, bob):
    tournament_id = event_with(staff)
    path = f"/api/v1/tournaments/{tournament_id}"

    assert staff.post(f"{path}/register/", {"player": "bob"}).status_code == 200
    assert staff.post(f"{path}/register/", {"bot": "random", "name": "Robbie"}).status_code == 200
    assert_problem(
        staff.post(f"{path}/register/", {"bot": "random", "name": "Robbie"}), 409, "name_taken"
    )
    assert_problem(
        staff.post(f"{path}/register/", {"bot": "psychic", "name": "X"}), 400, "invalid_bots"
    )
    assert_problem(staff.post(f"{path}/register/", {"player": "nobody"}), 400, "unknown_player")
    assert_problem(
        staff.post(f"{path}/register/", {"player": "bob", "bot": "random"}), 400, "invalid"
    )
    assert_problem(alice.post(f"{path}/register/", {"player": "bob"}), 403, "staff_only")
    assert_problem(
        alice.post(f"{path}/register/", {"bot": "random", "name": "Mine"}), 403, "staff_only"
    )
    assert_problem(alice.post(f"{path}/withdraw/", {"name": "Robbie"}), 403, "staff_only")

    assert staff.post(f"{path}/withdraw/", {"name": "Robbie"}).status_code == 200
    assert staff.post(f"{path}/withdraw/", {"player": "bob"}).status_code == 200
    entries = staff.get(f"{path}/").json()["entries"]
    assert [(e["name"], e["bot"], e["withdrawn"]) for e in entries] == [
        ("bob", None, True),
        ("Robbie", "random", True),
    ]


def test_start_seats_round_one_and_next_round_waits_for_the_tables(
    staff, alice, bob, carol, make_client
):
    dave = make_client("dave")
    tournament_id = event_with(staff, alice, bob, carol, dave, table_size=2)
    path = f"/api/v1/tournaments/{tournament_id}"
    assert_problem(staff.post(f"{path}/next-round/"), 409, "not_started")
    assert_problem(alice.post(f"{path}/start/"), 403, "staff_only")

    body = staff.post(f"{path}/start/").json()

    assert body["status"] == "running"
    (first,) = body["rounds"]
    assert first["number"] == 1
    assert first["status"] == "published"
    assert len(first["tables"]) == 2
    seated = sorted(seat["name"] for table in first["tables"] for seat in table["seats"])
    assert seated == ["alice", "bob", "carol", "dave"]
    for table in first["tables"]:
        assert [seat["seat"] for seat in table["seats"]] == [0, 1]
        match = alice.get(f"/api/v1/matches/{table['match']}/").json()
        assert match["status"] == "active"
        assert [s["player"] for s in match["seats"]] == [seat["name"] for seat in table["seats"]]
    assert first["repeats"] == first["repeat_lower_bound"] == 0
    feed = alice.get("/api/v1/players/me/events/").json()["results"]
    seated_event = next(e for e in feed if e["type"] == "round_seated")
    alice_table = next(t for t in first["tables"] if "alice" in [s["name"] for s in t["seats"]])
    assert seated_event["match"] == alice_table["match"]
    assert seated_event["data"]["tournament"] == tournament_id
    assert seated_event["data"]["round"] == 1
    assert_problem(staff.post(f"{path}/start/"), 409, "already_started")
    assert_problem(staff.post(f"{path}/next-round/"), 409, "round_in_progress")


def test_start_needs_enough_entries(staff, alice):
    tournament_id = event_with(staff, alice)

    assert_problem(
        staff.post(f"/api/v1/tournaments/{tournament_id}/start/"), 409, "not_enough_entries"
    )


def test_late_entry_plays_from_the_next_round(staff, alice, bob, carol):
    tournament_id = event_with(staff, alice, bob, table_size=2)
    path = f"/api/v1/tournaments/{tournament_id}"
    staff.post(f"{path}/start/")

    assert carol.post(f"{path}/register/").status_code == 200

    entry = Entry.objects.get(name="carol")
    assert entry.joined_round == 2
    assert not TableSeat.objects.filter(entry=entry).exists()


def test_finished_tournament_refuses_registration_and_rounds(staff, alice):
    tournament_id = event_with(staff)
    Tournament.objects.filter(pk=tournament_id).update(status=Tournament.Status.FINISHED)
    path = f"/api/v1/tournaments/{tournament_id}"

    assert_problem(alice.post(f"{path}/register/"), 409, "not_registering")
    assert_problem(alice.post(f"{path}/withdraw/"), 409, "not_registering")
    assert_problem(staff.post(f"{path}/next-round/"), 409, "tournament_finished")


def test_a_draft_round_is_not_shown_and_start_publishes_it(staff, alice, bob):
    from tournaments import services

    tournament_id = event_with(staff, alice, bob, table_size=2)
    organiser = Tournament.objects.get(pk=tournament_id).created_by
    drafted = services.round_draft(tournament_id=tournament_id, user=organiser)
    path = f"/api/v1/tournaments/{tournament_id}"
    assert staff.get(f"{path}/").json()["rounds"] == []

    body = staff.post(f"{path}/start/").json()

    assert body["rounds"][0]["seed"] == drafted.seed
    assert Round.objects.get(pk=drafted.pk).status == Round.Status.PUBLISHED


def test_standings_json_and_csv_before_any_result(staff, alice, bob):
    tournament_id = event_with(staff, alice, bob)
    path = f"/api/v1/tournaments/{tournament_id}/standings/"

    rows = alice.get(path).json()
    assert [(r["rank"], r["points"], r["played"]) for r in rows] == [(1, 0, 0), (2, 0, 0)]
    assert {r["player"] for r in rows} == {"alice", "bob"}
    assert set(rows[0]) >= {
        "rank",
        "player",
        "score",
        "points",
        "deals_won",
        "played",
        "tiebreaks",
        "rating",
    }

    response = alice.get(f"{path}?format=csv")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    assert response.content.startswith(b"\xef\xbb\xbf")  # UTF-8's byte-order mark, for Excel
    header = response.content.decode("utf-8-sig").splitlines()[0]
    assert header.startswith(
        "rank,player,kind,score,points,deals_won,played,byes,withdrawn,present"
    )

    described = alice.http.options(f"{path}?format=csv")
    assert described.status_code == 200
    assert described["Content-Type"].startswith("application/json")
    assert described.json()["name"]


def test_a_repeated_write_with_an_idempotency_key_is_applied_once(staff, alice):
    tournament_id = event_with(staff)
    path = f"/api/v1/tournaments/{tournament_id}/register/"

    first = alice.post(path, HTTP_IDEMPOTENCY_KEY="join-1")
    again = alice.post(path, HTTP_IDEMPOTENCY_KEY="join-1")

    assert first.status_code == again.status_code == 200
    assert again["Idempotent-Replayed"] == "true"
    assert again.json() == first.json()
    assert Entry.objects.filter(tournament_id=tournament_id).count() == 1
