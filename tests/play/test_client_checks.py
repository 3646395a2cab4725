"""The web client's modules are plain JavaScript, served as they are (nothing to build), and
checked: ``npm run check`` in ``play/`` generates the API's types from the committed schema
(openapi-typescript), type-checks every module against them (``tsc`` with ``checkJs``, strict),
lints and format-checks them (Biome), and runs the tests of the modules that need no browser
(``node --test``: the stream parser, cards and events in words)."""

from __future__ import annotations

import shutil

import pytest

from tests.clients.conftest import run
from tests.conftest import IN_CI
from tests.serving.conftest import PROJECT_ROOT

CLIENT = PROJECT_ROOT / "play"


def test_the_client_type_checks_against_the_api_schema_and_lints_clean():
    if shutil.which("npm") is None or shutil.which("node") is None:
        if IN_CI:
            pytest.fail("CI=true but Node.js (node, npm) is not installed: the client is unchecked")
        pytest.skip("needs Node.js (node and npm)")
    run(["npm", "ci", "--no-audit", "--no-fund"], cwd=CLIENT)

    checked = run(["npm", "run", "check"], cwd=CLIENT)

    assert "error TS" not in checked.stdout
    assert "# fail 0" in checked.stdout
    generated = (CLIENT / "types" / "schema.d.ts").read_text()
    assert "SheddingView" in generated
