"""The pages of /play/: one HTML shell per page and one module, nothing from another origin."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from tests.serving.conftest import PROJECT_ROOT

STATIC = PROJECT_ROOT / "play" / "static" / "play"


@pytest.mark.parametrize(
    ("path", "module", "root"),
    [
        ("/play/", "lobby.js", 'id="lobby"'),
        ("/play/matches/12/", "match.js", 'id="table" data-match="12"'),
        ("/play/seat/9944b09199c62bcf9418ad846dd0e4bbdfc6ee4b", "seat.js", 'id="seat"'),
        ("/play/players/alice/", "player.js", 'id="player" data-player="alice"'),
    ],
)
def test_each_page_is_a_shell_loading_its_module_under_a_strict_policy(path, module, root):
    response = Client().get(path)

    assert response.status_code == 200
    html = response.content.decode()
    assert f'<script type="module" src="/static/play/{module}">' in html
    assert root in html
    policy = response["Content-Security-Policy"]
    assert "default-src 'self'" in policy
    assert "unsafe" not in policy
    # Never an address to another site; from a seat link not even its own path (docs in views).
    assert response["Referrer-Policy"] == ("strict-origin" if "seat" in path else "same-origin")
    # Nothing the page loads comes from elsewhere.
    assert not re.search(r"(src|href)=\"(https?:)?//", html)


def test_a_seat_link_is_not_cached_and_its_secret_is_not_in_the_page():
    secret = "9944b09199c62bcf9418ad846dd0e4bbdfc6ee4b"

    response = Client().get(f"/play/seat/{secret}")

    assert response["Cache-Control"] == "no-store"
    assert secret not in response.content.decode()


def test_no_module_or_style_names_another_origin():
    files = (
        sorted(STATIC.rglob("*.js")) + sorted(STATIC.rglob("*.mjs")) + sorted(STATIC.rglob("*.css"))
    )
    assert {path.name for path in files} >= {"api.js", "table.js", "play.css", "preact.mjs"}
    for path in files:
        # XML namespaces name no place to fetch from (Preact creates SVG and MathML elements).
        text = re.sub(r"http://www\.w3\.org/[\w/.]+", "", path.read_text())
        assert "://" not in text, f"{path.name} refers to another origin"
