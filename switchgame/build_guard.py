"""The guard of the compiled engine: a compiled module runs only if it was built from its source as it is.

``make`` compiles the engine's modules with mypyc, in place (``scripts/build_engine.py``, docs/architecture.md:
"The compiled engine"): beside ``game.py`` lies ``game.cpython-311-….so``, which Python imports
instead of the source. Were that file older than an edit of ``game.py``, the edit would silently
not run. So the build records the SHA-256 of every source it compiled (:data:`STAMP`), and
importing the engine (``switchgame/__init__.py``) runs the sources instead of the compiled
modules — all of them, as compiled modules call each other directly — when one has changed since
(saying so in one line: ``make`` rebuilds), or when ``SWITCH_ENGINE=sources`` asks for them (the
suite's second run, ``make test-sources``). Without compiled modules the sources run, as they are,
just slower. This module itself is never compiled, and reads files and the environment only at
import.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import sys
import warnings
from collections.abc import Sequence
from importlib.machinery import EXTENSION_SUFFIXES, ModuleSpec
from pathlib import Path
from types import ModuleType

PACKAGE = Path(__file__).resolve().parent
STAMP = PACKAGE / "compiled-sources.json"  # {source relative to PACKAGE: its SHA-256}, git-ignored
# SWITCH_ENGINE=sources: run the sources even where a fresh build lies beside them.
MODE_VARIABLE, SOURCES = "SWITCH_ENGINE", "sources"
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


def sources_asked() -> bool:
    """Whether the environment asks for the sources (:data:`MODE_VARIABLE`); raises ValueError for a
    value that is neither that nor empty."""
    mode = os.environ.get(MODE_VARIABLE, "")
    if mode not in ("", SOURCES):
        raise ValueError(f"{MODE_VARIABLE} must be {SOURCES!r} or unset, not {mode!r}")
    return mode == SOURCES


class _SourceFinder:
    """Finds each compiled module's source instead of its extension module."""

    def __init__(self, sources: dict[str, Path]) -> None:
        self.sources = sources

    def find_spec(
        self, name: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        source = self.sources.get(name)
        return None if source is None else importlib.util.spec_from_file_location(name, source)


def choose_build() -> None:
    """Run the sources instead of the compiled modules when asked to, or when one is stale."""
    compiled = compiled_sources()
    if not compiled:
        return
    if not sources_asked():
        stale = stale_sources()
        if not stale:
            return
        warnings.warn(
            f"the compiled engine is older than {', '.join(stale)}: running the sources "
            "(`make engine` rebuilds it)",
            RuntimeWarning,
            stacklevel=2,
        )
    package = __name__.rpartition(".")[0]  # switchgame
    modules = {
        ".".join((package, *source.relative_to(PACKAGE).with_suffix("").parts)): source
        for source in compiled
    }
    sys.meta_path.insert(0, _SourceFinder(modules))
