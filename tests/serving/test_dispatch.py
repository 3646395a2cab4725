"""Which way into the service a request takes (``switchsite.serving.routing``): the views that wait to Django's
ASGI handler, every other one to the WSGI handler on the thread pool."""

from __future__ import annotations

import pytest

from switchsite.serving import routing
from switchsite.serving.routing import waits


@pytest.mark.parametrize(
    "path",
    [
        "/api/v1/players/me/events/",
        "/api/v1/players/me/stream/",
        "/api/v1/matches/12/events/",
        "/api/v1/matches/12/stream",  # served without its slash too
    ],
)
def test_long_polls_and_streams_wait(path):
    assert waits(path)


@pytest.mark.parametrize(
    "path",
    ["/healthz", "/api/v1/players/me/", "/api/v1/matches/12/moves/", "/admin/", "/no/such/page/"],
)
def test_everything_else_runs_on_the_thread_pool(path):
    assert not waits(path)


def test_long_made_up_paths_are_answered_but_not_kept():
    kept = routing._cached_resolves_to_async_view.cache_info().currsize

    for n in range(50):
        assert not waits(f"/api/v1/players/{'x' * 300}{n}/")

    assert routing._cached_resolves_to_async_view.cache_info().currsize == kept
