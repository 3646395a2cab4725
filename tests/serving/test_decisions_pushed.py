"""Every decision is pushed: clients that only answer each ``your_turn`` play whole matches.

The loop of the API guide, exactly: a client follows its own feed (Server-Sent Events, or long
polls) and answers each ``your_turn`` with one action from the view that came with it, posted with
``expected_version`` = the ``your_turn``'s ``version``. It never polls a match to find out whether
it must act. Played against a real uvicorn server and a real Celery worker (which plays the bot
seats, with its beat): a shedding table of seven seats, three people and four bots, and Abbott's
Switch with four people (alliances, the 16+ rule, being asked to agree to end a hand), each played
to the end once over each transport, all matches at once. A match in which nothing happens for
``STALL_SECONDS`` fails the test: the client that waited says where it stuck.

What is pushed does not depend on the ruleset: a ``your_turn`` carries the seat's view, which the
engine makes alike for every preset (tests/engine/test_shedding_properties.py plays each to the
end), so one shedding preset — the richest, jacks-twos-eights — stands for all of them here.
"""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from benchmarks.shape import PrivateRedis, Process
from tests.faults.conftest import celery_worker, needs
from tests.serving.clients import auth, open_stream, sse_messages
from tests.serving.conftest import run_in_own_loop

pytestmark = pytest.mark.django_db(transaction=True)

STALL_SECONDS = 30
PASSWORD = "a-long-enough-password"
# Abbott's Switch to 10 rather than 20: the 16+ rule becomes the 6+ rule (docs/rules.md §4.7), so
# partners move each other's pieces, and seats are asked to agree to end hands, within a few hands.
ABBOTT_TARGET = 10


@dataclass(frozen=True)
class Table:
    """A match to play: its ruleset, how many people sit at it (seats 0, 1, …), and how many
    server bots fill the seats after them."""

    ruleset: str
    people: int
    bots: int
    target: int | None = None

    @property
    def seats(self) -> int:
        return self.people + self.bots


TABLES = [
    Table("jacks-twos-eights", people=3, bots=4),
    Table("abbott", people=4, bots=0, target=ABBOTT_TARGET),
]
TRANSPORTS = ("sse", "poll")


class Stalled(AssertionError):
    """Nothing happened in a match for STALL_SECONDS."""


@dataclass
class Person:
    """One client: a player at one table, following its feed by one transport."""

    username: str
    token: str
    seat: int
    transport: str
    rng: random.Random
    version: int = -1  # the newest version of its match that it knows of
    answered: int = 0
    stale: int = 0
    entries: list[str] = field(default_factory=list)  # the types of its feed entries


# --- choosing a move (any object of legal_moves may be posted back as it is) --------------------


def choose(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    moves = view["legal_moves"]
    return (
        choose_abbott(view, moves, rng) if view["game"] == "abbott" else choose_shedding(moves, rng)
    )


def choose_shedding(moves: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """A card when one can be played (so that deals end), else anything allowed."""
    plays = [m for m in moves if m["action"] == "play"]
    return rng.choice(plays or moves)


def choose_abbott(
    view: dict[str, Any], moves: list[dict[str, Any]], rng: random.Random
) -> dict[str, Any]:
    """Play so that the rare questions come up: propose to end the hand whenever allowed, ally
    with a partner such that one of the two moves the other's piece, and, asked to agree to end
    the hand, agree seven times in ten."""
    names = {m["action"] for m in moves}
    if "decline_end" in names:
        return {"action": "propose_end" if rng.random() < 0.7 else "decline_end"}
    if "propose_end" in names:
        return {"action": "propose_end"}
    allies = [m for m in moves if m["action"] == "ally"]
    if allies:
        totals, threshold, me = view["totals"], view["control_threshold"], view["to_move"]
        control = [
            m for m in allies if (totals[me] >= threshold) != (totals[m["partner"]] >= threshold)
        ]
        return rng.choice(control or allies)
    return rng.choice([m for m in moves if m["action"] in ("move", "pass")])


# --- the feed, by either transport -----------------------------------------------------------


async def sse_feed(session: aiohttp.ClientSession, person: Person) -> AsyncIterator[dict[str, Any]]:
    """The feed over SSE, reconnecting with Last-Event-ID whenever the server ends the stream."""
    after = 0
    while True:
        response = await open_stream(session, "/api/v1/players/me/stream/", person.token, after)
        async with response:
            async for message in sse_messages(response):
                if message.data:
                    entry = json.loads(message.data)
                    after = entry["seq"]
                    yield entry


async def polled_feed(
    session: aiohttp.ClientSession, person: Person
) -> AsyncIterator[dict[str, Any]]:
    """The feed by long polls (each waits up to 25 s for an entry)."""
    after = 0
    while True:
        path = f"/api/v1/players/me/events/?after={after}&wait=25"
        async with session.get(path, headers=auth(person.token)) as response:
            assert response.status == 200, await response.text()
            page = await response.json()
        for entry in page["results"]:
            after = entry["seq"]
            yield entry


FEEDS: dict[str, Callable[[aiohttp.ClientSession, Person], AsyncIterator[dict[str, Any]]]] = {
    "sse": sse_feed,
    "poll": polled_feed,
}


# --- a client's life ---------------------------------------------------------------------------


async def play(session: aiohttp.ClientSession, person: Person, match_id: int) -> None:
    """Answer each ``your_turn`` of the match with one action, until its ``match_end``."""
    queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()

    async def read() -> None:
        async for entry in FEEDS[person.transport](session, person):
            await queue.put(entry)

    reader = asyncio.create_task(read())
    try:
        while True:
            try:
                entry = await asyncio.wait_for(queue.get(), STALL_SECONDS)
            except TimeoutError:
                await check_progress(session, person, match_id)
                continue
            if reader.done():
                reader.result()  # the feed failed: raise why
            if entry["match"] != match_id:
                continue
            person.entries.append(entry["type"])
            if entry["type"] == "your_turn":
                await answer(session, person, entry["data"])
            elif entry["type"] == "match_end":
                return
    finally:
        reader.cancel()


async def answer(session: aiohttp.ClientSession, person: Person, data: dict[str, Any]) -> None:
    view = data["view"]
    assert data["version"] == view["version"]
    assert view["to_move"] == person.seat == data["seat"], data
    move = {**choose(view, person.rng), "expected_version": data["version"]}
    path = f"/api/v1/matches/{view['id']}/moves/"
    async with session.post(path, json=move, headers=auth(person.token)) as response:
        body = await response.json()
    if response.status == 201:
        person.answered += 1
        person.version = max(person.version, body["view"]["version"])
    else:  # a your_turn overtaken by another change: a newer one is on its way
        assert (response.status, body["code"]) == (409, "stale_version"), (move, body)
        person.stale += 1
    person.version = max(person.version, data["version"])


async def check_progress(session: aiohttp.ClientSession, person: Person, match_id: int) -> None:
    """Nothing reached this client for STALL_SECONDS: fine if the match moved on meanwhile (other
    seats playing); a stall if it did not. (A watchdog, not a way to play: it never moves.)"""
    async with session.get(f"/api/v1/matches/{match_id}/", headers=auth(person.token)) as response:
        view = await response.json()
    if view["version"] == person.version or view["status"] != "active":
        raise Stalled(
            f"{person.username} ({person.transport}, seat {person.seat}) heard nothing for "
            f"{STALL_SECONDS} s in match {match_id} ({view['ruleset']}): status {view['status']}, "
            f"version {view['version']}, seat {view['to_move']} to move; its feed: "
            f"{person.entries[-5:]}"
        )
    person.version = view["version"]


# --- setting the tables -----------------------------------------------------------------------


async def register(session: aiohttp.ClientSession, username: str) -> str:
    body = {"username": username, "password": PASSWORD}
    async with session.post("/api/v1/players/", json=body) as response:
        assert response.status == 201, await response.text()
        return str((await response.json())["token"])


async def seat_table(
    session: aiohttp.ClientSession, table: Table, transport: str, number: int
) -> tuple[int, list[Person]]:
    """Register the table's people, create its match (bots after the people), seat and start it."""
    people = []
    for seat in range(table.people):
        username = f"{transport}{number}s{seat}"
        token = await register(session, username)
        people.append(Person(username, token, seat, transport, random.Random(f"{username}")))
    bots = [{"seat": seat, "strategy": "random"} for seat in range(table.people, table.seats)]
    settings = {"ruleset": table.ruleset, "seats": table.seats, "bots": bots, "auto_start": True}
    if table.target is not None:
        settings["target"] = table.target
    creator = people[0]
    async with session.post("/api/v1/matches/", json=settings, headers=auth(creator.token)) as made:
        assert made.status == 201, await made.text()
        match_id = int((await made.json())["id"])
    for person in people[1:]:
        path = f"/api/v1/matches/{match_id}/join/"
        body = {"seat": person.seat}
        async with session.post(path, json=body, headers=auth(person.token)) as joined:
            assert joined.status == 200, await joined.text()
    if len(people) == 1:  # no one joins: the creator starts it
        path = f"/api/v1/matches/{match_id}/start/"
        async with session.post(path, headers=auth(creator.token)) as started:
            assert started.status == 200, await started.text()
    return match_id, people


async def play_every_table(base_url: str) -> list[tuple[Table, str, int, list[Person]]]:
    timeout = aiohttp.ClientTimeout(total=None, sock_read=STALL_SECONDS + 30)
    connector = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(base_url, timeout=timeout, connector=connector) as session:
        seated = []
        for number, (table, transport) in enumerate(
            (table, transport) for table in TABLES for transport in TRANSPORTS
        ):
            match_id, people = await seat_table(session, table, transport, number)
            seated.append((table, transport, match_id, people))
        await asyncio.gather(
            *(
                play(session, person, match_id)
                for _, _, match_id, people in seated
                for person in people
            )
        )
        return seated


@pytest.fixture
def worker(tmp_path: Path) -> Any:
    """A private broker, and a real Celery worker with its beat consuming from it."""
    needs("redis-server")
    redis = PrivateRedis(tmp_path)
    processes: list[Process] = []
    try:
        worker = celery_worker(redis.url, tmp_path, "players")
        processes.append(worker)
        yield redis.url, worker
    finally:
        for process in processes:
            process.stop()
        redis.stop()


def test_clients_that_only_answer_your_turn_play_whole_matches_to_the_end(start_server, worker):
    broker_url, _ = worker
    server = start_server(
        workers=2,
        CELERY_BROKER_URL=broker_url,
        THROTTLE_REGISTRATION_RATE="10000/minute",
        SSE_MAX_SECONDS=15,  # streams end and clients resume with Last-Event-ID meanwhile
    )

    seated = run_in_own_loop(play_every_table(server.base_url))

    from games.models import Match, MatchEvent

    for table, transport, match_id, people in seated:
        match = Match.objects.get(pk=match_id)
        assert match.status == Match.Status.FINISHED, (table, transport)
        assert all(person.answered > 0 for person in people), (table, transport)
        assert all(person.entries.count("match_end") == 1 for person in people)
    abbott = [match_id for table, _, match_id, _ in seated if table.ruleset == "abbott"]
    kinds = set(MatchEvent.objects.filter(match_id__in=abbott).values_list("type", flat=True))
    assert {"ally", "propose_end", "consent_asked"} <= kinds
