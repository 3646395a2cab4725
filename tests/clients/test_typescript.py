"""The TypeScript package (``clients/typescript/``: types generated from the committed schema by
``openapi-typescript``, and a minimal typed client) is checked by ``make lint`` with the web
client's installed tools (``npm run check`` there: generate, then ``tsc``), so that one ``npm ci``
serves both. That is the package's own check only while its tools are the web client's, at the
same versions: this test holds them so."""

from __future__ import annotations

import json

from tests.serving.conftest import PROJECT_ROOT


def dev_dependencies(folder: str) -> dict[str, str]:
    package = json.loads((PROJECT_ROOT / folder / "package.json").read_text())
    return dict(package["devDependencies"])


def test_the_typescript_package_is_checked_with_its_own_tools_at_its_versions():
    package, client = dev_dependencies("clients/typescript"), dev_dependencies("play")

    assert {"openapi-typescript", "typescript"} <= package.keys()
    assert {name: client.get(name) for name in package} == package
