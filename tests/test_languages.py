"""Choosing the language (docs/operations.md, "Languages"): the switcher's cookie, else
``Accept-Language``, else ``LANGUAGE_CODE``; every answer says which in ``Content-Language`` and
varies on ``Accept-Language``; pages carry ``<html lang>`` and the switcher; the browser's
catalogue is served by the service in each language."""

from __future__ import annotations

import pytest
from django.test import Client

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
