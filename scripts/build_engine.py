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
"""

from __future__ import annotations

import json
import os
import runpy
import shlex
import shutil
import sys
import sysconfig
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

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


def run_the_sources(why: str) -> None:
    """Leave the engine uncompiled: no compiled module of an earlier build, no stamp."""
    for path in ENGINE.rglob("*"):
        if path.name.endswith(tuple(EXTENSION_SUFFIXES)):
            path.unlink()
    GUARD["STAMP"].unlink(missing_ok=True)
    print(f"engine not compiled ({why}): running its sources, slower", file=sys.stderr)


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


if __name__ == "__main__":
    main()
