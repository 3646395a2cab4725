"""A client's side of the API for the serving tests: aiohttp requests and a Server-Sent Events reader."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import aiohttp

from tests.serving.conftest import Table


@dataclass(frozen=True)
class SseMessage:
    id: str | None = None
    event: str | None = None
    data: str | None = None
    retry: str | None = None
    comment: str | None = None


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Token {token}"}


async def open_stream(
    session: aiohttp.ClientSession, path: str, token: str, last_event_id: int
) -> aiohttp.ClientResponse:
    headers = {**auth(token), "Accept": "text/event-stream", "Last-Event-ID": str(last_event_id)}
    response = await session.get(path, headers=headers)
    assert response.status == 200, await response.text()
    assert response.content_type == "text/event-stream"
    return response


async def sse_messages(response: aiohttp.ClientResponse) -> AsyncIterator[SseMessage]:
    """The messages of a stream until it ends; aiohttp raises if it is cut rather than ended."""
    fields: dict[str, str] = {}
    async for raw in response.content:
        line = raw.decode().rstrip("\r\n")
        if line.startswith(":"):
            yield SseMessage(comment=line[1:].strip())
        elif line:
            name, _, value = line.partition(":")
            fields[name] = value.removeprefix(" ")
        elif fields:
            yield SseMessage(**fields)
            fields = {}


async def get_json(session: aiohttp.ClientSession, path: str, token: str) -> Any:
    async with session.get(path, headers=auth(token)) as response:
        assert response.status == 200, await response.text()
        return await response.json()


async def events_after(
    session: aiohttp.ClientSession, table: Table, after: int, token: str, wait: float = 0
) -> dict[str, Any]:
    path = f"/api/v1/matches/{table.match_id}/events/?after={after}&wait={wait}"
    return await get_json(session, path, token)


async def last_seq(session: aiohttp.ClientSession, table: Table) -> int:
    return (await events_after(session, table, 0, table.tokens[0]))["count"]


async def move_for_the_seat_to_move(
    session: aiohttp.ClientSession, table: Table
) -> tuple[str, dict[str, Any]]:
    """The token of the player to move and the first of their legal moves."""
    for token in table.tokens:
        view = await get_json(session, f"/api/v1/matches/{table.match_id}/", token)
        if view["to_move"] == view["you"]["seat"]:
            return token, view["legal_moves"][0]
    raise AssertionError("nobody is to move")
