"""Run a command unless it has already passed on exactly these inputs, on this machine.

    python scripts/run_once.py NAME INPUT... -- COMMAND...

The inputs are files; their paths and contents, NAME, the command and this Python's version make
a digest that names a stamp in the machine's cache (``$XDG_CACHE_HOME/switch-service/passed/``,
by default ``~/.cache/…``), written when the command exits 0. While that stamp exists the command
is not run again: one line says so. ``make test`` runs the engine's tests on its sources through
it (docs/decisions/2026-11-28-ci-budget.md): they prove something new only when the engine or
those tests change, and a fresh clone on a machine that already ran them at that version (a
developer's ``make test``, an earlier CI run) finds the stamp. A machine without it runs them.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path


def cache_directory() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "switch-service" / "passed"


def digest(name: str, inputs: list[str], command: list[str]) -> str:
    total = hashlib.sha256()
    for part in [name, sys.version, *command]:
        total.update(part.encode() + b"\0")
    for path in sorted(inputs):
        total.update(path.encode() + b"\0" + hashlib.sha256(Path(path).read_bytes()).digest())
    return total.hexdigest()


def main(arguments: list[str]) -> int:
    if "--" not in arguments or arguments.index("--") < 1:
        print(__doc__, file=sys.stderr)
        return 2
    split = arguments.index("--")
    name, inputs, command = arguments[0], arguments[1:split], arguments[split + 1 :]
    stamp = cache_directory() / f"{name}-{digest(name, inputs, command)}"
    if stamp.exists():
        print(f"{name}: passed on these {len(inputs)} inputs already on this machine ({stamp})")
        return 0
    returncode = subprocess.run(command, check=False).returncode
    if returncode == 0:
        stamp.parent.mkdir(parents=True, exist_ok=True)
        stamp.write_text(" ".join(command) + "\n")
    return returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
