"""switchgame is a library of its own: its examples run, and it installs and plays without the
service (``pip install ./switchgame``: docs/architecture.md, "The layers")."""

from __future__ import annotations

import doctest
import importlib
import importlib.metadata
import re
import shutil
import subprocess
import sys
from email.parser import Parser
from pathlib import Path

import pytest

import switchgame

PACKAGE = Path(switchgame.__file__).parent
WITH_EXAMPLES = sorted(
    ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts).removesuffix(".__init__")
    for path in PACKAGE.rglob("*.py")
    if ">>> " in path.read_text()
)

# Run with nothing but the standard library and the installed package on its path: no
# site-packages (-S), no environment, no current directory (-I).
PLAY_ALONE = """
import doctest, importlib.util, sys
sys.path[:0] = [sys.argv[1]]
import switchgame, switchgame.ratings
assert switchgame.__file__.startswith(sys.argv[1]), switchgame.__file__
for module in (switchgame, switchgame.ratings):
    result = doctest.testmod(module)
    assert result.attempted and not result.failed, (module, result)
assert importlib.util.find_spec("django") is None
print(sorted(name for name in sys.modules if name.partition(".")[0] in ("django", "games")))
"""


def test_the_package_has_examples() -> None:
    assert {"switchgame", "switchgame.ratings"} <= set(WITH_EXAMPLES)


@pytest.mark.parametrize("name", WITH_EXAMPLES)
def test_the_examples_of_a_module_run(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples in {name} failed"


def test_the_package_installs_alone_and_plays_a_match(tmp_path: Path) -> None:
    # A copy of the package's sources (no build), so that the build writes nothing in the project.
    source = tmp_path / "source" / "switchgame"
    shutil.copytree(
        PACKAGE,
        source,
        ignore=shutil.ignore_patterns("__pycache__", "*.so", "compiled-sources.json"),
    )
    target = tmp_path / "installed"
    install = [sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
    # Offline: no index, setuptools from this environment, openskill copied in below as pip
    # would fetch it, the one requirement the package declares.
    offline = ["--no-deps", "--no-build-isolation", "--no-index", "--target", str(target)]
    done = subprocess.run([*install, *offline, str(source)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    (metadata_file,) = target.glob("switchgame-*.dist-info/METADATA")
    metadata = Parser().parsestr(metadata_file.read_text())
    requirements = metadata.get_all("Requires-Dist") or []
    assert [re.split(r"[^\w.-]", requirement)[0] for requirement in requirements] == ["openskill"]
    assert sorted(path.name for path in target.iterdir()) == [
        "switchgame",
        metadata_file.parent.name,
    ]
    assert (target / "switchgame" / "py.typed").exists()  # its hints are read by type checkers
    # openskill, as pip would install it from the index: the files its own install recorded.
    for file in importlib.metadata.distribution("openskill").files or []:
        (target / file).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(file.locate(), target / file)

    alone = [sys.executable, "-S", "-I", "-c", PLAY_ALONE, str(target)]
    played = subprocess.run(alone, capture_output=True, text=True, cwd=tmp_path)
    assert played.returncode == 0, played.stderr
    assert played.stdout.split() == ["[]"]
