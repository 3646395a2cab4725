"""TypeScript types generated from the committed schema by ``openapi-typescript`` compile, with the
typed example client of ``examples/typescript/`` (``npm run check``: generate, then ``tsc``)."""

from __future__ import annotations

import shutil

import pytest

from tests.clients.conftest import run
from tests.conftest import IN_CI
from tests.serving.conftest import PROJECT_ROOT

EXAMPLE = PROJECT_ROOT / "examples" / "typescript"


def test_the_generated_typescript_types_compile_with_the_example():
    if shutil.which("npm") is None or shutil.which("node") is None:
        if IN_CI:
            pytest.fail(
                "CI=true but Node.js (node, npm) is not installed: TypeScript types untested"
            )
        pytest.skip("needs Node.js (node and npm)")
    run(["npm", "ci", "--no-audit", "--no-fund"], cwd=EXAMPLE)

    checked = run(["npm", "run", "check"], cwd=EXAMPLE)

    assert "error" not in checked.stdout.lower()
    assert (EXAMPLE / "src" / "schema.d.ts").read_text().count("your_turn") > 0
