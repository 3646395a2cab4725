"""Choosing the language (docs/operations.md, "Languages"): the switcher's cookie, else
``Accept-Language``, else ``LANGUAGE_CODE``; every answer says which in ``Content-Language`` and
varies on ``Accept-Language``; pages carry ``<html lang>`` and the switcher; the browser's
catalogue is served by the service in each language."""

from __future__ import annotations

import pytest
from django.test import Client
from django.utils import translation

from switchgame import catalog
from switchgame.protocol import IllegalMove
from switchsite.problems import said
from tests.api.conftest import alice, assert_problem, make_client

__all__ = ["alice", "make_client"]  # fixtures

pytestmark = pytest.mark.django_db

PAGES = ["/tournaments/", "/play/", "/play/matches/1/", "/admin/login/"]


def spoken(client: Client, path: str, **headers: str) -> str:
    answer = client.get(path, headers=headers)
    assert answer.status_code == 200, path
    assert "Accept-Language" in answer["Vary"]
    page = answer.content.decode()
    language = answer["Content-Language"]
    assert f'<html lang="{language}"' in page, path
    return language


@pytest.mark.parametrize("path", PAGES)
def test_a_page_speaks_the_browsers_language_else_the_services(client: Client, path: str) -> None:
    assert spoken(client, path) == "en"
    assert spoken(client, path, accept_language="fr-FR,fr;q=0.9,en;q=0.5") == "fr"
    assert spoken(client, path, accept_language="de, en;q=0.5") == "en"


@pytest.mark.parametrize("path", PAGES)
def test_every_page_has_the_switcher(client: Client, path: str) -> None:
    page = client.get(path).content.decode()
    assert 'action="/i18n/setlang/"' in page
    assert '<button type="submit" name="language" value="fr" lang="fr">Français</button>' in page


def test_the_switchers_choice_is_kept_and_outranks_the_browser(client: Client) -> None:
    chosen = client.post("/i18n/setlang/", {"language": "fr", "next": "/tournaments/"})
    assert chosen.status_code == 302
    assert chosen["Location"] == "/tournaments/"
    assert chosen.cookies["language"].value == "fr"
    page = client.get("/tournaments/", headers={"accept_language": "en"})
    assert page["Content-Language"] == "fr"
    assert "<h1>Tournois</h1>" in page.content.decode()


def test_language_code_is_the_default(client: Client, settings) -> None:
    settings.LANGUAGE_CODE = "fr"
    assert spoken(client, "/tournaments/") == "fr"
    assert spoken(client, "/tournaments/", accept_language="en") == "en"


def test_the_api_says_its_language_too(client: Client) -> None:
    answer = client.get("/api/v1/rulesets/", headers={"accept_language": "fr"})
    assert answer["Content-Language"] == "fr"
    assert "Accept-Language" in answer["Vary"]


def test_the_browsers_catalogue_is_served_in_each_language(client: Client) -> None:
    french = client.get("/i18n/fr/catalog.js", headers={"accept_language": "en"})
    assert french.status_code == 200
    assert french["Content-Language"] == "fr"
    assert "(en pause)" in french.content.decode()
    assert '"DECIMAL_SEPARATOR": ","' in french.content.decode()
    assert "(en pause)" not in client.get("/i18n/en/catalog.js").content.decode()
    assert client.get("/i18n/de/catalog.js").status_code == 404


def test_a_problem_speaks_the_callers_language_and_keeps_its_code(alice) -> None:
    english = assert_problem(alice.get("/api/v1/matches/999999/"), 404, "not_found")
    french = assert_problem(
        alice.get("/api/v1/matches/999999/", HTTP_ACCEPT_LANGUAGE="fr"), 404, "not_found"
    )
    assert (english["title"], english["detail"]) == ("Not Found", "There is no match 999999.")
    assert (french["title"], french["detail"]) == ("Introuvable", "Il n'y a pas de partie 999999.")
    invalid = alice.post("/api/v1/matches/", {"seats": "two"}, HTTP_ACCEPT_LANGUAGE="fr")
    assert assert_problem(invalid, 400, "invalid")["detail"] == "La requête a des champs invalides."


def test_the_rulesets_titles_and_descriptions_speak_the_callers_language(alice) -> None:
    def titles(**headers: str) -> dict[str, str]:
        page = alice.get("/api/v1/rulesets/?limit=100", **headers).json()
        return {ruleset["name"]: ruleset["title"] for ruleset in page["results"]}

    assert titles()["black-jack"] == "Black Jack"
    assert titles(HTTP_ACCEPT_LANGUAGE="fr")["black-jack"] == "Valet noir"
    french = alice.get("/api/v1/rulesets/", HTTP_ACCEPT_LANGUAGE="fr").json()["results"]
    assert "couleur qu'il désire" in {r["name"]: r for r in french}["switch"]["description"]


def test_a_refusal_of_the_rules_is_said_in_the_players_language() -> None:
    """The rules library marks its sentence and keeps the card codes apart (``IllegalMove``); the
    service says it in the request's language."""
    game = catalog.new_game("switch", 2)
    game.deal(bytes.fromhex("00" * 31 + "2a"))
    game.apply({"action": "play", "card": "KH"})
    with pytest.raises(IllegalMove) as refused:
        game.apply({"action": "play", "card": "9C"})
    assert str(refused.value) == "9C does not match KH or the active suit H"
    with translation.override("fr"):
        assert said(refused.value) == (
            "le 9C n'est ni de la hauteur du KH ni de la couleur demandée H"
        )
