"""Browser tests: Debian's headless Chromium driven by Playwright, against pytest-django's
``live_server``.

Playwright drives the system's ``/usr/bin/chromium`` (``executable_path``); it never downloads a
browser of its own. Without Chromium the tests skip on a developer's machine and fail in CI
(``CI=true``), where ``.ci/run`` installs it. Each launch gets a fresh, empty profile directory
(Playwright makes one per launch), and the flags below keep Chromium from reaching the network on
its own: this machine's network is closed, and background networking floods refused connections.

Screenshots go to ``.artifacts/browser/`` (git-ignored): CI keeps them as artefacts.

What the pages' Content-Security-Policy refuses, Chromium reports to the page (the
``securitypolicyviolation`` event): the contexts of ``page`` and ``play_contexts`` pass each report
to :class:`PolicyViolations`, and a test whose pages were refused anything fails.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from django.contrib.auth import get_user_model
from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler
from django.db import connections
from playwright.sync_api import (
    Browser,
    BrowserContext,
    Page,
    ViewportSize,
    expect,
    sync_playwright,
)

from benchmarks.shape import CHROMIUM_FLAGS, chromium_path, free_port
from switchsite.asgi import application
from tests.conftest import IN_CI

ARTIFACTS = Path(__file__).resolve().parents[2] / ".artifacts" / "browser"
PHONE: ViewportSize = {"width": 390, "height": 844}
DESKTOP: ViewportSize = {"width": 1280, "height": 900}
LAPTOP: ViewportSize = {"width": 1280, "height": 800}
PASSWORD = "desk-password"
# Assertions wait as long as a context's actions do (10 s): CI shares two cores with the rest of
# the suite, and a page that shows in 6 s there is slow, not wrong (speed is the benchmarks').
expect.set_options(timeout=10_000)


@pytest.fixture(scope="package")
def browser() -> Iterator[Browser]:
    """Chromium for this folder's tests, launched once in each test process (pytest-xdist hands a
    process its tests in the order they were collected, so the folder's tests are together).
    Not for the session: Playwright's sync API keeps an event loop running in this thread while
    it is open, and later tests (tests/serving) need to run their own."""
    executable = chromium_path()
    if executable is None:
        if IN_CI:
            pytest.fail("CI=true but Chromium is not installed (apt-get install chromium)")
        pytest.skip("Chromium is not installed: browser tests skipped")
    # Playwright's sync API keeps an event loop in this thread; Django then refuses ORM calls
    # from it unless told that the loop is not running Django code (the tests set up data).
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
        with sync_playwright() as playwright:
            launched = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_FLAGS)
            yield launched
            launched.close()


# Run in every document before its own scripts (Playwright's init scripts are not subject to the
# page's policy): each violation the browser reports goes to the test.
REPORT_VIOLATIONS = """
document.addEventListener("securitypolicyviolation", (event) => {
  window.reportPolicyViolation(
    `${event.effectiveDirective} refused ${event.blockedURI || "?"}`
      + ` (${event.sourceFile || "the page"}:${event.lineNumber}) ${event.sample}`.trimEnd());
});
"""


class PolicyViolations:
    """What Chromium refused on the pages of the contexts watched, each with the page's address."""

    def __init__(self) -> None:
        self.seen: list[str] = []
        self.expected: list[str] = []

    def expect(self, violation: str) -> None:
        """A refusal the test asks for (the policy at work, not a page it breaks): it must be
        seen, and is not counted against the page."""
        self.expected.append(violation)

    def unexpected(self) -> list[str]:
        return [seen for seen in self.seen if not any(e in seen for e in self.expected)]

    def missing(self) -> list[str]:
        return [e for e in self.expected if not any(e in seen for seen in self.seen)]

    def watch(self, context: BrowserContext) -> BrowserContext:
        context.expose_binding("reportPolicyViolation", self._report)
        context.add_init_script(REPORT_VIOLATIONS)
        return context

    def _report(self, source: dict[str, Any], violation: str) -> None:
        self.seen.append(f"{source['frame'].url}: {violation}")


@pytest.fixture
def policy_violations() -> Iterator[PolicyViolations]:
    """The test fails if any page of a context it watches was refused anything by the policy."""
    violations = PolicyViolations()
    yield violations
    assert not violations.unexpected(), "\n".join(
        ["Content-Security-Policy violations:", *violations.unexpected()]
    )
    assert not violations.missing(), f"refusals expected, not seen: {violations.missing()}"


@pytest.fixture
def page(browser: Browser, live_server, policy_violations: PolicyViolations) -> Iterator[Page]:
    """A fresh browser context (no cookies) at desktop size, its base URL the live server; a
    Content-Security-Policy violation on any of its pages fails the test."""
    context = policy_violations.watch(
        browser.new_context(viewport=DESKTOP, base_url=live_server.url)
    )
    context.set_default_timeout(10_000)
    opened = context.new_page()
    yield opened
    context.close()


@pytest.fixture
def staff_page(page: Page, transactional_db) -> Page:
    """``page`` logged in to the admin as a superuser."""
    get_user_model().objects.create_superuser("desk", "desk@example.invalid", PASSWORD)
    page.goto("/admin/login/")
    page.fill("#id_username", "desk")
    page.fill("#id_password", PASSWORD)
    page.click("input[type=submit]")
    page.wait_for_url("**/admin/")
    return page


def screenshot(page: Page, name: str, **options) -> Path:
    """Keep a screenshot for CI's artefacts (never committed)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), **options)
    return path


@pytest.fixture
def asgi_server(transactional_db, tasks_in_process, settings) -> Iterator[str]:
    """The service served by uvicorn in a thread of this process, as ``make run`` serves it:
    ``switchsite.asgi`` (streams and long polls on the event loop, other views on the thread
    pool), bots playing in-process, its static files found in the apps. pytest-django's
    ``live_server`` is a WSGI server, which can only send a stream once it has ended.

    Its connections to the test database close after each request, and those that outlive it
    are ended, so that none is left open when the database is dropped (on PostgreSQL a database
    with a connection cannot be)."""
    sessions_before = _sessions()
    database = connections["default"].settings_dict
    keep_for = database["CONN_MAX_AGE"]
    database["CONN_MAX_AGE"] = 0
    port = free_port()
    server = uvicorn.Server(
        uvicorn.Config(
            # The stubs name Django's own handler; the handler takes any ASGI application.
            ASGIStaticFilesHandler(application),  # type: ignore[arg-type]
            host="127.0.0.1",
            port=port,
            lifespan="on",
            log_level="warning",
            timeout_graceful_shutdown=2,
        )
    )
    thread = threading.Thread(target=server.run, name="asgi-server", daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            pytest.fail("the ASGI server did not start")
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=20)
        database["CONN_MAX_AGE"] = keep_for
        _end_sessions_opened_since(sessions_before)


def _sessions() -> set[int]:
    """The backends on the test database now (on PostgreSQL), the test's own among them."""
    connection = connections["default"]
    if connection.vendor != "postgresql":
        return set()
    with connection.cursor() as cursor:
        cursor.execute("SELECT pid FROM pg_stat_activity WHERE datname = current_database()")
        return {pid for (pid,) in cursor.fetchall()}


def _end_sessions_opened_since(before: set[int]) -> None:
    """End the server's sessions that outlive it: the in-process sweeps (no broker:
    ``switchsite.serving.beat`` runs its schedule) keep a connection in each of their threads.
    Those open before it started are the test process's own and are spared: ending every session
    but the teardown's own also ended the connection the next test went on to use (the backup
    drill after the seat-link test failed so)."""
    connection = connections["default"]
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
            " AND NOT pid = ANY(%s)",
            [sorted(before)],
        )


@pytest.fixture
def play_contexts(
    browser: Browser, asgi_server: str, policy_violations: PolicyViolations
) -> Iterator[list[BrowserContext]]:
    """Three browsers' worth of laptop-sized contexts (nothing shared between them) on the
    in-process server, for the web client's tests; watched for policy violations."""
    made = [
        policy_violations.watch(browser.new_context(viewport=LAPTOP, base_url=asgi_server))
        for _ in range(3)
    ]
    for context in made:
        context.set_default_timeout(15_000)
    yield made
    for context in made:
        context.close()
