"""The tournaments' rules stay pure: seating, scoring, ratings, results and the chart
import no Django, DRF or Celery, so they are tested and reasoned about as plain functions."""

from pathlib import Path

import pytest

from tests.engine.test_purity import FORBIDDEN, imported_modules

PURE = ["seating.py", "scoring.py", "ratings.py", "results.py", "charts.py"]
TOURNAMENTS = Path(__file__).resolve().parents[2] / "tournaments"


@pytest.mark.parametrize("name", PURE)
def test_no_framework_imports(name: str) -> None:
    modules = imported_modules((TOURNAMENTS / name).read_text())
    assert not {m for m in modules if m.split(".")[0] in FORBIDDEN}
