"""Compile the rules engine with mypyc, in place, and record the sources it was built from.

    .venv/bin/python scripts/build_engine.py

What ``make engine`` runs, and with it every make target that runs the engine, whenever one of the
engine's sources is newer than the last build. The modules the guard names
(``switchgame/build_guard.py``: the shedding engine and what it shares) are compiled to a C extension beside its source;
the guard then refuses a compiled module whose source changed after the build recorded in its stamp
(docs/architecture.md, "The compiled engine"). Needs a C compiler and Python's headers; the C goes to ``build/``.
Without them (a Mac without the command-line tools, a slim container), or when the C does not
compile, it says so in one line, removes any compiled module left from an earlier build, writes no
stamp (so that the next ``make`` tries again) and exits 0: the engine's sources then run, slower.
A build is kept in the machine's cache, named by what it was built from, and a later build of the
same sources (a fresh clone's: CI's) takes it from there instead of compiling again.
"""

from __future__ import annotations

import hashlib
import json
import os
import runpy
import shlex
import shutil
import sys
import sysconfig
import tempfile
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import mypy.version
from mypyc.build import mypycify
from setuptools import setup  # type: ignore[import-untyped]  # (setuptools ships no types)

ROOT = Path(__file__).resolve().parent.parent
ENGINE = ROOT / "switchgame"
# The guard, run from its file: importing switchgame would refuse the stale build this replaces.
GUARD = runpy.run_path(str(ENGINE / "build_guard.py"))


def c_compiler() -> str:
    """The command setuptools compiles C with."""
    return os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"


def missing_tools() -> str | None:
    """What the build lacks to compile C for this Python, if anything."""
    compiler = c_compiler()
    if shutil.which(shlex.split(compiler)[0]) is None:
        return f"no C compiler ({compiler})"
    if not (Path(sysconfig.get_paths()["include"]) / "Python.h").exists():
        return "no Python headers (Python.h)"
    return None


def built_modules() -> list[Path]:
    return [path for path in ENGINE.rglob("*") if path.name.endswith(tuple(EXTENSION_SUFFIXES))]


def run_the_sources(why: str) -> None:
    """Leave the engine uncompiled: no compiled module of an earlier build, no stamp."""
    for path in built_modules():
        path.unlink()
    GUARD["STAMP"].unlink(missing_ok=True)
    print(f"engine not compiled ({why}): running its sources, slower", file=sys.stderr)


def cached_build(digests: dict[str, str]) -> Path:
    """Where the machine keeps the build of these sources by this Python, mypyc, C compiler and
    script (``$XDG_CACHE_HOME/switch-service/engine/``): the same inputs give the same build, so a
    fresh clone (CI's) takes it instead of compiling for a minute or two."""
    key = hashlib.sha256()
    parts = [json.dumps(digests, sort_keys=True), sys.version, mypy.version.__version__]
    for part in [*parts, c_compiler()]:
        key.update(part.encode() + b"\0")
    key.update(Path(__file__).read_bytes())
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "switch-service" / "engine" / key.hexdigest()


def keep(build: Path) -> None:
    """Copy the modules just built into the cache, whole or not at all (a rename)."""
    build.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(dir=build.parent))
    for path in built_modules():
        target = staging / path.relative_to(ENGINE)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(path, target)
    try:
        staging.rename(build)
    except OSError:  # another build of the same sources got there first
        shutil.rmtree(staging)


def main() -> None:
    missing = missing_tools()
    if missing is not None:
        run_the_sources(missing)
        return
    sources = GUARD["compiled_by_the_build"]()
    # Read before compiling: a source edited during the build then does not match its stamp.
    digests = {
        path.relative_to(ENGINE).as_posix(): GUARD["source_digest"](path) for path in sources
    }
    build = cached_build(digests)
    if build.is_dir():
        for path in built_modules():
            path.unlink()
        # File by file: a copy of the cache's directories would give the package their mode
        # (mkdtemp's 0700), and no other user could import the engine.
        for cached in (path for path in build.rglob("*") if path.is_file()):
            shutil.copy2(cached, ENGINE / cached.relative_to(build))
        GUARD["STAMP"].write_text(json.dumps(digests, indent=1) + "\n")
        print(f"engine: the build of these sources taken from {build}")
        return
    extensions = mypycify(
        # Without the project's mypy configuration: its Django plugin imports the engine, whose
        # guard refuses the stale build. `make lint` checks the engine strictly all the same.
        ["--config-file=", "--cache-dir=build/mypy_cache"]
        + [str(path.relative_to(ROOT)) for path in sources],
        opt_level="3",
        # The library the modules share: switchgame/compiled__mypyc.*.so, inside the package, so
        # that it is found wherever the package is (not only from the project's root).
        group_name="switchgame.compiled",
    )
    try:
        setup(
            name="switch-engine",
            ext_modules=extensions,
            script_args=["--quiet", "build_ext", "--inplace"],
        )
    except SystemExit:  # setuptools' way of saying the C compiler failed (its errors are above)
        run_the_sources(f"the C compiler ({c_compiler()}) failed")
        return
    GUARD["STAMP"].write_text(json.dumps(digests, indent=1) + "\n")
    keep(build)


if __name__ == "__main__":
    main()
