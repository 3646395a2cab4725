"""The API docs render in a real browser with no network: Swagger UI and Redoc come from the service
(drf-spectacular-sidecar), the schema from ``/api/v1/schema/``."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, Route

from tests.browser.conftest import PolicyViolations, screenshot

pytestmark = pytest.mark.django_db(transaction=True)


def offline(page: Page, live_server) -> list[str]:
    """Refuse every request that is not to the service itself; returns the URLs requested."""
    requested: list[str] = []

    def route(route: Route) -> None:
        requested.append(route.request.url)
        if route.request.url.startswith(live_server.url):
            route.continue_()
        else:
            route.abort("blockedbyclient")

    page.route("**/*", route)
    return requested


def test_swagger_ui_lists_the_operations_with_no_network(page: Page, live_server):
    requested = offline(page, live_server)

    page.goto("/api/v1/docs/")
    page.wait_for_selector(".opblock-summary-path", timeout=60_000)

    paths = page.locator(".opblock-summary-path").all_inner_texts()
    assert "/api/v1/matches/{match_id}/moves/" in paths
    assert "/api/v1/challenges/" in paths
    assert all(url.startswith(live_server.url) for url in requested), requested
    screenshot(page, "api-docs")


def test_redoc_renders_the_schema_with_no_network(
    page: Page, live_server, policy_violations: PolicyViolations
):
    requested = offline(page, live_server)
    # Redoc's badge asks for its logo from Redocly's site, always: the policy refuses it.
    policy_violations.expect("img-src refused https://cdn.redoc.ly/")

    page.goto("/api/v1/redoc/")
    page.locator("h2", has_text="Apply one action").wait_for(timeout=60_000)

    assert all(url.startswith(live_server.url) for url in requested), requested
    screenshot(page, "api-redoc")
