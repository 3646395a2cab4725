"""The watch on the Content-Security-Policy (``policy_violations`` in conftest.py) sees what the
policy refuses: every browser test that uses it would otherwise pass whatever the pages do."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import Browser

from tests.browser.conftest import PolicyViolations

pytestmark = pytest.mark.django_db(transaction=True)

# What a page injected with content would try: a style of its own, a script of its own, and a
# request to another site.
INJECTED = """() => {
  const style = document.createElement("style");
  style.textContent = "body { color: red; }";
  document.head.append(style);
  const script = document.createElement("script");
  script.textContent = "window.ran = true;";
  document.head.append(script);
  const image = new Image();
  image.src = "http://elsewhere.invalid/pixel.png";
  document.body.append(image);
}"""


def test_an_inline_style_a_script_and_another_origin_are_refused_and_reported(
    browser: Browser, live_server
):
    violations = PolicyViolations()
    context = violations.watch(browser.new_context(base_url=live_server.url))
    page = context.new_page()
    page.goto("/tournaments/")
    assert violations.seen == []

    page.evaluate(INJECTED)
    deadline = time.monotonic() + 10
    while len(violations.seen) < 3 and time.monotonic() < deadline:
        page.wait_for_timeout(50)

    refused = sorted(seen.split(": ", 1)[1].split(" refused ")[0] for seen in violations.seen)
    assert refused == ["img-src", "script-src-elem", "style-src-elem"], violations.seen
    assert page.evaluate("() => window.ran") is None
    context.close()
