"""The client's address (``switchsite.serving.addresses``): only what the trusted proxies wrote is
believed, so a client that forges ``X-Forwarded-For`` is still the caller it is — and still
throttled."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest
from django.core.cache import caches

from switchsite.asgi import application
from switchsite.serving.addresses import client_address
from tests.serving.conftest import run_in_own_loop

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


async def asgi_post(
    path: str, headers: list[tuple[bytes, bytes]]
) -> tuple[int, dict[bytes, bytes]]:
    """One request through the service's ASGI application, as uvicorn hands it over from the
    proxy at PROXY."""
    answer: dict[str, Any] = {}
    body = b'{"username": "nobody", "password": "wrong-password"}'
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
        "headers": [(b"host", b"127.0.0.1"), (b"content-type", b"application/json"), *headers],
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
    # The server's threads count in the cache without this test's key prefix.
    counters, key = caches.create_connection("default"), f"throttle_registration_{CLIENT}"
    counters.delete(key)
    limit = int(settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]["registration"].split("/")[0])

    async def guesses() -> list[tuple[int, dict[bytes, bytes]]]:
        return [
            await asgi_post("/api/v1/auth/token/", forwarded(f"198.51.100.{n}, {CLIENT}"))
            for n in range(limit + 1)
        ]

    answers = run_in_own_loop(guesses())

    assert [status for status, _ in answers[:limit]] == [400] * limit  # wrong password
    status, headers = answers[limit]
    assert status == 429
    assert int(headers[b"retry-after"]) > 0
    assert len(counters.get(key)) == limit  # counted as the client's, not the proxy's
    counters.delete(key)
