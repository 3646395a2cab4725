"""The organiser's desk: admin actions call the services, a corrected score line recomputes the
standings, and the standings page costs the same number of queries for any field size."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.tournaments.conftest import end_match, table_seats
from tournaments import selectors, services
from tournaments.models import Round, ScoreLine, Tournament

pytestmark = pytest.mark.django_db

CHANGELIST = "/admin/tournaments/tournament/"


def act(admin_client, action: str, tournament: Tournament):
    return admin_client.post(
        CHANGELIST, {"action": action, "_selected_action": [tournament.pk]}, follow=True
    )


def test_actions_start_and_refuse_an_early_next_round(human_event, admin_client):
    tournament = human_event(4, table_size=2)

    act(admin_client, "start", tournament)

    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING
    refused = act(admin_client, "seat_next_round", tournament).content.decode()
    assert "Tables of the current round are still playing." in refused
    assert Round.objects.filter(tournament=tournament).count() == 1


def test_seat_as_a_draft_then_publish_from_the_admin(human_event, admin_client):
    tournament = human_event(4, table_size=2)

    act(admin_client, "seat_next_round", tournament)
    drafted = Round.objects.get(tournament=tournament)
    assert drafted.status == Round.Status.DRAFT
    assert admin_client.get(f"/admin/tournaments/round/{drafted.pk}/change/").status_code == 200
    act(admin_client, "publish_round", tournament)

    drafted.refresh_from_db()
    assert drafted.status == Round.Status.PUBLISHED
    assert all(t.match_id for t in drafted.tables.all())


def finished_event(human_event, players: int) -> Tournament:
    tournament = human_event(players, table_size=4, rounds=1)
    first = services.tournament_start(tournament_id=tournament.pk, user=tournament.created_by)
    for table in first.tables.all():
        seats = len(table_seats(table))
        deal = {
            "deal": 1,
            "winner": 0,
            "points": [20] + [0] * (seats - 1),
            "placings": list(range(seats)),
        }
        end_match(table.match_id, {"deals": [deal]})
    return tournament


def test_correcting_a_score_line_in_the_admin_recomputes_the_standings(
    human_event, admin_client, django_capture_on_commit_callbacks, tasks_in_process
):
    tournament = finished_event(human_event, 4)
    line = ScoreLine.objects.filter(points=0).select_related("entry").first()

    with django_capture_on_commit_callbacks(execute=True):
        response = admin_client.post(
            f"/admin/tournaments/scoreline/{line.pk}/change/", {"points": 99, "won": "on"}
        )

    assert response.status_code == 302
    line.refresh_from_db()
    assert (line.points, line.won, line.corrected) == (99, True, True)
    top = selectors.standings_table(tournament=tournament).rows[0]
    assert (top["player"], top["points"]) == (line.entry.name, 99)


def test_the_standings_page_costs_the_same_queries_for_any_field_size(human_event, admin_client):
    counts = []
    for players in (4, 20):
        tournament = finished_event(human_event, players)
        with CaptureQueriesContext(connection) as queries:
            page = admin_client.get(f"{CHANGELIST}{tournament.pk}/standings/")
        assert page.status_code == 200
        assert page.content.decode().count("<polyline") == players
        counts.append(len(queries))
    assert counts[0] == counts[1], counts
