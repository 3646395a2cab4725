"""Compile the rules engine with mypyc, in place, and record the sources it was built from.

    .venv/bin/python scripts/build_engine.py

What ``make engine`` runs, and with it every make target that runs the engine, whenever one of the
engine's sources is newer than the last build. The modules the guard names
(``games/rules/build_guard.py``: the shedding engine and what it shares) are compiled to a C extension beside its source;
the guard then refuses a compiled module whose source changed after the build recorded in its stamp
(docs/architecture.md, "The compiled engine"). Needs a C compiler and Python's headers; the C goes to ``build/``.
"""

from __future__ import annotations

import json
import runpy
from pathlib import Path

from mypyc.build import mypycify
from setuptools import setup  # type: ignore[import-untyped]  # (setuptools ships no types)

ROOT = Path(__file__).resolve().parent.parent
ENGINE = ROOT / "games" / "rules"
# The guard, run from its file: importing games.rules would refuse the stale build this replaces.
GUARD = runpy.run_path(str(ENGINE / "build_guard.py"))


def main() -> None:
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
        # The library the modules share: games/rules/compiled__mypyc.*.so, inside the package, so
        # that it is found wherever the package is (not only from the project's root).
        group_name="games.rules.compiled",
    )
    setup(
        name="switch-engine",
        ext_modules=extensions,
        script_args=["--quiet", "build_ext", "--inplace"],
    )
    GUARD["STAMP"].write_text(json.dumps(digests, indent=1) + "\n")


if __name__ == "__main__":
    main()
