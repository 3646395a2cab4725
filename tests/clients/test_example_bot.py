"""``examples/bot.py``, run as a bot author would run it, plays a whole match on a live server: it
signs up, takes the seat of an open match (which then starts by itself), follows its feed over
Server-Sent Events, answers every ``your_turn`` and stops when the match has ended."""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.request
from typing import Any

from tests.serving.conftest import PROJECT_ROOT

BOT = PROJECT_ROOT / "examples" / "bot.py"


def call(base: str, method: str, path: str, body: Any = None, token: str = "") -> Any:
    request = urllib.request.Request(
        f"{base}/api/v1{path}",
        data=None if body is None else json.dumps(body).encode(),
        method=method,
        headers={"Content-Type": "application/json"},
    )
    if token:
        request.add_header("Authorization", f"Token {token}")
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.load(response)


def test_the_example_bot_plays_an_open_match_to_its_end(service_url):
    host = call(
        service_url, "POST", "/players/", {"username": "host", "password": "correct-horse-9"}
    )["token"]
    # An open match against the random bot: the host creates it and gives up its seat, which
    # leaves one free seat; the match starts by itself when the example bot takes it.
    match = call(
        service_url,
        "POST",
        "/matches/",
        {
            "ruleset": "switch",
            "seats": 2,
            "bots": [{"seat": 1, "strategy": "random"}],
            "auto_start": True,
        },
        token=host,
    )
    call(service_url, "POST", f"/matches/{match['id']}/resign/", token=host)

    done = subprocess.run(
        [
            *(sys.executable, str(BOT), "--server", service_url),
            *("--username", "robo", "--password", "a long bot secret", "--join", "--seed", "1"),
        ],
        capture_output=True,
        text=True,
        timeout=240,
    )

    assert done.returncode == 0, done.stdout + done.stderr
    assert f"joined match {match['id']}: 200" in done.stdout
    assert f"match {match['id']} ended" in done.stdout
    view = call(service_url, "GET", f"/matches/{match['id']}/", token=host)
    assert view["status"] == "finished"
    assert view["seats"][0]["player"] == "robo"
