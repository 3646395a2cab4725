"""The examples in the docs run: every Python example (``>>>``) in a page of ``docs/`` is a doctest,
so a page cannot drift from the code it shows."""

from __future__ import annotations

import doctest
import re
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


# The guides a French club reads, each beside the English page it translates.
FRENCH_GUIDES = {"fr/tournois.md": "tournaments.md", "fr/jouer.md": "play.md"}


@pytest.mark.parametrize(("french", "english"), FRENCH_GUIDES.items())
def test_a_french_guide_is_linked_both_ways_and_keeps_the_english_sections(
    french: str, english: str
) -> None:
    """Each links to the other, the README to both, and the French has a section for each
    English one: a section added in English without its French shows here."""
    french_text, english_text = (DOCS / french).read_text(), (DOCS / english).read_text()
    assert f"(../{english})" in french_text
    assert f"({french})" in english_text
    assert f"(docs/{french})" in (DOCS.parent / "README.md").read_text()
    assert french_text.count("\n## ") == english_text.count("\n## ")
    for target in re.findall(r"\]\(([^)#:]+)(?:#[^)]*)?\)", french_text):
        assert (DOCS / french).parent.joinpath(target).resolve().exists(), target
