"""The organiser's desk: admin actions call the services, a corrected score line recomputes the
standings, and the standings page costs the same number of queries for any field size."""

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.tournaments.conftest import end_match, table_seats, won_by_seat_0
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
        end_match(table.match_id, won_by_seat_0(len(table_seats(table)), 20))
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


# ------------------------------------------------------------------ creating and registering


ADD = "/admin/tournaments/tournament/add/"
NEW_EVENT = {
    "name": "Thursday ladder",
    "ruleset": "switch",
    "scoring": "french",
    "rounds": "3",
    "table_size": "4",
    "deals_per_round": "2",
    "target": "",
    "seating": "balanced",
    "bye_policy": "zero",
    "options": '{"max_draw": 8}',
}


def test_an_organiser_creates_a_tournament_in_the_admin(admin_client):
    assert admin_client.get(ADD).status_code == 200

    response = admin_client.post(ADD, NEW_EVENT)

    created = Tournament.objects.get(name="Thursday ladder")
    assert response.status_code == 302
    assert response["Location"] == f"/admin/tournaments/tournament/{created.pk}/change/"
    assert (created.ruleset, created.rounds, created.deals_per_round) == ("switch", 3, 2)
    assert created.options == {"max_draw": 8}
    assert created.created_by.username == "root"
    assert created.status == Tournament.Status.REGISTERING


@pytest.mark.parametrize(
    ("change", "shown"),
    [
        ({"ruleset": "abbott"}, "abbott tournaments are scored abbott, not"),
        ({"options": '{"max_draws": 8}'}, "max_draws"),
        ({"target": "100"}, "deals_per_round or target, not both"),
        ({"options": "[1, 2]"}, "House rules are an object"),
        ({"rounds": "0"}, "A tournament has at least one round."),
        ({"table_size": "1"}, "Tables seat two or more."),
    ],
)
def test_a_refused_tournament_is_explained_on_the_form_and_not_created(admin_client, change, shown):
    response = admin_client.post(ADD, {**NEW_EVENT, **change})

    assert response.status_code == 200
    assert shown in response.content.decode()
    assert not Tournament.objects.filter(name="Thursday ladder").exists()


def test_an_organiser_registers_players_and_bots_in_the_admin(human_event, admin_client):
    tournament = human_event(0)
    get_user_model().objects.create_user("maud")
    register = f"/admin/tournaments/tournament/{tournament.pk}/register/"
    change_page = admin_client.get(f"/admin/tournaments/tournament/{tournament.pk}/change/")
    assert register in change_page.content.decode()

    admin_client.post(register, {"player": "maud"})
    admin_client.post(register, {"bot": "heuristic", "name": "Robo"})

    entries = {e.name: e for e in tournament.entries.all()}
    assert set(entries) == {"maud", "Robo"}
    assert entries["maud"].player.username == "maud"
    assert entries["Robo"].bot_strategy == "heuristic"


@pytest.mark.parametrize(
    ("posted", "shown"),
    [
        ({"player": "nobody"}, "There is no player &#x27;nobody&#x27;."),
        ({}, "Name a player or choose a bot"),
        ({"player": "maud", "bot": "random"}, "Name a player or choose a bot"),
        ({"bot": "search"}, "Select a valid choice"),  # an Abbott strategy, not a shedding one
    ],
)
def test_a_refused_registration_is_explained_and_enters_nobody(
    human_event, admin_client, posted, shown
):
    tournament = human_event(0)
    get_user_model().objects.create_user("maud")

    response = admin_client.post(f"/admin/tournaments/tournament/{tournament.pk}/register/", posted)

    assert response.status_code == 200
    assert shown in response.content.decode()
    assert not tournament.entries.exists()


def test_after_creation_only_the_name_can_be_changed_in_the_admin(human_event, admin_client):
    tournament = human_event(0)
    change = f"/admin/tournaments/tournament/{tournament.pk}/change/"

    management = {}
    for inline in admin_client.get(change).context["inline_admin_formsets"]:
        form = inline.formset.management_form
        management.update({form.add_prefix(k): v for k, v in form.initial.items()})

    response = admin_client.post(
        change, {"name": "Tuesday cup", "rounds": "9", "ruleset": "french", **management}
    )

    assert response.status_code == 302

    tournament.refresh_from_db()
    assert (tournament.name, tournament.rounds, tournament.ruleset) == ("Tuesday cup", 2, "switch")
