"""The engine runs compiled by mypyc (`make engine`; docs/architecture.md, "The compiled engine") from its sources
as they are now; and those sources, which run wherever there is no build, play exactly alike."""

from __future__ import annotations

import importlib
import shutil
import subprocess
import sys
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import games.rules
from games.rules.build_guard import compiled_by_the_build, stale_sources

ROOT = Path(__file__).parents[2]
ENGINE = Path(games.rules.__file__).parent

# Seeded random matches of every preset, hashed whole: every legal action, event and saved state.
PLAY_AND_HASH = """
import hashlib, json, random
import games.rules.shedding.game
from games.rules.shedding.rulesets import RULESETS, create_game

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
print(games.rules.shedding.game.__spec__.origin)
print(digest.hexdigest())
"""


def engine_modules() -> list[str]:
    return [
        ".".join(path.relative_to(ROOT).with_suffix("").parts) for path in compiled_by_the_build()
    ]


def play_and_hash(root: Path) -> tuple[str, str]:
    """(where the game module came from, the hash of the games) with the engine found in ``root``."""
    done = subprocess.run(
        [sys.executable, "-c", PLAY_AND_HASH], cwd=root, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    origin, digest = done.stdout.split()
    return origin, digest


def test_every_engine_module_runs_compiled_from_its_source_as_it_is() -> None:
    for name in engine_modules():
        spec = importlib.import_module(name).__spec__
        assert spec is not None
        origin = str(spec.origin)
        assert origin.endswith(tuple(EXTENSION_SUFFIXES)), f"{name} is not compiled: make engine"
    assert stale_sources() == []


def test_the_sources_without_the_build_play_as_the_compiled_engine(tmp_path: Path) -> None:
    sources, elsewhere = tmp_path / "sources", tmp_path / "elsewhere"
    for source in [ROOT / "games" / "__init__.py", *ENGINE.rglob("*.py")]:
        copy = sources / source.relative_to(ROOT)
        copy.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(source, copy)
    elsewhere.mkdir()
    # The installed (compiled) engine, imported from a directory other than the project's root.
    compiled_origin, compiled = play_and_hash(elsewhere)
    source_origin, interpreted = play_and_hash(sources)
    assert compiled_origin.endswith(tuple(EXTENSION_SUFFIXES))
    assert source_origin.endswith(".py")
    assert interpreted == compiled
