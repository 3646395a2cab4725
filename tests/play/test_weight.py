"""What a table costs a phone to load: the scripts and style the table's page loads, held to a
budget (docs/performance.md, "The web client's weight"). The page's own HTML names them; a module
brings the modules it imports, and the browser catalogue is counted in French, the longer one."""

from __future__ import annotations

import re
from pathlib import Path

from django.conf import settings
from django.contrib.staticfiles import finders
from django.test import Client

# Bytes as served before compression; the budget leaves the table room to grow by about a fifth.
SCRIPT_BUDGET = 200_000
STYLE_BUDGET = 24_000
# A module's static imports and re-exports (the client has no dynamic import).
IMPORTED = re.compile(r"^(?:import|export)\b[^;]*?\bfrom\s+\"(\.{1,2}/[^\"]+)\"", re.MULTILINE)


def module_graph(entry: Path) -> set[Path]:
    """The module and every module it imports, transitively."""
    found: set[Path] = set()
    waiting = [entry.resolve()]
    while waiting:
        module = waiting.pop()
        if module in found:
            continue
        found.add(module)
        waiting += [
            (module.parent / name).resolve() for name in IMPORTED.findall(module.read_text())
        ]
    return found


def static_file(url: str) -> Path:
    found = finders.find(url.removeprefix("/" + settings.STATIC_URL.strip("/") + "/"))
    assert isinstance(found, str), url
    return Path(found)


def table_weight() -> tuple[dict[str, int], dict[str, int]]:
    """The table's scripts and styles as its page loads them: bytes by name."""
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "fr"
    html = client.get("/play/matches/1/").content.decode()
    scripts: dict[str, int] = {}
    for src in re.findall(r"<script[^>]*\ssrc=\"([^\"]+)\"", html):
        if src.startswith("/" + settings.STATIC_URL.strip("/") + "/"):
            for module in module_graph(static_file(src)):
                scripts[module.name] = len(module.read_bytes())
        else:
            scripts[src] = len(client.get(src).content)
    styles = {
        href: len(static_file(href).read_bytes())
        for href in re.findall(r"<link rel=\"stylesheet\" href=\"([^\"]+)\"", html)
    }
    return scripts, styles


def test_a_table_loads_no_more_script_and_style_than_its_budget():
    scripts, styles = table_weight()

    # What is counted is what the table runs: its modules, Preact, the catalogue.
    assert {"match.js", "table.js", "tablestate.js", "preact.mjs"} <= set(scripts)
    assert any(name.endswith("catalog.js") for name in scripts)
    assert sum(scripts.values()) <= SCRIPT_BUDGET, sorted(scripts.items(), key=lambda kv: -kv[1])
    assert sum(styles.values()) <= STYLE_BUDGET, styles
