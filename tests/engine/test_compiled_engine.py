"""The engine runs compiled by mypyc (`make engine`; docs/architecture.md, "The compiled engine") from its sources
as they are now, or its sources when asked (SWITCH_ENGINE=sources), when the build is stale, or
where no C compiler could build it; and those sources play exactly alike."""

from __future__ import annotations

import importlib
import os
import runpy
import shutil
import subprocess
import sys
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest

import switchgame
from switchgame.build_guard import (
    MODE_VARIABLE,
    STAMP,
    compiled_by_the_build,
    sources_asked,
    stale_sources,
)
from tests.conftest import IN_CI

ROOT = Path(__file__).parents[2]
ENGINE = Path(switchgame.__file__).parent

# Seeded random matches of every preset, hashed whole: every legal action, event and saved state.
PLAY_AND_HASH = """
import hashlib, json, random
import switchgame.shedding.game
from switchgame.shedding import create_game
from switchgame.shedding.rulesets import RULESETS

digest = hashlib.sha256()
for name in RULESETS:
    for players in (2, 4):
        rng = random.Random(f"{name} {players}")
        game = create_game(name, players, deals=2)
        while not game.is_over:
            if game.needs_deal:
                events = game.deal(rng.randbytes(16))
            else:
                legal = game.legal_actions()
                digest.update(json.dumps(legal).encode())
                plays = [action for action in legal if action["action"] == "play"]
                # Mostly plays, so that the deals end soon (random draws make them long).
                events = game.apply(dict(rng.choice(plays if plays and rng.random() < 0.9 else legal)))
            digest.update(json.dumps([event.to_dict() for event in events]).encode())
            digest.update(json.dumps(game.copy().to_dict(), sort_keys=True).encode())
print(switchgame.shedding.game.__spec__.origin)
print(digest.hexdigest())
"""


def engine_modules() -> list[str]:
    return [
        ".".join(path.relative_to(ROOT).with_suffix("").parts) for path in compiled_by_the_build()
    ]


def environment(**variables: str) -> dict[str, str]:
    """This process's environment without the choice of the sources, with ``variables``."""
    return {
        **{name: value for name, value in os.environ.items() if name != MODE_VARIABLE},
        **variables,
    }


def play_and_hash(root: Path) -> tuple[str, str]:
    """(where the game module came from, the hash of the games) with the engine found in ``root``."""
    done = subprocess.run(
        [sys.executable, "-c", PLAY_AND_HASH],
        cwd=root,
        capture_output=True,
        text=True,
        env=environment(),
    )
    assert done.returncode == 0, done.stderr
    origin, digest = done.stdout.split()
    return origin, digest


def test_every_engine_module_runs_compiled_unless_the_sources_were_asked_for() -> None:
    """Compiled where the build succeeded (always in CI, which installs a C compiler), from the
    sources under ``make test-sources`` and where there was no compiler."""
    assert STAMP.exists() or not IN_CI, "CI=true but the engine is not compiled: make engine"
    compiled = STAMP.exists() and not sources_asked()
    for name in engine_modules():
        spec = importlib.import_module(name).__spec__
        assert spec is not None
        origin = str(spec.origin)
        assert origin.endswith(tuple(EXTENSION_SUFFIXES)) == compiled, (name, origin)
    assert stale_sources() == []


def copy_of_the_engine(root: Path) -> Path:
    """The engine's package, with its build if there is one, and its build script, under ``root``."""
    (root / "scripts").mkdir()
    shutil.copy(ROOT / "scripts" / "build_engine.py", root / "scripts")
    shutil.copytree(ENGINE, root / ENGINE.name, ignore=shutil.ignore_patterns("__pycache__"))
    return root / ENGINE.name


def test_a_stale_build_runs_the_sources_and_says_so(tmp_path: Path) -> None:
    engine = copy_of_the_engine(tmp_path)
    with (engine / "shedding" / "legal.py").open("a") as source:
        source.write("# an edit since the build\n")
    done = subprocess.run(
        [sys.executable, "-c", "import switchgame.shedding.game as g; print(g.__spec__.origin)"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env=environment(),
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == str(engine / "shedding" / "game.py")
    if STAMP.exists():  # there was a build to go stale
        assert "older than shedding/legal.py: running the sources" in done.stderr


def test_without_a_c_compiler_the_build_says_so_in_one_line_and_the_sources_run(
    tmp_path: Path,
) -> None:
    engine = copy_of_the_engine(tmp_path)
    build = subprocess.run(
        [sys.executable, "scripts/build_engine.py"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env=environment(PATH=str(tmp_path / "no-programs-here"), CC="cc"),
    )
    assert build.returncode == 0, build.stderr
    assert build.stderr.splitlines() == [
        "engine not compiled (no C compiler (cc)): running its sources, slower"
    ]
    assert not [path for path in engine.rglob("*") if path.suffix == ".so"]
    assert not (engine / STAMP.name).exists()
    origin, _ = play_and_hash(tmp_path)
    assert origin == str(engine / "shedding" / "game.py")


def test_the_sources_without_the_build_play_as_the_compiled_engine(tmp_path: Path) -> None:
    sources, elsewhere = tmp_path / "sources", tmp_path / "elsewhere"
    for source in ENGINE.rglob("*.py"):
        copy = sources / source.relative_to(ROOT)
        copy.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(source, copy)
    elsewhere.mkdir()
    # The installed (compiled) engine, imported from a directory other than the project's root.
    compiled_origin, compiled = play_and_hash(elsewhere)
    source_origin, interpreted = play_and_hash(sources)
    assert compiled_origin.endswith(tuple(EXTENSION_SUFFIXES)) == STAMP.exists()
    assert source_origin.endswith(".py")
    assert interpreted == compiled


def test_a_build_taken_from_the_cache_leaves_the_package_readable_by_all(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The cache keeps each build in a directory only its owner may read (mkdtemp): copied back
    whole, its mode went onto the package, and the service's user (a container's, a unit's) could
    not import the engine that root had built."""
    if not STAMP.exists():
        pytest.skip("no build of the engine to keep in a cache")
    engine = copy_of_the_engine(tmp_path)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    script = runpy.run_path(str(tmp_path / "scripts" / "build_engine.py"))
    guard = script["GUARD"]
    digests = {
        path.relative_to(engine).as_posix(): guard["source_digest"](path)
        for path in guard["compiled_by_the_build"]()
    }
    script["keep"](script["cached_build"](digests))
    (engine / STAMP.name).unlink()
    engine.chmod(0o755)
    build = subprocess.run(
        [sys.executable, "scripts/build_engine.py"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env=environment(),
    )
    assert build.returncode == 0, build.stderr
    assert "the build of these sources taken from" in build.stdout
    assert (engine / STAMP.name).exists()
    assert engine.stat().st_mode & 0o777 == 0o755
