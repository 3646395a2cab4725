"""The examples in the docs run: every Python example (``>>>``) in a page of ``docs/`` is a doctest,
so a page cannot drift from the code it shows."""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parents[1] / "docs"
PAGES = sorted(page for page in DOCS.rglob("*.md") if ">>> " in page.read_text())


def test_the_docs_have_examples_to_run() -> None:
    assert {"fair-shuffles.md", "architecture.md", "notation.md"} <= {page.name for page in PAGES}


@pytest.mark.parametrize("page", PAGES, ids=lambda page: str(page.relative_to(DOCS)))
def test_the_examples_of_a_page_run(page: Path) -> None:
    result = doctest.testfile(
        str(page), module_relative=False, optionflags=doctest.ELLIPSIS, verbose=False
    )
    assert result.attempted > 0
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples in {page} failed"
