"""The guard of the compiled engine: a compiled module must have been built from its source as it is.

``make`` compiles the engine's modules with mypyc, in place (``scripts/build_engine.py``, docs/architecture.md:
"The compiled engine"): beside ``game.py`` lies ``game.cpython-311-….so``, which Python imports
instead of the source. Were that file older than an edit of ``game.py``, the edit would silently
not run. So the build records the SHA-256 of every source it compiled (:data:`STAMP`), and
importing the engine (``games/rules/__init__.py``) refuses any compiled module whose source has
changed since. Without compiled modules the sources run, as they are, just slower. This module
itself is never compiled, and reads files only at import.
"""

from __future__ import annotations

import hashlib
import json
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
STAMP = PACKAGE / "compiled-sources.json"  # {source relative to PACKAGE: its SHA-256}, git-ignored
# What the build compiles: the shedding engine and the modules it shares with Abbott's game, whose
# package inits are left as Python. Abbott's game and the catalog run from their sources.
COMPILED = ("cards.py", "protocol.py", "shuffle.py", "shedding")


def compiled_by_the_build() -> list[Path]:
    """The sources the build compiles (:data:`COMPILED`, package inits left out)."""
    paths = [PACKAGE / name for name in COMPILED]
    sources = [p for path in paths for p in (path.rglob("*.py") if path.is_dir() else [path])]
    return sorted(path for path in sources if path.name != "__init__.py")


def source_digest(source: Path) -> str:
    return hashlib.sha256(source.read_bytes()).hexdigest()


def compiled_sources() -> list[Path]:
    """The engine's sources that this Python imports compiled: a module built for it lies beside."""
    return [
        source
        for source in sorted(PACKAGE.rglob("*.py"))
        if any(source.with_name(source.stem + suffix).exists() for suffix in EXTENSION_SUFFIXES)
    ]


def stale_sources() -> list[str]:
    """Sources whose compiled module was built from something else (or by no recorded build)."""
    built = json.loads(STAMP.read_text()) if STAMP.exists() else {}
    names = ((source.relative_to(PACKAGE).as_posix(), source) for source in compiled_sources())
    return [name for name, source in names if built.get(name) != source_digest(source)]


def check_fresh() -> None:
    """Raise ImportError when a compiled module is not its source as it is now."""
    stale = stale_sources()
    if stale:
        raise ImportError(
            f"the compiled engine is older than {', '.join(stale)} in {PACKAGE}: rebuild it with "
            "`make engine`, or delete it with `make clean-engine` to run the sources"
        )
