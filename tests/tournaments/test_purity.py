"""The tournaments' rules stay pure: every module of ``tournaments/core/`` (seating, who met whom,
the seating search, scoring, results, rating math, the chart) imports no Django, DRF or Celery, so
they are tested and reasoned about as plain functions."""

from pathlib import Path

import pytest

from tests.engine.test_purity import FORBIDDEN, imported_modules

CORE = Path(__file__).resolve().parents[2] / "tournaments" / "core"


@pytest.mark.parametrize("module", sorted(CORE.glob("*.py")), ids=lambda path: path.name)
def test_no_framework_imports(module: Path) -> None:
    modules = imported_modules(module.read_text())
    assert not {m for m in modules if m.split(".")[0] in FORBIDDEN}


def test_the_core_imports_nothing_of_the_service() -> None:
    """Only the games' pure rules (and the core itself) from the project: no models, services."""
    project = ("games", "tournaments", "switchsite")
    imported = {m for path in CORE.glob("*.py") for m in imported_modules(path.read_text())}
    ours = {m for m in imported if m.split(".")[0] in project}
    assert {
        m for m in ours if not m.startswith(("games.engine", "games.abbott", "tournaments.core"))
    } == set()
