"""Streams stay open as long as their clients keep them, with a comment line at least every 25 s
(docs/api.md, "Server-Sent Events"): a day of a quiet stream, lived in moments on a loop whose
clock jumps from timer to timer."""

from __future__ import annotations

import asyncio
import selectors
from typing import Any

import pytest
from django.conf import settings

from games.api import waiting
from switchsite.serving import notifier

HOURS = 24
CONTRACT_KEEPALIVE_SECONDS = 25


class JumpingSelector(selectors.DefaultSelector):
    """Never sleeps: when nothing is ready it moves the loop's clock on to the next timer."""

    def __init__(self) -> None:
        super().__init__()
        self.now = 0.0

    def select(self, timeout: float | None = None) -> Any:
        ready = super().select(0)
        if not ready and timeout:
            self.now += timeout
        return ready


class VirtualClockLoop(asyncio.SelectorEventLoop):
    """An event loop on a clock of its own that jumps from timer to timer: a day of a quiet
    stream passes in moments, every keep-alive at the loop time it was due."""

    def __init__(self) -> None:
        self._selector_clock = JumpingSelector()
        super().__init__(self._selector_clock)

    def time(self) -> float:
        return self._selector_clock.now


async def quiet_stream_for(seconds: float) -> tuple[list[float], bool]:
    """A stream with nothing to send, read for ``seconds`` of loop time: when each comment line
    came, and whether the stream was still open at the end."""

    async def nothing_new(after: int) -> waiting.Batch:
        return [], False

    loop = asyncio.get_running_loop()
    opened = loop.time()
    stream = waiting.event_stream(nothing_new, [notifier.match_topic(1)], 0)
    comments: list[float] = []
    try:
        async with asyncio.timeout(seconds):
            async for message in stream:
                if message.startswith(":"):
                    comments.append(loop.time() - opened)
    except TimeoutError:
        return comments, True
    return comments, False


@pytest.fixture
def in_process_hub(monkeypatch: pytest.MonkeyPatch) -> None:
    """The waiters' hub without the database's listener (whatever database the suite runs on),
    open: a server stopped earlier in this process left it closing."""
    monkeypatch.setattr(notifier, "uses_postgresql", lambda: False)
    monkeypatch.setattr(notifier.hub, "closing", False)


@pytest.mark.usefixtures("in_process_hub")
def test_a_quiet_stream_stays_open_for_hours_with_a_comment_at_least_every_25_s():
    assert settings.SSE_MAX_SECONDS is None  # the service's default: no forced end

    with asyncio.Runner(loop_factory=VirtualClockLoop) as runner:
        comments, still_open = runner.run(quiet_stream_for(HOURS * 3600))

    assert still_open
    gaps = [later - earlier for earlier, later in zip([0.0, *comments], comments, strict=False)]
    assert len(comments) >= HOURS * 3600 / CONTRACT_KEEPALIVE_SECONDS
    assert max(gaps) <= CONTRACT_KEEPALIVE_SECONDS


@pytest.mark.usefixtures("in_process_hub")
def test_an_operators_sse_max_seconds_still_ends_streams_after_it(settings: Any):
    settings.SSE_MAX_SECONDS = 600

    with asyncio.Runner(loop_factory=VirtualClockLoop) as runner:
        _, still_open = runner.run(quiet_stream_for(HOURS * 3600))

    assert not still_open
