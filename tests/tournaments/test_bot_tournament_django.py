"""A whole bot tournament through Celery — 8 bot entrants, 2 rounds, tables of 4, ruleset `switch`,
one deal a round — to final standings, the CSV export and the organiser's admin pages.

Without a broker the bots and the scoring task run in-process; with ``CELERY_BROKER_URL`` set (CI)
a real worker plays every bot turn and scores every table.
"""

import csv
import io
import time

import pytest
from django.conf import settings
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.models import Match, RatedResult
from tournaments.models import Round, ScoreLine, Tournament

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

BOTS = 8
# Random bots that may draw when they could play make a deal of `switch` last thousands of moves;
# without voluntary draws a deal takes a few hundred at most, which keeps this test quick.
HOUSE_RULES = {"may_draw_voluntarily": False}


@pytest.fixture
def bot_worker(request):
    """A real worker when a broker is configured; otherwise tasks already run in-process."""
    if settings.CELERY_BROKER_URL:
        request.getfixturevalue("celery_worker")


def wait_for_status(tournament_id: int, status: str, timeout: float = 40.0) -> None:
    deadline = time.monotonic() + timeout
    while Tournament.objects.get(pk=tournament_id).status != status:
        assert time.monotonic() < deadline, f"timed out waiting for {status}"
        time.sleep(0.1)


def wait_for_ratings(timeout: float = 40.0) -> None:
    """Until the worker has rated every table (the ratings' own task, after the scoring)."""
    deadline = time.monotonic() + timeout
    while RatedResult.objects.filter(applied=False).exists():
        assert time.monotonic() < deadline, "timed out waiting for the ratings"
        time.sleep(0.1)


def test_a_whole_bot_tournament_to_final_standings(bot_worker, staff, alice, admin_client):
    body = {
        "name": "Bot night",
        "ruleset": "switch",
        "scoring": "french",
        "rounds": 2,
        "table_size": 4,
    }
    body |= {"deals_per_round": 1, "options": HOUSE_RULES}
    tournament_id = staff.post("/api/v1/tournaments/", body).json()["id"]
    path = f"/api/v1/tournaments/{tournament_id}"
    for number in range(BOTS):
        response = staff.post(f"{path}/register/", {"bot": "random", "name": f"Bot {number}"})
        assert response.status_code == 200

    assert staff.post(f"{path}/start/").status_code == 200
    wait_for_status(tournament_id, Tournament.Status.ROUND_COMPLETE)
    assert staff.post(f"{path}/next-round/").status_code == 200
    wait_for_status(tournament_id, Tournament.Status.FINISHED)
    wait_for_ratings()

    detail = alice.get(f"{path}/").json()
    assert detail["status"] == "finished"
    assert [r["status"] for r in detail["rounds"]] == ["complete", "complete"]
    for played in detail["rounds"]:
        assert [len(t["seats"]) for t in played["tables"]] == [4, 4]
        seated = sorted(s["name"] for t in played["tables"] for s in t["seats"])
        assert seated == [f"Bot {n}" for n in range(BOTS)]
        for table in played["tables"]:
            assert Match.objects.get(pk=table["match"]).status == Match.Status.FINISHED
    assert ScoreLine.objects.filter(table__round__tournament_id=tournament_id).count() == 2 * BOTS

    rows = alice.get(f"{path}/standings/").json()
    assert [row["rank"] for row in rows] == list(range(1, BOTS + 1))
    assert all(row["played"] == 2 for row in rows)
    assert sum(row["deals_won"] for row in rows) == 4  # one deal at each of four tables
    assert [row["score"] for row in rows] == sorted((row["score"] for row in rows), reverse=True)
    # Each table's winner took every point there, so the winners' points add up to the total.
    assert sum(row["points"] for row in rows) == sum(
        ScoreLine.objects.filter(table__round__tournament_id=tournament_id).values_list(
            "points", flat=True
        )
    )
    assert any(row["rating"] != rows[0]["rating"] for row in rows)  # ratings moved

    exported = alice.get(f"{path}/standings/?format=csv")
    assert exported["Content-Type"].startswith("text/csv")
    table = list(csv.DictReader(io.StringIO(exported.content.decode("utf-8-sig"))))
    assert [r["player"] for r in table] == [row["player"] for row in rows]
    assert [float(r["points"]) for r in table] == [row["points"] for row in rows]
    assert [float(r["round_1"]) + float(r["round_2"]) for r in table] == [
        row["points"] for row in rows
    ]

    with CaptureQueriesContext(connection) as queries:
        page = admin_client.get(f"/admin/tournaments/tournament/{tournament_id}/standings/")
    assert page.status_code == 200
    assert len(queries) <= 10, [q["sql"] for q in queries]
    html = page.content.decode()
    assert html.count("<polyline") == BOTS
    assert "round 2" in html
    assert rows[0]["player"] in html

    listed = admin_client.get("/admin/tournaments/tournament/?status__exact=finished&round=2")
    assert listed.context["cl"].result_count == 1
    assert (
        admin_client.get("/admin/tournaments/tournament/?round=1").context["cl"].result_count == 0
    )
    export = admin_client.post(
        "/admin/tournaments/tournament/",
        {"action": "export_csv", "_selected_action": [tournament_id]},
    )
    assert export.content.decode() == exported.content.decode()
    rounds = Round.objects.filter(tournament_id=tournament_id)
    assert admin_client.get(f"/admin/tournaments/round/{rounds[0].pk}/change/").status_code == 200
    assert (
        admin_client.get(f"/admin/tournaments/tournament/{tournament_id}/change/").status_code
        == 200
    )
