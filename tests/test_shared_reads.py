"""Identical reads asked before one of them has begun are answered by that one read; a read that
has begun is never joined (switchsite.asyncdb.run_shared)."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from typing import Any

import pytest

from switchsite import asyncdb
from tests.serving.conftest import run_in_own_loop


class Reads:
    """A read that counts its calls and, while ``gate`` is closed, blocks once it has begun."""

    def __init__(self) -> None:
        self.calls = 0
        self.began = threading.Event()
        self.gate = threading.Event()

    def read(self, key: str) -> tuple[str, int]:
        self.calls += 1
        call = self.calls
        self.began.set()
        assert self.gate.wait(10), "the test never opened the gate"
        return key, call


@pytest.fixture
def reads(settings: Any) -> Iterator[Reads]:
    settings.EVENT_READ_THREADS = 4
    reads = Reads()
    yield reads
    reads.gate.set()
    asyncdb.close_connections()


async def began(reads: Reads) -> None:
    assert await asyncio.to_thread(reads.began.wait, 5), "the read never began"


def test_callers_asking_before_the_read_begins_share_it(reads: Reads):
    async def scenario() -> list[tuple[str, int]]:
        callers = [asyncio.create_task(asyncdb.run_shared(reads.read, "feed 1")) for _ in range(20)]
        await began(reads)
        reads.gate.set()
        return await asyncio.gather(*callers)

    assert run_in_own_loop(scenario()) == [("feed 1", 1)] * 20
    assert reads.calls == 1


def test_a_caller_asking_once_the_read_has_begun_reads_again(reads: Reads):
    async def scenario() -> list[tuple[str, int]]:
        first = asyncio.create_task(asyncdb.run_shared(reads.read, "feed 1"))
        await began(reads)  # it may have missed what the next callers were woken for
        later = [asyncio.create_task(asyncdb.run_shared(reads.read, "feed 1")) for _ in range(3)]
        other = asyncio.create_task(asyncdb.run_shared(reads.read, "feed 2"))
        await asyncio.sleep(0.1)
        reads.gate.set()
        return await asyncio.gather(first, *later, other)

    answers = run_in_own_loop(scenario())
    assert answers[0] == ("feed 1", 1)
    assert answers[1:4] == [answers[1]] * 3
    assert answers[1][1] in (2, 3)
    assert answers[4][0] == "feed 2"
    assert reads.calls == 3


def test_a_caller_that_goes_away_leaves_the_read_to_the_others(reads: Reads):
    async def scenario() -> tuple[str, int]:
        leaving = asyncio.create_task(asyncdb.run_shared(reads.read, "feed 1"))
        staying = asyncio.create_task(asyncdb.run_shared(reads.read, "feed 1"))
        await began(reads)
        leaving.cancel()
        reads.gate.set()
        with pytest.raises(asyncio.CancelledError):
            await leaving
        return await staying

    assert run_in_own_loop(scenario()) == ("feed 1", 1)


def test_every_caller_gets_the_reads_error_and_the_next_caller_reads_again(reads: Reads):
    def failing(key: str) -> None:
        reads.calls += 1
        raise LookupError(key)

    async def scenario() -> list[list[BaseException | None]]:
        rounds = []
        for _ in range(2):
            callers = [asyncdb.run_shared(failing, "gone") for _ in range(3)]
            rounds.append(await asyncio.gather(*callers, return_exceptions=True))
        return rounds

    rounds = run_in_own_loop(scenario())
    assert [[type(error) for error in errors] for errors in rounds] == [[LookupError] * 3] * 2
    assert reads.calls == 2
