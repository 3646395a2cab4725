"""``examples/bot.py``, run with the bot kit's command as a bot author would run it (docs/api.md,
"The bot kit"), plays whole matches on a live server: against server bots, and a match it was
challenged to (a shedding ruleset and Abbott's Switch). It plays from the ``legal_moves`` the
server lists, which are alike in shape for every shedding preset, so one preset against the bots
stands for them all: black-jack, whose powers ask the most of a client (runs, naming the suit,
covering a queen). The kit only ever answers ``your_turn``: a match it cannot finish stalls, and
the test fails on its timeout."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from tests.serving.conftest import PROJECT_ROOT

BOT = PROJECT_ROOT / "examples" / "bot.py"
SWITCH_BOT = Path(sys.executable).with_name("switch-bot")  # the kit, installed by make
TIMEOUT = 240
PASSWORD = "quiet violet fjord 2048"  # like none of the usernames (Django refuses one too alike)


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


def register(base: str, username: str, bot: bool = False) -> str:
    body = {"username": username, "password": PASSWORD, "bot": bot}
    return str(call(base, "POST", "/players/", body)["token"])


def bot(base: str, username: str, *args: str) -> subprocess.Popen[str]:
    command = [str(SWITCH_BOT), "run", str(BOT), "--server", base, "--username", username]
    return subprocess.Popen(
        [*command, "--matches", "1", *args],
        env={**os.environ, "SWITCH_PASSWORD": PASSWORD},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )


def finished(run: subprocess.Popen[str]) -> str:
    """The bot's output, once it has stopped by itself (after its match ended)."""
    output, _ = run.communicate(timeout=TIMEOUT)
    assert run.returncode == 0, output
    return output


def the_match(output: str, verb: str) -> int:
    line = next(line for line in output.splitlines() if line.startswith(f"{verb} match "))
    return int(line.split()[2].rstrip(":"))


def test_the_example_bot_plays_the_same_practice_game_again(service_url):
    seed = ("--practice-seed", "ab" * 32, "--create", "jacks-twos-eights", "--seats", "3")
    runs = [bot(service_url, username, *seed) for username in ("practice-1", "practice-2")]
    token = register(service_url, "practice-watcher")

    matches = [the_match(finished(run), "created") for run in runs]
    records = [call(service_url, "GET", f"/matches/{m}/record/", token=token) for m in matches]

    assert records[0]["match"]["practice"] is True
    assert records[0]["deals"] == records[1]["deals"]
    assert records[0]["result"] == records[1]["result"]


def test_the_example_bot_plays_against_server_bots_to_the_end(service_url):
    ruleset = "black-jack"
    output = finished(bot(service_url, "robo", "--create", ruleset, "--seats", "4"))

    match_id = the_match(output, "created")
    assert f"match {match_id} ended" in output, output
    view = call(service_url, "GET", f"/matches/{match_id}/", token=register(service_url, "watcher"))
    assert (view["ruleset"], view["status"]) == (ruleset, "finished")
    assert view["seats"][0]["player"] == "robo"
    assert f"match {match_id} v" in output  # it said what it played


@pytest.mark.parametrize("ruleset", ["jacks-twos-eights", "abbott"])
def test_the_example_bot_answers_a_challenge_and_plays_it_to_the_end(service_url, ruleset):
    """The bot waits to be challenged, accepts, and plays; the challenger leaves at once (a bot
    takes its seat), so the example bot is the only person at the table."""
    username = f"challenged-{ruleset}"
    register(service_url, username, bot=True)
    run = bot(service_url, username)
    host = register(service_url, f"challenger-{ruleset}")
    seats = 4 if ruleset == "abbott" else 2
    bots = [{"seat": seat, "strategy": "random"} for seat in range(2, seats)]
    body = {"to": [username], "ruleset": ruleset, "seats": seats, "bots": bots}
    sent = call(service_url, "POST", "/challenges/", body, token=host)
    match_id = wait_for_match(service_url, sent["id"], host)
    call(service_url, "POST", f"/matches/{match_id}/resign/", token=host)

    output = finished(run)

    assert f"challenged by challenger-{ruleset} to {ruleset}: accepting" in output
    assert f"match {match_id} ended" in output
    view = call(service_url, "GET", f"/matches/{match_id}/", token=host)
    assert view["status"] == "finished"


def wait_for_match(base: str, challenge_id: int, token: str) -> int:
    """The match of the challenge, once the bot has accepted it."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        challenge = call(base, "GET", f"/challenges/{challenge_id}/", token=token)
        if challenge["match"] is not None:
            return int(challenge["match"])
        time.sleep(0.1)
    raise AssertionError(f"challenge {challenge_id} was not accepted within a minute")
