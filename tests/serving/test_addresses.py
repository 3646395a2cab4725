"""The client's address (``switchsite.serving.addresses``): only what the trusted proxies wrote is
believed, so a client that forges ``X-Forwarded-For`` is still the caller it is — still throttled,
and still locked out after too many failed logins."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import pytest
from django.core.cache import caches

from switchsite.asgi import application
from switchsite.serving.addresses import client_address
from tests.serving.conftest import PROJECT_ROOT, run_in_own_loop

CLIENT, PROXY = "203.0.113.7", "10.0.0.2"


def forwarded(*values: str) -> list[tuple[bytes, bytes]]:
    return [(b"x-forwarded-for", value.encode()) for value in values]


@pytest.mark.parametrize(
    ("headers", "trusted", "address"),
    [
        ([], 0, PROXY),  # no proxy: the peer
        (forwarded("198.51.100.1"), 0, PROXY),  # no proxy trusted: the header is the client's own
        (forwarded(CLIENT), 1, CLIENT),  # the proxy set it
        (forwarded(f"198.51.100.1, {CLIENT}"), 1, CLIENT),  # the client's forgery, then the proxy's
        (forwarded("198.51.100.1", CLIENT), 1, CLIENT),  # the same over two header lines
        (forwarded(f"198.51.100.1, {CLIENT}, 10.0.0.9"), 2, CLIENT),  # two proxies
        (forwarded(CLIENT), 2, CLIENT),  # fewer entries than proxies: the leftmost
        (forwarded("unknown"), 1, PROXY),  # not an address: the peer
        ([], 1, PROXY),  # no header at all
        (forwarded("2001:db8::7"), 1, "2001:db8::7"),
    ],
)
def test_the_client_is_what_the_outermost_trusted_proxy_wrote(headers, trusted, address):
    assert client_address(headers, PROXY, trusted) == address


def test_the_balancer_in_deploy_writes_the_clients_address_over_the_clients_own():
    """docs/operations.md has TRUSTED_PROXIES=1 behind deploy/haproxy.cfg: that holds only while
    HAProxy replaces X-Forwarded-For (a merge once dropped the line, and with it the protection)."""
    frontend = (PROJECT_ROOT / "deploy" / "haproxy.cfg").read_text().split("\nfrontend ", 1)[1]
    rules = [line.strip() for line in frontend.split("\nbackend ", 1)[0].splitlines()]

    assert "http-request set-header X-Forwarded-For %[src]" in rules
    assert "option forwardfor" not in rules  # it would append to the client's value instead


async def asgi_post(
    path: str, headers: list[tuple[bytes, bytes]], username: str = "nobody"
) -> tuple[int, dict[bytes, bytes]]:
    """A wrong password posted through the service's ASGI application, as uvicorn hands it over
    from the proxy at PROXY."""
    answer: dict[str, Any] = {}
    body = f'{{"username": "{username}", "password": "wrong-password"}}'.encode()
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [
            (b"host", b"127.0.0.1"),
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
            *headers,
        ],
        "client": (PROXY, 50000),
        "server": ("127.0.0.1", 80),
    }
    messages = [{"type": "http.request", "body": body, "more_body": False}]

    async def receive() -> dict[str, Any]:
        return messages.pop() if messages else {"type": "http.disconnect"}

    async def send(message: Mapping[str, Any]) -> None:
        if message["type"] == "http.response.start":
            answer["status"] = message["status"]
            answer["headers"] = dict(message["headers"])

    await application(scope, receive, send)
    return answer["status"], answer["headers"]


@pytest.mark.django_db(transaction=True)
def test_a_client_forging_x_forwarded_for_is_still_throttled(settings):
    """Behind one proxy that appends the address it was reached from, a new forged address per
    request does not make a new caller: the token endpoint's per-address limit still holds."""
    settings.TRUSTED_PROXIES = 1
    settings.AXES_FAILURE_LIMIT = 1000  # the login lockout is the next test's
    counters, key = caches.create_connection("default"), f"throttle_registration_{CLIENT}"
    counters.delete(key)  # the server's threads count without this test's cache key prefix
    limit = int(settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]["registration"].split("/")[0])

    answers = guesses(limit + 1, username=lambda n: "nobody")

    assert [status for status, _ in answers[:limit]] == [400] * limit  # wrong password
    status, headers = answers[limit]
    assert status == 429
    assert int(headers[b"retry-after"]) > 0
    assert len(counters.get(key)) == limit  # counted as the client's, not the proxy's
    counters.delete(key)


@pytest.mark.django_db(transaction=True)
def test_guessing_other_accounts_under_made_up_addresses_is_locked_out_by_address(settings):
    """The login lockout (django-axes, on the thread pool the ASGI application serves the token
    endpoint from) counts the client's address too: a new account and a new forged address per
    guess are still one address."""
    settings.TRUSTED_PROXIES = 1
    caches.create_connection("default").delete(f"throttle_registration_{CLIENT}")
    limit = settings.AXES_FAILURE_LIMIT

    answers = guesses(limit, username=lambda n: f"u{n}")

    assert [status for status, _ in answers] == [400] * (limit - 1) + [429]
    assert int(answers[-1][1][b"retry-after"]) > 60


def guesses(count: int, username: Callable[[int], str]) -> list[tuple[int, dict[bytes, bytes]]]:
    """``count`` wrong passwords from CLIENT, each under a new forged address."""

    async def each() -> list[tuple[int, dict[bytes, bytes]]]:
        return [
            await asgi_post(
                "/api/v1/auth/token/",
                forwarded(f"198.51.100.{n}, {CLIENT}"),
                username=username(n),
            )
            for n in range(count)
        ]

    return run_in_own_loop(each())
