"""An upgrade's migrations keep the previous release serving (docs/operations.md, "Upgrades"):
a fresh database migrated by this code, then the previous release's code — the release CHANGELOG.md
lists before this one, from git: its tag, or in a clone without tags the last commit of its
version — served on it as a web host would run it during a rolling upgrade, and a match played
through its API: every answer 2xx. A migration that drops, renames or constrains what the previous
release reads or writes fails here, in the release that adds it, instead of on the hosts still
running the previous release — unless that release declares itself not a rolling upgrade, a major
release whose notes stop every host to migrate. (1.0.0 is one: account tokens are hashed and DRF's
table of them dropped, which 0.1.0 writes.)"""

from __future__ import annotations

import re
import subprocess
import sys
import tarfile
import uuid
from collections.abc import Iterator
from io import BytesIO
from pathlib import Path
from typing import Any

import httpx
import pytest
from django.db import connection

from benchmarks import shape
from tests.conftest import IN_CI
from tests.faults.conftest import needs
from tests.serving.conftest import PROJECT_ROOT

pytestmark = [
    pytest.mark.fault,
    pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's migrations"),
]

TURNS = 30  # the turns the client plays, each a view read and a move
RELEASE = re.compile(r"^## (\d+\.\d+\.\d+) — \d{4}-\d\d-\d\d", re.MULTILINE)
NOT_ROLLING = "**Not a rolling upgrade.**"
CHANGELOG = (PROJECT_ROOT / "CHANGELOG.md").read_text()


def previous_release() -> str:
    """The newest release CHANGELOG.md lists with a date (the version being made has none yet)."""
    releases = RELEASE.findall(CHANGELOG)
    assert releases, "CHANGELOG.md lists no release"
    return releases[0]


def declared_not_rolling() -> bool:
    """Whether the release being made says, in its upgrade notes, that the previous release cannot
    serve on its schema (then every host is stopped for its migrate: a major release)."""
    being_made = CHANGELOG.split("\n## ")[1]
    return not RELEASE.match("## " + being_made) and NOT_ROLLING in being_made


def release_commit(version: str) -> str | None:
    """The commit of a release: its tag, or — in a clone that carries no tags, as CI's may — the
    last commit whose ``pyproject.toml`` says that version (the one before the commit that changed
    it); ``None`` if the history holds neither."""
    tag = f"v{version}"
    if git("rev-parse", "--verify", "--quiet", f"{tag}^{{commit}}").returncode == 0:
        return tag
    line = f'version = "{version}"'
    changed = git("log", "--format=%H", "-S", line, "--", "pyproject.toml").stdout.split()
    if not changed:
        return None
    newest = changed[0]
    return newest if line in git("show", f"{newest}:pyproject.toml").stdout else f"{newest}^"


def git(*arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["git", *arguments], cwd=PROJECT_ROOT, capture_output=True, text=True)


@pytest.fixture
def previous_code(tmp_path: Path) -> Path:
    """The previous release's tree, from git."""
    needs("git")
    version = previous_release()
    commit = release_commit(version)
    if commit is None:
        message = f"neither the tag v{version} nor its commit is in this clone"
        if IN_CI:
            pytest.fail(message)
        pytest.skip(message)
    archive = subprocess.run(
        ["git", "archive", "--format=tar", commit],
        cwd=PROJECT_ROOT,
        capture_output=True,
        check=True,
    )
    tree = tmp_path / f"v{version}"
    with tarfile.open(fileobj=BytesIO(archive.stdout)) as files:
        files.extractall(tree, filter="data")
    return tree


@pytest.fixture
def new_schema() -> Iterator[str]:
    """A database of its own, migrated by this release's code; its URL."""
    db = connection.settings_dict
    name = f"{db['NAME']}_upgrade_{uuid.uuid4().hex[:8]}"
    address = ["-h", str(db["HOST"]), "-p", str(db["PORT"] or 5432), "-U", str(db["USER"])]
    subprocess.run(["createdb", *address, name], check=True)
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    url = f"postgres://{db['USER']}{password}@{db['HOST']}:{db['PORT'] or 5432}/{name}"
    try:
        shape.migrate(shape.service_env(url, ""))
        yield url
    finally:
        subprocess.run(["dropdb", *address, "--force", "--if-exists", name], check=True)


def test_the_previous_release_serves_on_the_new_schema(
    request: pytest.FixtureRequest, tmp_path: Path
):
    if declared_not_rolling():  # before the fixtures: nothing to fetch, nothing to migrate
        pytest.skip(f"the release being made declares {NOT_ROLLING!r} (CHANGELOG.md)")
    previous_code: Path = request.getfixturevalue("previous_code")
    new_schema: str = request.getfixturevalue("new_schema")
    port = shape.free_port()
    env = shape.service_env(
        new_schema, "", PORT=str(port), WEB_CONCURRENCY="1", **shape.UNTHROTTLED
    )
    # Its own tree first on the path, so that its modules, not this release's, are imported.
    env["PYTHONPATH"] = str(previous_code)
    which = subprocess.run(
        [sys.executable, "-c", "import switchsite; print(switchsite.__file__)"],
        cwd=previous_code,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    assert which.stdout.startswith(str(previous_code))
    log = tmp_path / "previous.log"
    with log.open("wb") as output:
        server = subprocess.Popen(  # as every release's `make serve` could start it
            [sys.executable, "-m", "uvicorn", "switchsite.asgi:application", "--port", str(port)],
            cwd=previous_code,
            env=env,
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        shape.wait_for_port(port, 120, "the previous release")
        statuses = play_a_match(f"http://127.0.0.1:{port}")
    except Exception:
        print("LOG", log.read_text()[-6000:])
        raise
    finally:
        server.terminate()
        server.wait(30)

    print("LOG", log.read_text()[-4000:])
    assert statuses, log.read_text()[-3000:]
    assert {status // 100 for status in statuses} == {2}, log.read_text()[-3000:]


def play_a_match(url: str) -> list[int]:
    """Register, create a match against a server bot and play :data:`TURNS` turns, read its
    events and the feed, as a client of the previous release would: every status met."""
    statuses: list[int] = []

    def answer(response: httpx.Response) -> Any:
        statuses.append(response.status_code)
        return response.json()

    registered = answer(
        httpx.post(
            f"{url}/api/v1/players/", json={"username": "old", "password": "a-long-old-secret"}
        )
    )
    client = httpx.Client(
        base_url=url, headers={"Authorization": f"Token {registered['token']}"}, timeout=30
    )
    settings = {"ruleset": "switch", "seats": 2, "bots": [{"seat": 1, "strategy": "random"}]}
    match = answer(client.post("/api/v1/matches/", json=settings))
    path = f"/api/v1/matches/{match['id']}/"
    answer(client.post(f"{path}start/"))
    moves = 0
    while moves < TURNS:
        view = answer(client.get(path))
        if view["status"] != "active":  # over early: another match
            match = answer(client.post("/api/v1/matches/", json=settings))
            path = f"/api/v1/matches/{match['id']}/"
            answer(client.post(f"{path}start/"))
            continue
        plays = [m for m in view["legal_moves"] if m["action"] == "play"]
        answer(client.post(f"{path}moves/", json=(plays or view["legal_moves"])[0]))
        moves += 1
    events = answer(client.get(f"{path}events/?after=0&limit=500"))
    answer(client.get("/api/v1/players/me/events/?after=0&wait=1"))
    assert events["results"]
    return statuses


def test_a_release_is_found_with_or_without_its_tag():
    commit = release_commit("0.1.0")
    assert commit is not None
    assert 'version = "0.1.0"' in git("show", f"{commit}:pyproject.toml").stdout
    assert release_commit("0.0.9") is None
