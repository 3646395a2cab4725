"""The French catalogues are whole: every string a person reads, in the templates, the Python and
the browser's scripts, is in them and translated, none fuzzy, and the service reads what they say.

``make messages`` gathers the strings; these tests gather them again in a copy of the project and
fail on any that the catalogue lacks, so a string added anywhere without its French is caught here.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import polib
import pytest
from django.utils import translation

ROOT = Path(__file__).resolve().parents[1]
MESSAGES = ROOT / "locale" / "fr" / "LC_MESSAGES"
DOMAINS = ("django", "djangojs")


def keys(catalogue: polib.POFile) -> set[tuple[str | None, str]]:
    return {(entry.msgctxt, entry.msgid) for entry in catalogue if not entry.obsolete}


@pytest.fixture(scope="module")
def gathered(tmp_path_factory: pytest.TempPathFactory) -> dict[str, polib.POFile]:
    """``makemessages`` run in a copy of the project's files (the repository's stay untouched)."""
    copy = tmp_path_factory.mktemp("project")
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
        cwd=ROOT,
        capture_output=True,
        check=True,
    ).stdout.decode()
    for name in filter(None, listed.split("\0")):
        source = ROOT / name
        if source.is_file():
            (copy / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, copy / name)
    environment = {**os.environ, "DJANGO_SETTINGS_MODULE": "switchsite.settings", "DEBUG": "true"}
    for domain in DOMAINS:
        subprocess.run(
            [sys.executable, "manage.py", "makemessages", "--locale", "fr", "--domain", domain],
            cwd=copy,
            env=environment,
            capture_output=True,
            check=True,
        )
    return {
        domain: polib.pofile(str(copy / "locale/fr/LC_MESSAGES" / f"{domain}.po"))
        for domain in DOMAINS
    }


@pytest.mark.parametrize("domain", DOMAINS)
def test_every_string_of_the_sources_is_in_the_catalogue(
    gathered: dict[str, polib.POFile], domain: str
) -> None:
    kept = polib.pofile(str(MESSAGES / f"{domain}.po"))
    missing = keys(gathered[domain]) - keys(kept)
    unused = keys(kept) - keys(gathered[domain])
    assert not missing, f"not in {domain}.po (run `make messages`, then translate): {missing}"
    assert not unused, f"in {domain}.po but in no source (run `make messages`): {unused}"


@pytest.mark.parametrize("domain", DOMAINS)
def test_every_french_message_is_translated_and_none_is_fuzzy(domain: str) -> None:
    catalogue = polib.pofile(str(MESSAGES / f"{domain}.po"))
    assert len(catalogue) > 0
    untranslated = [entry.msgid for entry in catalogue.untranslated_entries()]
    fuzzy = [entry.msgid for entry in catalogue.fuzzy_entries()]
    assert not untranslated, f"{domain}.po: not translated into French: {untranslated}"
    assert not fuzzy, f"{domain}.po: fuzzy (check the French, then drop the flag): {fuzzy}"


@pytest.mark.parametrize("domain", DOMAINS)
def test_the_service_reads_the_catalogue_as_it_is(domain: str, tmp_path: Path) -> None:
    """The compiled catalogue beside each .po is the one its text compiles to (``make`` compiles
    it; placeholders checked by msgfmt): the service never speaks an older French."""
    compiled = tmp_path / f"{domain}.mo"
    subprocess.run(
        [
            "msgfmt",
            "--check-format",
            "--check-domain",
            "--output-file",
            str(compiled),
            str(MESSAGES / f"{domain}.po"),
        ],
        check=True,
    )
    served = MESSAGES / f"{domain}.mo"
    assert served.exists(), f"{served} is missing: run `make engine`"
    assert served.read_bytes() == compiled.read_bytes(), f"{served} is stale: run `make engine`"


def test_french_is_spoken() -> None:
    with translation.override("fr"):
        assert translation.gettext("Your table") == "Votre table"
