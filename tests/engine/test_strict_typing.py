"""The pure code — both engines, the bots, the match replay and the tournaments' seating, scoring,
results, ratings and chart — passes ``mypy --strict``, whatever the per-module settings of
pyproject.toml say (``make lint`` checks the whole project with those)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
STRICT_PATHS = [
    "games/engine",
    "games/abbott",
    "games/bots",
    "games/replay.py",
    "tournaments/core",
]


def test_the_pure_code_passes_mypy_strict() -> None:
    # The modules they import are read for their types, and checked by their own settings.
    out = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--follow-imports=silent", *STRICT_PATHS],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert out.returncode == 0, out.stdout + out.stderr
