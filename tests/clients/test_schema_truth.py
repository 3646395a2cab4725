"""The schema tells the truth: schemathesis generates requests from the served schema — valid ones
and ones it must refuse — and checks every answer against it (``--checks all``: no 5xx, every
status, content type, header and body as documented, invalid requests refused and valid ones
accepted), as a signed-in player, as staff and anonymously, against a live server.

In full for the signed-in player, who reaches every operation's own checks: every operation's
coverage cases (its boundaries and each way to break it) and a few generated examples each. Staff
in full where being staff is what lets a request through (the tournaments' and series' operations;
elsewhere staff are answered as players are). Anonymous callers a sample: a couple of generated
requests to every operation, each of which must be refused as documented. ``schemathesis/schemathesis.toml`` and
``schemathesis/hooks.py`` say what is configured and why (long polls are cut short; a valid
request may be refused for what no schema can say, with a problem document).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import urllib.request
from typing import Any

import pytest

from tests.clients.conftest import Service
from tests.serving.conftest import PROJECT_ROOT

CONFIG = PROJECT_ROOT / "tests" / "clients" / "schemathesis"
PASSWORD = "a-long-enough-password"
# What each caller is sent: the phases, generated examples per operation (besides the coverage
# cases) and which operations (the module's docstring says why).
IN_FULL = ("--phases", "coverage,fuzzing", "--max-examples", "10")
RUNS = {
    "player": IN_FULL,
    "staff": (*IN_FULL, "--include-tag-regex", "^(tournaments|series)$"),
    "anonymous": ("--phases", "fuzzing", "--max-examples", "2"),
}
# No answer takes longer: long polls are cut to a fifth of a second (hooks.py), streams end
# after SSE_MAX_SECONDS (1 s here) — so a slow answer is a fault, not a wait.
MAX_RESPONSE_SECONDS = 10


def token(base: str, path: str, body: dict[str, Any]) -> str:
    request = urllib.request.Request(
        f"{base}/api/v1{path}",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        return str(json.load(response)["token"])


@pytest.fixture(scope="module")
def callers(service: Service) -> dict[str, list[str]]:
    """The headers of each kind of caller: a player, a member of staff, and nobody."""
    player = token(service.url, "/players/", {"username": "fuzzer", "password": PASSWORD})
    service.manage(
        "createsuperuser",
        "--noinput",
        *("--username", "fuzzstaff", "--email", "staff@example.invalid"),
        DJANGO_SUPERUSER_PASSWORD=PASSWORD,
    )
    staff = token(service.url, "/auth/token/", {"username": "fuzzstaff", "password": PASSWORD})
    return {
        "player": ["-H", f"Authorization: Token {player}"],
        "staff": ["-H", f"Authorization: Token {staff}"],
        "anonymous": [],
    }


@pytest.mark.parametrize("caller", sorted(RUNS))
def test_every_answer_is_what_the_served_schema_says(service, callers, caller):
    command = [
        *(sys.executable, "-m", "schemathesis.cli"),
        *("--config-file", str(CONFIG / "schemathesis.toml"), "--no-color"),
        *("run", f"{service.url}/api/v1/schema/", "--checks", "all"),
        *RUNS[caller],
        *("--seed", "23"),
        *("--max-response-time", str(MAX_RESPONSE_SECONDS), "--request-timeout", "40"),
        *("--workers", "2", "--continue-on-failure", "--generation-database", "none"),
        *callers[caller],
    ]
    env = {
        "SCHEMATHESIS_HOOKS": "tests.clients.schemathesis.hooks",
        "PYTHONPATH": str(PROJECT_ROOT),
    }
    done = subprocess.run(
        command,
        cwd=PROJECT_ROOT,
        env={**os.environ, **service.env, **env},
        capture_output=True,
        text=True,
        timeout=600,
    )

    assert done.returncode == 0, done.stdout + done.stderr
