"""Moves judged by when they arrived (switchsite.serving.arrivals): a move that reached the server
before its turn clock ran out is not struck by the clock, however long the server takes to get to
it — waiting for a thread of the pool, or inside the view — and is applied when it gets there."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import ThreadPoolExecutor
from contextlib import AbstractContextManager, contextmanager
from datetime import timedelta
from typing import Any

import orjson
import pytest
from django.contrib.auth import get_user_model
from django.db import connections
from django.utils import timezone

from games import services
from games.models import Match, MatchEvent, Seat
from switchsite import asgi
from tests.api.test_matches import LAYOUT
from tests.conftest import with_game_powers
from tests.serving.conftest import run_in_own_loop

pytestmark = pytest.mark.django_db(transaction=True)

HOLD_SECONDS = 30  # how long a held move waits for the test at most (a failing test ends)


async def asgi_request(path: str, body: Any, token: str) -> tuple[int, dict[str, Any]]:
    """A JSON ``POST`` through the service's ASGI application, as uvicorn hands it over."""
    payload = orjson.dumps(body)
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
            (b"content-length", str(len(payload)).encode()),
            (b"authorization", f"Token {token}".encode()),
        ],
        "client": ("127.0.0.1", 50000),
        "server": ("127.0.0.1", 80),
    }
    messages = [{"type": "http.request", "body": payload, "more_body": False}]
    answer: dict[str, Any] = {"body": b""}

    async def receive() -> dict[str, Any]:
        return messages.pop() if messages else {"type": "http.disconnect"}

    async def send(message: Mapping[str, Any]) -> None:
        if message["type"] == "http.response.start":
            answer["status"] = message["status"]
        elif message["type"] == "http.response.body":
            answer["body"] += message.get("body", b"")

    await asgi.application(scope, receive, send)
    return answer["status"], orjson.loads(answer["body"])


@pytest.fixture
def clocked() -> tuple[Match, str]:
    """A started heads-up match with a 30-second turn clock, and the token of its creator, who holds
    seat 0 and is to move (LAYOUT: 7H on the starter 9H)."""
    users = get_user_model().objects
    creator, token = services.player_register(username="clocked", password="a-long-password")
    with_game_powers(creator)
    created = services.match_create(
        creator=creator, ruleset="switch", seats=2, turn_seconds=30, layout=LAYOUT
    )
    services.match_join(match_id=created.pk, user=users.create_user("other"))
    return services.match_start(match_id=created.pk, user=creator).match, token


@contextmanager
def held_before_a_thread(reached: threading.Event, release: threading.Event) -> Iterator[None]:
    """The thread pool is busy: the move waits before any thread takes it."""
    ordinary = asgi.ordinary_application

    async def busy(scope: Any, receive: Any, send: Any) -> None:
        reached.set()
        await asyncio.get_running_loop().run_in_executor(None, release.wait, HOLD_SECONDS)
        await ordinary(scope, receive, send)

    asgi.ordinary_application = busy  # type: ignore[assignment]
    try:
        yield
    finally:
        asgi.ordinary_application = ordinary


@contextmanager
def held_in_the_view(reached: threading.Event, release: threading.Event) -> Iterator[None]:
    """The move is in its view, and its service is slow to get to it."""
    apply = services.action_apply

    def slow(**kwargs: Any) -> Any:
        reached.set()
        release.wait(HOLD_SECONDS)
        return apply(**kwargs)

    services.action_apply = slow
    try:
        yield
    finally:
        services.action_apply = apply


def in_a_thread(function: Callable[[], Any]) -> Any:
    """Run ``function`` as a worker or the in-process beat does: in a thread with a connection (and
    the shared cache, with no test's key prefix) of its own."""

    def run() -> Any:
        try:
            return function()
        finally:
            connections.close_all()

    with ThreadPoolExecutor(max_workers=1) as executor:
        return executor.submit(run).result()


@pytest.mark.parametrize("held", [held_before_a_thread, held_in_the_view])
def test_a_move_that_arrived_in_time_is_applied_and_never_struck(
    clocked, held: Callable[[threading.Event, threading.Event], AbstractContextManager[None]]
) -> None:
    match, token = clocked
    reached, release = threading.Event(), threading.Event()
    move = asgi_request(
        f"/api/v1/matches/{match.pk}/moves/", {"action": "play", "card": "7H"}, token
    )
    with held(reached, release), ThreadPoolExecutor(max_workers=1) as client:
        try:
            answer = client.submit(run_in_own_loop, move)
            assert reached.wait(HOLD_SECONDS)
            past = timezone.now() - timedelta(seconds=1)
            Match.objects.filter(pk=match.pk).update(turn_deadline=past)  # time ran out meanwhile
            struck_while_held = in_a_thread(lambda: services.turn_timeout_apply(match_id=match.pk))
        finally:
            release.set()
        status, body = answer.result(timeout=HOLD_SECONDS)

    assert struck_while_held is False
    assert status == 201, body
    assert [event["type"] for event in body["events"]] == ["play"]
    assert not MatchEvent.objects.filter(match=match, type="timeout").exists()
    assert Seat.objects.get(match=match, index=0).strikes == 0
    # Answered, the move holds the clock no more: the next seat's runs out, and is struck.
    Match.objects.filter(pk=match.pk).update(turn_deadline=timezone.now() - timedelta(seconds=1))
    assert in_a_thread(lambda: services.turn_timeout_apply(match_id=match.pk)) is True
    assert Seat.objects.get(match=match, index=1).strikes == 1
