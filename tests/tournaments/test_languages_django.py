"""A tournament's language (docs/operations.md, "Languages"): its public pages, projector screen and
printed sheets speak it whatever the visitor's browser asks; the visitor's own switcher choice
still wins on the public pages, never on the screen or the sheets."""

import csv
import io

import pytest
from django.test import Client
from openpyxl import load_workbook

from tests.api.conftest import assert_problem
from tests.tournaments.conftest import TOURNAMENT
from tests.tournaments.test_club_night_django import french_deal, offline_event, seated_names

pytestmark = pytest.mark.django_db

EIGHT = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"]


def test_a_tournament_is_in_the_services_language_unless_told(staff, settings):
    english = offline_event(staff, guests=EIGHT)
    assert staff.get(f"{english}/").json()["language"] == "en"
    french = offline_event(staff, guests=EIGHT, language="fr")
    assert staff.get(f"{french}/").json()["language"] == "fr"
    settings.LANGUAGE_CODE = "fr"
    assert staff.get(f"{offline_event(staff, guests=EIGHT)}/").json()["language"] == "fr"
    refused = staff.post("/api/v1/tournaments/", {"name": "x", "language": "de"})
    assert "language" in refused.json()["errors"]


def test_a_french_tournaments_pages_are_french_whatever_the_browser_asks(staff, admin_client):
    path = offline_event(staff, guests=EIGHT, language="fr", public=True)
    tournament = int(path.rsplit("/", 1)[1])
    names = seated_names(staff, path)
    staff.post(f"{path}/rounds/1/tables/1/result/", {"deals": [french_deal(names[0], names)] * 2})
    visitor = Client(headers={"accept_language": "en"})

    for page in (f"/tournaments/{tournament}/", f"/tournaments/{tournament}/screen/"):
        answer = visitor.get(page)
        assert answer["Content-Language"] == "fr"
        html = answer.content.decode()
        assert '<html lang="fr">' in html
        assert "Ronde 1 sur 1" in html or "ronde 1 sur 1" in html
        assert "Classement" in html
        assert "Standings" not in html
        assert "/i18n/fr/catalog.js" in html

    visitor.post("/i18n/setlang/", {"language": "en"})
    assert visitor.get(f"/tournaments/{tournament}/")["Content-Language"] == "en"
    assert visitor.get(f"/tournaments/{tournament}/screen/")["Content-Language"] == "fr"

    sheet = admin_client.get(f"/admin/tournaments/tournament/{tournament}/print/pairings/")
    assert sheet["Content-Language"] == "fr"
    assert '<html lang="fr"' in sheet.content.decode()


def test_a_french_tournament_names_its_bots_and_scores_in_french(staff):
    """Bots named in words in the tournament's language; the tallies read "en main"."""
    body = {**TOURNAMENT, "language": "fr"}
    path = f"/api/v1/tournaments/{staff.post('/api/v1/tournaments/', body).json()['id']}"
    for _ in range(2):
        assert staff.post(f"{path}/register/", {"bot": "heuristic"}).status_code == 200
    names = [entry["name"] for entry in staff.get(f"{path}/").json()["entries"]]
    assert names == ["Ada, bot heuristique", "Blaise, bot heuristique"]

    french = offline_event(staff, guests=EIGHT, language="fr", public=True)
    seated = seated_names(staff, french)
    deal = {"winner": seated[0], "points_left": dict.fromkeys(seated[1:], 10)}
    staff.post(f"{french}/rounds/1/tables/1/result/", {"deals": [deal, deal]})
    page = Client().get(f"/tournaments/{french.rsplit('/', 1)[1]}/").content.decode()
    assert f'{seated[0]}<span class="total">60 = 10 + 10 + 10 + 10 + 10 + 10</span>' in page
    assert "0 · 20 en main" in page


def exported_rows(answer, delimiter: str) -> list[dict[str, str]]:
    text = answer.content.decode("utf-8-sig")
    return list(csv.DictReader(io.StringIO(text), delimiter=delimiter))


def test_the_standings_csv_speaks_the_dialect_asked_else_the_callers_language(staff):
    path = offline_event(staff, guests=EIGHT)
    names = seated_names(staff, path)
    staff.post(f"{path}/rounds/1/tables/1/result/", {"deals": [french_deal(names[0], names)] * 2})
    standings = f"{path}/standings/?format=csv"

    english = exported_rows(staff.get(standings), ",")
    french = exported_rows(staff.get(standings, HTTP_ACCEPT_LANGUAGE="fr"), ";")
    assert exported_rows(staff.get(f"{standings}&dialect=excel-fr"), ";") == french
    assert exported_rows(staff.get(f"{standings}&dialect=excel", HTTP_ACCEPT_LANGUAGE="fr"), ",")
    winner = next(row for row in english if row["player"] == names[0])
    gagnant = next(row for row in french if row["player"] == names[0])
    assert (winner["score"], winner["present"], winner["withdrawn"]) == ("1", "yes", "no")
    assert (gagnant["present"], gagnant["withdrawn"]) == ("oui", "non")
    loser = next(row for row in english if row["player"] == names[1])
    perdant = next(row for row in french if row["player"] == names[1])
    assert "." in loser["score"]
    assert perdant["score"] == loser["score"].replace(".", ",")
    assert_problem(staff.get(f"{standings}&dialect=latin"), 400, "invalid")


def test_the_standings_spreadsheet_has_typed_cells_and_no_formula(staff):
    path = offline_event(staff, guests=[*EIGHT[:7], "=1+2"])
    names = seated_names(staff, path)
    staff.post(f"{path}/rounds/1/tables/1/result/", {"deals": [french_deal(names[0], names)] * 2})

    answer = staff.get(f"{path}/standings/?format=xlsx")

    assert answer["Content-Type"].startswith("application/vnd.openxmlformats")
    assert answer["Content-Disposition"].endswith('-standings.xlsx"')
    sheet = load_workbook(io.BytesIO(answer.content))["standings"]
    header, *rows = [list(row) for row in sheet.iter_rows(values_only=True)]
    table = [dict(zip(header, row, strict=True)) for row in rows]
    assert {row["player"] for row in table} == {*EIGHT[:7], "=1+2"}
    assert all(isinstance(row["rank"], int) for row in table)
    assert all(isinstance(row["score"], int | float) for row in table)
    assert all(row["present"] is True and row["withdrawn"] is False for row in table)
    formula_like = next(
        cell for row in sheet.iter_rows(min_row=2) for cell in row if cell.value == "=1+2"
    )
    assert formula_like.data_type == "s"


def test_a_results_problems_are_said_in_the_callers_language(staff):
    """The validation messages of ``errors`` (the pure core's, marked for the catalogue) follow
    ``Accept-Language`` as ``detail`` does; the places they are at never change."""
    path = offline_event(staff, guests=EIGHT)
    names = seated_names(staff, path)
    wrong = {"deals": [{"winner": [names[0], names[1]], "points_left": {}}]}
    french = staff.post(
        f"{path}/rounds/1/tables/1/result/", wrong, headers={"accept_language": "fr"}
    )
    problem = french.json()
    assert problem["code"] == "invalid_result"
    assert problem["detail"] == "Le résultat ne peut pas être juste : voyez errors."
    assert problem["errors"]["deals[0].winner"] == [
        f"Deux gagnants ({names[0]}, {names[1]}) : nommez-en un."
    ]
    english = staff.post(
        f"{path}/rounds/1/tables/1/result/", wrong, headers={"accept_language": "en"}
    )
    assert english.json()["errors"]["deals[0].winner"] == [
        f"Two winners ({names[0]}, {names[1]}): name one."
    ]


def test_the_desk_speaks_the_desks_language(staff, admin_client):
    """The desk's page, its buttons' messages and its result form are in the language the
    director chose, and a refusal there names the deal in it."""
    path = offline_event(staff, guests=EIGHT)
    tournament = int(path.rsplit("/", 1)[1])
    names = seated_names(staff, path)
    admin_client.post("/i18n/setlang/", {"language": "fr"})
    desk = f"/admin/tournaments/tournament/{tournament}/"
    page = admin_client.get(f"{desk}change/").content.decode()
    assert "Bureau : en cours, ronde 1 sur 1" in page
    assert "Imprimer les feuilles de résultat" in page
    assert "saisir le résultat" in page
    assert "Print result slips" not in page

    form = admin_client.get(f"{desk}rounds/1/tables/1/result/").content.decode()
    assert "Enregistrer le résultat" in form
    assert f"{names[0]} : sorti · points en main" in form
    fields = {"d0-out-0": "on", "d0-out-1": "on", "_preview": "1"}
    refused = admin_client.post(f"{desk}rounds/1/tables/1/result/", fields).content.decode()
    assert f"Manche 1 : Deux gagnants ({names[0]}, {names[1]}) : nommez-en un." in refused

    checked = admin_client.post(f"{desk}checkin/", {"name": names[0], "present": "false"})
    shown = [str(m) for m in checked.wsgi_request._messages]
    assert shown == [f"{names[0]} est absent : pas placé tant qu'il n'est pas marqué présent."]


def test_the_clocks_and_the_tables_refusals_are_said_in_the_callers_language(staff, admin_client):
    """The pure core's refusals (the clock's minutes at the desk, a table size in ``errors``)
    are marked sentences too."""
    path = offline_event(staff, guests=EIGHT)
    tournament = int(path.rsplit("/", 1)[1])
    admin_client.post("/i18n/setlang/", {"language": "fr"})
    clock = admin_client.post(
        f"/admin/tournaments/tournament/{tournament}/clock/",
        {"clock": "start", "round": "1", "minutes": "601"},
    )
    shown = [str(m) for m in clock.wsgi_request._messages]
    assert shown[0].startswith("Une ronde dure de 1 à 600 minutes, pas 601.")
    body = {"name": "x", "ruleset": "abbott", "scoring": "abbott", "table_size": 5, "rounds": 1}
    sized = staff.post("/api/v1/tournaments/", body, headers={"accept_language": "fr"}).json()
    assert sized["errors"]["table_size"] == [
        "abbott : les tables de cette règle ont 4 joueurs, pas 5."
    ]


def test_a_house_rules_refusal_is_said_in_the_callers_language(staff):
    """An option's refusal from the rules engine (compiled) is a marked sentence, the option's
    name and the reason within it said in the caller's language."""
    body = {"ruleset": "switch", "seats": 2, "options": {"max_draw": 0}}
    french = staff.post("/api/v1/matches/", body, headers={"accept_language": "fr"}).json()
    assert french["code"] == "invalid_options"
    assert french["detail"] == "max_draw : doit aller de 1 à 60, pas 0"
    english = staff.post("/api/v1/matches/", body, headers={"accept_language": "en"}).json()
    assert english["detail"] == "max_draw: must be from 1 to 60, not 0"
