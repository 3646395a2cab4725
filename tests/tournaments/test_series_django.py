"""Series: monthly nights ranked together, each person's results added up (accounts by player,
guests by display name whatever its case), by the API and on a public page."""

import pytest
from django.test import Client

from switchgame.tournament.series import NightResult, series_standings
from tests.api.conftest import assert_problem
from tests.api.test_moves import streamed_text
from tests.tournaments.test_club_night_django import french_deal, offline_event, seated_names
from tournaments import live
from tournaments.models import Series

pytestmark = pytest.mark.django_db


def test_the_pure_sum_ranks_by_score_then_points_then_places():
    rows = series_standings(
        [
            NightResult(1, ("guest", "ann"), "ann", rank=1, score=1.0, points=30),
            NightResult(2, ("guest", "ann"), "Ann", rank=3, score=0.0, points=0),
            NightResult(1, ("guest", "bea"), "Bea", rank=2, score=0.5, points=10),
            NightResult(2, ("guest", "bea"), "Bea", rank=1, score=0.5, points=20),
            NightResult(2, ("player", 7), "cal", rank=2, score=0.5, points=5),
            NightResult(1, ("player", 8), "dee", rank=2, score=0.5, points=5),
        ]
    )

    assert [(r.name, r.rank, r.score, r.points, r.nights) for r in rows] == [
        ("Bea", 1, 1.0, 30, 2),  # equal on score and points: places 1 and 2 beat 1 and 3
        ("Ann", 2, 1.0, 30, 2),  # the latest night's spelling
        ("cal", 3, 0.5, 5, 1),  # equal on all three: one rank
        ("dee", 3, 0.5, 5, 1),
    ]


def night(staff, guests, winner_first=True) -> int:
    """A finished one-round offline night of four at one table: the first seated wins (tally 10)."""
    path = offline_event(staff, guests=guests)
    names = seated_names(staff, path)
    winner = names[0]
    staff.post(f"{path}/rounds/1/tables/1/result/", {"deals": [french_deal(winner, names)] * 2})
    return int(path.rsplit("/", 1)[1])


def test_a_series_adds_up_the_nights_per_person_whatever_the_case_of_a_guests_name(staff, alice):
    first = night(staff, ["Ann", "Bea", "Cal", "Dee"])
    second = night(staff, ["ann", "BEA", "Cal", "Eve"])
    made = staff.post(
        "/api/v1/series/", {"name": "Autumn", "tournaments": [first, second], "public": True}
    )
    assert made.status_code == 201
    body = made.json()
    assert [t["id"] for t in body["tournaments"]] == [first, second]
    assert body["public_url"] == f"http://testserver/tournaments/series/{body['id']}/"

    rows = staff.get(f"/api/v1/series/{body['id']}/standings/").json()
    singles = {row["tournaments"] for row in rows if row["name"] in ("Dee", "Eve")}

    by_name = {row["name"].casefold(): row for row in rows}
    assert sorted(by_name) == ["ann", "bea", "cal", "dee", "eve"]
    assert {by_name[n]["tournaments"] for n in ("ann", "bea", "cal")} == {2}
    assert singles == {1}
    assert by_name["ann"]["name"] == "ann"  # the latest night's spelling
    assert set(by_name["cal"]["ranks"]) == {str(first), str(second)}
    assert rows == sorted(rows, key=lambda row: row["rank"])
    assert sum(row["points"] for row in rows) == pytest.approx(2 * 2 * 30)

    page = Client().get(f"/tournaments/series/{body['id']}/")
    assert page.status_code == 200
    assert "Autumn" in page.content.decode()
    assert f'href="/tournaments/{first}/"' not in page.content.decode()  # private nights
    assert alice.get(f"/api/v1/series/{body['id']}/standings/").status_code == 200


def test_series_refusals(staff, alice):
    first = night(staff, ["Ann", "Bea", "Cal", "Dee"])

    assert_problem(staff.post("/api/v1/series/", {"name": "X", "tournaments": []}), 400, "invalid")
    missing = staff.post("/api/v1/series/", {"name": "X", "tournaments": [first, 999999]})
    assert_problem(missing, 400, "invalid")
    assert "999999" in missing.json()["errors"]["tournaments"][0]
    assert_problem(
        alice.post("/api/v1/series/", {"name": "X", "tournaments": [first]}), 403, "staff_only"
    )
    assert_problem(staff.get("/api/v1/series/999999/standings/"), 404, "not_found")
    private = staff.post("/api/v1/series/", {"name": "Mine", "tournaments": [first]}).json()
    assert Client().get(f"/tournaments/series/{private['id']}/").status_code == 404


def test_the_admin_makes_a_series_and_links_its_standings_page(staff, admin_client):
    first = night(staff, ["Ann", "Bea", "Cal", "Dee"])

    made = admin_client.post(
        "/admin/tournaments/series/add/", {"name": "Winter", "tournaments": [first]}
    )

    assert made.status_code == 302
    series_id = admin_client.get("/admin/tournaments/series/").context["cl"].result_list[0].pk
    change = admin_client.get(f"/admin/tournaments/series/{series_id}/change/").content.decode()
    assert f"/tournaments/series/{series_id}/" in change
    assert admin_client.get(f"/tournaments/series/{series_id}/").status_code == 200


def test_the_series_page_updates_itself_when_any_of_its_tournaments_changes(staff, settings):
    settings.SSE_MAX_SECONDS = 0
    first = night(staff, ["Ann", "Bea", "Cal", "Dee"])
    path = offline_event(staff, guests=["Ann", "Bea", "Cal", "Dee", "Eve", "Fay", "Gus", "Hal"])
    second = int(path.rsplit("/", 1)[1])
    made = staff.post(
        "/api/v1/series/", {"name": "Autumn", "tournaments": [first, second], "public": True}
    ).json()
    page = Client().get(f"/tournaments/series/{made['id']}/").content.decode()
    drawn = live.series_revision(made["id"])
    assert drawn is not None
    assert f'data-live="/tournaments/series/{made["id"]}/live/"' in page
    assert f'data-revision="{drawn}"' in page
    assert live.series_events(made["id"], drawn) == ([], False)

    names = seated_names(staff, path)
    staff.post(f"{path}/rounds/1/tables/1/result/", {"deals": [french_deal(names[0], names)] * 2})

    changed = {"seq": drawn + 1, "type": "changed", "series": made["id"]}
    assert live.series_events(made["id"], drawn) == ([changed], False)
    stream = Client().get(f"/tournaments/series/{made['id']}/live/", HTTP_LAST_EVENT_ID=str(drawn))
    assert stream["Content-Type"] == "text/event-stream"
    assert f"id: {drawn + 1}\nevent: changed\n" in streamed_text(stream)
    Series.objects.get(pk=made["id"]).tournaments.remove(first)  # lower, and still a change
    assert live.series_events(made["id"], drawn + 1)[0][0]["seq"] < drawn
    assert live.series_events(made["id"] + 1000, 0) == ([], True)


def test_the_stream_of_a_private_series_is_for_staff_only(staff, admin_client):
    first = night(staff, ["Ann", "Bea", "Cal", "Dee"])
    private = staff.post("/api/v1/series/", {"name": "Mine", "tournaments": [first]}).json()

    assert Client().get(f"/tournaments/series/{private['id']}/live/").status_code == 404
    assert admin_client.get(f"/tournaments/series/{private['id']}/").status_code == 200
