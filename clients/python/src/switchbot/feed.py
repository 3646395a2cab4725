"""The bot's feed as Server-Sent Events, followed for as long as the bot runs: every stream the
server ends, every connection that breaks, every restart of the server is resumed from the last
``seq`` handled (``Last-Event-ID``) in the same incarnation of the database (``?incarnation=``).
Only a cursor the server can no longer follow (410 ``cursor_expired``) comes back to the caller,
which re-reads what it needs and resumes as ``Cursor.resume`` says."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import cast

from switchbot.schema import FeedEvent, Problem
from switchbot.transport import ApiError, Transport, Unreachable

log = logging.getLogger("switchbot")

INCARNATION_HEADER = "Switch-Incarnation"
FEED_STREAM = "/players/me/stream/"
RECONNECT_SECONDS = 1.0  # until the stream's own `retry:` says otherwise


@dataclass
class Message:
    """One Server-Sent Events message."""

    id: str | None
    event: str | None
    data: str


class EventStream:
    """Server-Sent Events read from a stream's lines (the WHATWG rules: ``data`` lines joined,
    comments and unknown fields ignored, a blank line ends a message that has data); ``retry``
    keeps the reconnection delay the server last asked for."""

    def __init__(self) -> None:
        self.retry = RECONNECT_SECONDS

    def messages(self, lines: Iterable[str]) -> Iterator[Message]:
        data: list[str] = []
        event_id: str | None = None
        event: str | None = None
        for line in lines:
            if not line:
                if data:
                    yield Message(event_id, event, "\n".join(data))
                data, event = [], None
                continue
            if line.startswith(":"):
                continue
            name, _, value = line.partition(":")
            value = value.removeprefix(" ")
            if name == "data":
                data.append(value)
            elif name == "id":
                event_id = value
            elif name == "event":
                event = value
            elif name == "retry" and value.isdigit():
                self.retry = int(value) / 1000


@dataclass
class Cursor:
    """Where the bot is in its feed: the last ``seq`` handled, of which incarnation; and, after a
    410, the last ``seq`` of the entries that came before the bot read its matches again."""

    after: int = 0
    incarnation: str = ""
    history_until: int = 0

    def resume(self, problem: Problem) -> None:
        """Go on after a 410 ``cursor_expired``. Entries removed by retention: from ``oldest``, the
        first still kept (what is kept after the cursor is still news). A restored database (its
        incarnation changed, or the cursor is beyond its last entry): after ``last``, since the
        same numbers now name other entries."""
        oldest, last = int(problem.get("oldest", 1)), int(problem.get("last", 0))
        incarnation = str(problem.get("incarnation", ""))
        restored = bool(self.incarnation) and incarnation != self.incarnation
        self.after = last if restored or self.after > last else max(0, oldest - 1)
        self.incarnation = incarnation
        self.history_until = last

    def is_history(self, event: FeedEvent) -> bool:
        """Whether the entry was written before the bot last read its matches again: what it asked
        for (a move, an answer to a challenge) was read afresh since."""
        return event["seq"] <= self.history_until


class CursorExpired(Exception):
    """410 ``cursor_expired``: the feed cannot go on from the cursor (its entries were removed, or
    the database was restored)."""

    def __init__(self, error: ApiError) -> None:
        super().__init__(error.detail)
        self.problem = cast(Problem, error.problem)


def follow(transport: Transport, cursor: Cursor) -> Iterator[FeedEvent]:
    """Every feed entry after ``cursor``, in order, each once, for ever. The cursor moves on past
    an entry once the caller asks for the next (so one it was handling when it stopped comes
    again). Raises ``CursorExpired``, and an ``ApiError`` that trying again cannot cure (a revoked
    token: 401)."""
    attempt = 0
    events = EventStream()
    while True:
        params = {"incarnation": cursor.incarnation} if cursor.incarnation else {}
        try:
            with transport.stream(FEED_STREAM, params=params, last_event_id=cursor.after) as stream:
                attempt = 0
                cursor.incarnation = stream.headers.get(INCARNATION_HEADER, cursor.incarnation)
                for message in events.messages(stream.iter_lines()):
                    event = cast(FeedEvent, json.loads(message.data))
                    if event["seq"] <= cursor.after:
                        continue  # delivered at least once: seen already
                    yield event
                    cursor.after = event["seq"]
        except ApiError as error:
            if error.code == "cursor_expired":
                raise CursorExpired(error) from error
            if not error.transient:
                raise
            attempt += 1
            transport.pause(attempt, error, "the feed")
        except (Unreachable, ValueError, KeyError) as error:  # cut off, or garbled on the way
            attempt += 1
            transport.pause(attempt, error, "the feed")
        else:
            log.debug("the feed's stream ended; opening it again after %s", cursor.after)
            transport.sleep(events.retry)
