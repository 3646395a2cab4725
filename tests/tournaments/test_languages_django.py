"""A tournament's language (docs/operations.md, "Languages"): its public pages, projector screen and
printed sheets speak it whatever the visitor's browser asks; the visitor's own switcher choice
still wins on the public pages, never on the screen or the sheets."""

import pytest
from django.test import Client

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
