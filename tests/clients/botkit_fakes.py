"""A scripted stand-in for the service, for the bot kit's tests: each route answers from its own
list of answers (the last one again once the list runs out), and every request is kept."""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Callable
from typing import Any, cast

import httpx

from switchbot import Client, Transport
from switchbot.schema import FeedEvent, View

Answer = httpx.Response | Exception | Callable[[httpx.Request], httpx.Response]


def problem(status: int, code: str, retry_after: int | None = None, **extra: Any) -> httpx.Response:
    headers = {"Retry-After": str(retry_after)} if retry_after is not None else {}
    body = {"type": "about:blank", "title": code, "status": status, "detail": code, "code": code}
    return httpx.Response(status, json={**body, **extra}, headers=headers)


def sse(*events: FeedEvent, incarnation: str = "inc-1", comment: bool = True) -> httpx.Response:
    """A feed stream that sends ``events`` and ends."""
    lines = ["retry: 1000", ""]
    if comment:
        lines += [": keepalive", ""]
    for event in events:
        lines += [
            f"id: {event['seq']}",
            f"event: {event['type']}",
            f"data: {json.dumps(event)}",
            "",
        ]
    return httpx.Response(
        200,
        content="\n".join(lines).encode() + b"\n",
        headers={"Content-Type": "text/event-stream", "Switch-Incarnation": incarnation},
    )


def shedding_view(match_id: int, version: int, moves: list[dict[str, Any]]) -> View:
    """The part of a view the kit reads."""
    view = {
        "id": match_id,
        "game": "shedding",
        "status": "active",
        "version": version,
        "legal_moves": moves,
        "to_move": 0 if moves else 1,
    }
    return cast(View, view)


def your_turn(seq: int, view: View) -> FeedEvent:
    data = {"match": view["id"], "seat": 0, "version": view["version"], "view": view}
    return feed_event(seq, "your_turn", **data)


def feed_event(seq: int, kind: str, **data: Any) -> FeedEvent:
    event = {
        "seq": seq,
        "at": "2026-11-28T20:00:00+00:00",
        "type": kind,
        "match": data.get("match"),
    }
    return cast(FeedEvent, {**event, "data": data})


class FakeService:
    """Answers by (method, path); a route with no script answers 404 ``not_found``."""

    def __init__(self) -> None:
        self.scripts: dict[tuple[str, str], list[Answer]] = defaultdict(list)
        self.requests: list[httpx.Request] = []
        self.sleeps: list[float] = []

    def on(self, method: str, path: str, *answers: Answer) -> None:
        self.scripts[(method, "/api/v1" + path)] += answers

    def handle(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        script = self.scripts.get((request.method, request.url.path))
        if not script:
            return problem(404, "not_found")
        answer = script.pop(0) if len(script) > 1 else script[0]
        if isinstance(answer, Exception):
            raise answer
        if isinstance(answer, httpx.Response):
            return answer
        return answer(request)

    def client(self) -> Client:
        transport = Transport(
            "http://switch.test",
            "t0ken",
            http=httpx.Client(transport=httpx.MockTransport(self.handle)),
            sleep=self.sleeps.append,
        )
        return Client(transport)

    def sent(self, method: str, path: str) -> list[httpx.Request]:
        return [
            request
            for request in self.requests
            if (request.method, request.url.path) == (method, "/api/v1" + path)
        ]


def body(request: httpx.Request) -> Any:
    return json.loads(request.content)
