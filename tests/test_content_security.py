"""Every kind of page the service draws answers with the site's Content-Security-Policy, and runs
no inline script or style but those marked with the nonce the header names (docs/operations.md,
"Content-Security-Policy"). The browser's side — that the pages work under it and Chromium refuses
nothing — is tests/browser/ (the ``policy_violations`` fixture)."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.test import Client

from games import services as games
from matchmaking import services as matchmaking
from tournaments import selectors
from tournaments import services as tournaments
from tournaments.powers import directors

pytestmark = pytest.mark.django_db

GUESTS = ["Ann", "Bea", "Cal", "Dee", "Eve", "Fay"]
# An inline element: <script> or <style> without a src, and its nonce if it has one.
INLINE = re.compile(r"<(script|style)\b(?![^>]*\bsrc=)([^>]*)>", re.IGNORECASE)
NONCE_ATTRIBUTE = re.compile(r'\bnonce="([^"]*)"')
STRICT = {
    "default-src": "'self'",
    "img-src": "'self' data:",
    "object-src": "'none'",
    "base-uri": "'none'",
    "form-action": "'self'",
    "frame-ancestors": "'none'",
}


def directives(header: str) -> dict[str, str]:
    return dict(part.strip().split(" ", 1) for part in header.split(";"))


@pytest.fixture
def site() -> dict[str, str]:
    """Every kind of page, by name: the public pages of a seated evening in a series and of a
    ladder, the web client's, a guest's seat link, the API's answers and docs, and the admin and
    the desk."""
    director = get_user_model().objects.create_user("director", is_staff=True)
    director.groups.add(directors())
    director.user_permissions.add(Permission.objects.get(codename="add_ladder"))
    evening = tournaments.tournament_create(
        creator=director,
        name="Thursday club",
        ruleset="french",
        scoring="french",
        planned_rounds=2,
        table_size=3,
        deals_per_round=1,
        play="offline",
        public=True,
    )
    tournaments.entries_register(
        tournament_id=evening.pk,
        user=director,
        entrants=[tournaments.Entrant(guest=name) for name in GUESTS],
    )
    tournaments.tournament_start(tournament_id=evening.pk, user=director)
    series = tournaments.series_create(
        user=director, name="Autumn", tournament_ids=[evening.pk], public=True
    )
    online = tournaments.tournament_create(
        creator=director,
        name="Online",
        ruleset="switch",
        scoring="french",
        planned_rounds=1,
        table_size=2,
        deals_per_round=1,
        play="online",
        public=True,
    )
    tournaments.entries_register(
        tournament_id=online.pk,
        user=director,
        entrants=[tournaments.Entrant(guest="Gisèle"), tournaments.Entrant(bot="random")],
    )
    tournaments.tournament_start(tournament_id=online.pk, user=director)
    detail = selectors.tournament_detail(tournament=online, seat_links=True)
    (seat_link,) = [entry["play_url"] for entry in detail["entries"] if entry["play_url"]]
    player = get_user_model().objects.create_user("amelie")
    match = games.match_create(
        creator=player, ruleset="switch", seats=2, bots_wanted=[{"seat": 1, "strategy": "random"}]
    )
    ladder = matchmaking.ladder_create(
        user=director, ruleset="switch", seats=2, interval_seconds=600, turn_seconds=30
    )
    desk = f"/admin/tournaments/tournament/{evening.pk}"
    return {
        "tournaments": "/tournaments/",
        "public page": f"/tournaments/{evening.pk}/",
        "projector": f"/tournaments/{evening.pk}/screen/",
        "series": f"/tournaments/series/{series.pk}/",
        "ladders": "/ladders/",
        "ladder": f"/ladders/{ladder.pk}/",
        "lobby": "/play/",
        "table": f"/play/matches/{match.pk}/",
        "replay": f"/play/matches/{match.pk}/replay/",
        "player": "/play/players/amelie/",
        "seat link": urlsplit(seat_link).path,
        "health": "/healthz",
        "API refusal": "/api/v1/rulesets/",
        "unknown path": "/nowhere/",
        "API docs": "/api/v1/docs/",
        "API docs' script": "/api/v1/docs/?script",
        "Redoc": "/api/v1/redoc/",
        "admin sign-in": "/admin/login/",
        "admin": "/admin/",
        "desk list": "/admin/tournaments/tournament/",
        "desk": f"{desk}/change/",
        "desk result": f"{desk}/rounds/1/tables/1/result/",
        "desk standings": f"{desk}/standings/",
        "print pairings": f"{desk}/print/pairings/",
        "print slips": f"{desk}/print/slips/",
        "print standings": f"{desk}/print/standings/",
        "print seat cards": f"/admin/tournaments/tournament/{online.pk}/print/seat_links/",
        "match in the admin": f"/admin/games/match/{match.pk}/change/",
    }


def test_every_kind_of_page_has_the_policy_and_no_inline_code_without_its_nonce(site):
    client = Client()
    client.force_login(get_user_model().objects.create_superuser("root", "root@x.invalid", "pw"))
    anonymous = Client()
    for name, path in site.items():
        desk = path.startswith("/admin/") and path != "/admin/login/"
        response = (client if desk else anonymous).get(path)
        assert response.status_code in (200, 401, 404), (name, path, response.status_code)
        policy = directives(response["Content-Security-Policy"])
        nonce = re.fullmatch(r"'self' 'nonce-([\w+/=]+)'", policy["script-src"])
        if name == "Redoc":  # its styles may be inline (switchsite/urls.py), never its scripts
            assert policy["style-src"] == "'self' 'unsafe-inline'"
            assert policy["worker-src"] == "'self' blob:"
        elif nonce:
            assert policy["style-src"] == f"'self' 'nonce-{nonce[1]}'", name
        else:
            assert policy["script-src"] == policy["style-src"] == "'self'", name
        assert {key: policy[key] for key in STRICT} == STRICT, name
        body = response.content.decode()
        for tag, attributes in INLINE.findall(body):
            if name == "Redoc" and tag == "style":
                continue
            marked = NONCE_ATTRIBUTE.search(attributes)
            assert nonce, (name, tag, attributes)
            assert marked, (name, tag, attributes)
            assert marked[1] == nonce[1], (name, tag, attributes)
        assert not re.search(r"\sstyle=|javascript:|\son[a-z]+=", body), name


def test_each_answer_has_a_nonce_of_its_own(site):
    first, second = (Client().get(site["admin sign-in"]) for _ in range(2))

    nonces = [
        NONCE_ATTRIBUTE.search(response.content.decode())[1]  # type: ignore[index]
        for response in (first, second)
    ]
    assert nonces[0] != nonces[1]
    assert f"'nonce-{nonces[1]}'" in second["Content-Security-Policy"]
