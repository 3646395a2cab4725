"""The rules engines stay pure: nothing under them imports Django, DRF or Celery."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PURE_PACKAGES = ["games/engine", "games/abbott", "games/bots"]
PURE_MODULES = ["games/replay.py"]
FORBIDDEN = {"django", "rest_framework", "celery"}


def imported_modules(source: str) -> set[str]:
    modules = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            modules.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            modules.add(node.module)
        elif isinstance(node, ast.Call) and getattr(
            node.func, "id", getattr(node.func, "attr", "")
        ) in (
            "import_module",
            "__import__",
        ):
            modules.update(
                arg.value
                for arg in node.args[:1]
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str)
            )
    return modules


def pure_files() -> list[Path]:
    packages = [f for package in PURE_PACKAGES for f in (ROOT / package).rglob("*.py")]
    return sorted(packages + [ROOT / module for module in PURE_MODULES])


def test_the_scan_finds_the_engine() -> None:
    names = {str(f.relative_to(ROOT / "games/engine")) for f in pure_files() if "engine" in f.parts}
    assert {"shedding/game.py", "rulesets.py", "cards.py"} <= names


@pytest.mark.parametrize("path", pure_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_framework_imports(path: Path) -> None:
    bad = {m for m in imported_modules(path.read_text()) if m.split(".")[0] in FORBIDDEN}
    assert not bad, f"{path} imports {sorted(bad)}"


def test_the_scan_catches_a_framework_import() -> None:
    source = "import os\nfrom django.db import models\nimportlib.import_module('celery')\n"
    assert {"django.db", "celery"} <= imported_modules(source)
