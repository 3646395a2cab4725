"""Abbott's engine, every bot and the match replay are typed strictly (STYLE.md): mypy, with the
strict per-module settings of pyproject.toml, finds nothing in them."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
STRICT_PATHS = [
    "games/abbott",
    "games/bots",
    "games/replay.py",
]


def test_abbott_code_the_bots_and_the_replay_pass_mypy_strict() -> None:
    # The modules they import are read for their types, and checked by their own settings.
    out = subprocess.run(
        [sys.executable, "-m", "mypy", "--follow-imports=silent", *STRICT_PATHS],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert out.returncode == 0, out.stdout + out.stderr
