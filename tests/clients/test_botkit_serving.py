"""The bot kit as a bot author gets it: built as a wheel, installed with pip into a virtual
environment of its own (no Django there), and its ``switch-bot`` command playing on the real
service (uvicorn on PostgreSQL, as ``make serve``): a match through a restart of the server in the
middle of it, which it finishes once the server is back; and a ladder's match, which it joins and
is seated in as a bot online."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model

from games import selectors
from games.models import Match
from matchmaking.models import LadderTable, Membership
from matchmaking.services.ladders import ladder_create, ladder_round_seat
from tests.clients.conftest import run
from tests.serving.conftest import PROJECT_ROOT

pytestmark = pytest.mark.django_db(transaction=True)

KIT = PROJECT_ROOT / "clients" / "python"
EXAMPLE_BOT = PROJECT_ROOT / "examples" / "bot.py"
PASSWORD = "quiet violet fjord 2048"
TIMEOUT = 240
# A seed whose game, against the heuristic bot, ends after about ten decisions of the bot's.
PRACTICE_SEED = "ab" * 32
# A bot that plays its first legal play, and before its GATE_AT-th decision waits while the gate
# file exists, having said so in the file beside it: the test holds the match there.
GATED_BOT = """
import os
import time
from pathlib import Path

from switchbot import Bot

GATE = Path(os.environ["BOT_GATE"])


class Gated(Bot):
    decisions = 0

    def choose(self, view):
        self.decisions += 1
        if self.decisions == int(os.environ["BOT_GATE_AT"]):
            GATE.with_suffix(".waiting").write_text(str(view["version"]))
            while GATE.exists():
                time.sleep(0.05)
        plays = [move for move in view["legal_moves"] if move["action"] == "play"]
        return (plays or view["legal_moves"])[0]
"""


@dataclass(frozen=True)
class Kit:
    wheel: Path
    command: Path  # switch-bot, in the environment the wheel was installed into


@pytest.fixture(scope="module")
def kit(tmp_path_factory: pytest.TempPathFactory) -> Kit:
    """The wheel built from clients/python, installed as a bot author installs it."""
    directory = tmp_path_factory.mktemp("kit")
    run(
        [
            *(sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation"),
            *("--quiet", "--wheel-dir", str(directory / "dist"), str(KIT)),
        ],
        cwd=directory,
    )
    (wheel,) = (directory / "dist").glob("switch_bot-*.whl")
    run([sys.executable, "-m", "venv", str(directory / "env")], cwd=directory)
    pip = directory / "env" / "bin" / "pip"
    run([str(pip), "install", "--quiet", str(wheel)], cwd=directory)
    return Kit(wheel, directory / "env" / "bin" / "switch-bot")


def test_the_wheel_holds_the_package_its_types_and_its_command(kit):
    names = zipfile.ZipFile(kit.wheel).namelist()

    assert {"switchbot/__init__.py", "switchbot/schema.py", "switchbot/py.typed"} <= set(names)
    entry_points = next(name for name in names if name.endswith("entry_points.txt"))
    assert (
        "switch-bot = switchbot.cli:main" in zipfile.ZipFile(kit.wheel).read(entry_points).decode()
    )


def test_the_installed_kit_runs_without_the_service_or_django(kit):
    python = kit.command.with_name("python")
    probe = "import importlib.util, switchbot; print(importlib.util.find_spec('django'))"

    done = run([str(python), "-c", probe], cwd=kit.command.parent)

    assert done.stdout.strip() == "None"


def wait_for(what: str, condition: Callable[[], bool], seconds: float = 120) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"waited {seconds} s for {what}"
        time.sleep(0.1)


def test_the_bot_finishes_its_match_across_a_restart_of_the_server(kit, start_server, tmp_path):
    server = start_server()
    bot_file, gate, output = tmp_path / "gated.py", tmp_path / "gate", tmp_path / "bot.log"
    bot_file.write_text(GATED_BOT)
    gate.touch()
    env = {**os.environ, "SWITCH_PASSWORD": PASSWORD, "BOT_GATE": str(gate), "BOT_GATE_AT": "3"}
    command = [str(kit.command), "run", str(bot_file), "--server", server.base_url]
    command += ["--username", "kit-bot", "--matches", "1", "--create", "switch"]
    command += ["--practice-seed", PRACTICE_SEED]  # the same short game every time
    with output.open("w") as log:
        bot = subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        wait_for("the bot's third decision", gate.with_suffix(".waiting").exists)
        server.terminate()
        gate.unlink()  # the bot posts its move to a server that is gone
        wait_for("the bot to find the server gone", lambda: "trying again" in output.read_text())
        start_server(port=server.port)
        bot.wait(TIMEOUT)
    except (AssertionError, subprocess.TimeoutExpired) as failure:
        raise AssertionError(f"{failure}; the bot said:\n{output.read_text()}") from failure
    finally:
        bot.kill()
        bot.wait()

    said = output.read_text()
    assert bot.returncode == 0, said
    match = Match.objects.get()
    assert match.status == "finished"
    assert f"match {match.pk} ended" in said
    held = f"match {match.pk} v{gate.with_suffix('.waiting').read_text()}: "
    tries = [line for line in said.splitlines() if line.startswith(held)]
    assert "trying again" in tries[0]
    assert len([line for line in tries if "trying again" not in line]) == 1  # played, once


def test_the_bot_joins_a_ladder_and_plays_the_match_it_is_seated_in(kit, start_server, tmp_path):
    server = start_server()
    director = get_user_model().objects.create_superuser("director", password=PASSWORD)
    ladder = ladder_create(
        user=director, ruleset="switch", seats=2, interval_seconds=30, turn_seconds=60
    )
    output = tmp_path / "bot.log"
    command = [str(kit.command), "run", str(EXAMPLE_BOT), "--server", server.base_url]
    command += ["--username", "ladder-bot", "--ladder", "switch-2", "--matches", "1"]
    with output.open("w") as log:
        bot = subprocess.Popen(
            command, env={**os.environ, "SWITCH_PASSWORD": PASSWORD}, stdout=log, stderr=log
        )
    try:
        online = selectors.players_online(bot=True).filter(user__username="ladder-bot")
        wait_for("the bot to join and be online", lambda: online.exists())
        assert Membership.objects.filter(ladder=ladder, user__username="ladder-bot").exists()
        seated = ladder_round_seat(ladder_id=ladder.pk, now=ladder.next_round_at)
        assert len(seated) == 1  # the round: the bot and a gatekeeper
        bot.wait(TIMEOUT)
    except (AssertionError, subprocess.TimeoutExpired) as failure:
        raise AssertionError(f"{failure}; the bot said:\n{output.read_text()}") from failure
    finally:
        bot.kill()
        bot.wait()

    said = output.read_text()
    assert bot.returncode == 0, said
    match = LadderTable.objects.get(ladder=ladder).match
    assert match is not None
    assert (match.status, match.rated) == ("finished", True)
    assert f"joined ladder {ladder.pk}" in said
    assert f"match {match.pk} ended" in said
