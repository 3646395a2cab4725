"""Database access from async code, for requests that wait (long polls and event streams).

Django's ORM is synchronous, so async code runs it in a thread. Which thread matters at scale:

- ``sync_to_async`` (thread-sensitive, Django's default) under an ASGI server runs each request's
  synchronous work in a thread of that request's own, and each thread opens its own database
  connection. A waiting request would hold both for its whole life, and a thousand streams woken
  at once would open a thousand connections.
- So reads go to a small pool of threads per process (``EVENT_READ_THREADS``) instead, each
  keeping one connection open between reads: the connections a process uses for waiting requests
  are bounded and never set up per read; a burst of wake-ups queues for them in memory.

``EVENT_READ_THREADS = 0`` runs the function in the caller's thread the way Django does by default
(``sync_to_async``); the test suite uses it because Django's test client holds the test's
transaction in the calling thread, which no other connection can see.

Waiters woken together mostly ask the same thing — every stream of one feed, every spectator of one
match, every phone on one tournament's page — so :func:`run_shared` answers identical reads asked
before one of them has begun with that one read: a process reads once for a wake-up, not once for
each of its waiters.

:func:`release_request_thread` hands back the thread Django gave the request, before it waits.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Hashable
from concurrent.futures import Future, ThreadPoolExecutor, wait
from typing import Any, ParamSpec, TypeVar

from asgiref.sync import SyncToAsync, sync_to_async
from django.conf import settings
from django.db import DatabaseError, connections

P = ParamSpec("P")
R = TypeVar("R")


class _ReadThreads:
    """A fixed set of threads, each with its own (thread-local) Django database connections."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.executor = ThreadPoolExecutor(max_workers=size, thread_name_prefix="db-read")

    def close(self) -> None:
        """Close every thread's connections (each thread runs exactly one of the close jobs: the
        barrier holds it until all have started), then stop the threads."""
        barrier = threading.Barrier(self.size)

        def close_this_threads_connections() -> None:
            connections.close_all()
            barrier.wait(timeout=30)

        wait([self.executor.submit(close_this_threads_connections) for _ in range(self.size)])
        self.executor.shutdown()


_lock = threading.Lock()
_threads: _ReadThreads | None = None


def _read_threads() -> _ReadThreads | None:
    global _threads
    if settings.EVENT_READ_THREADS <= 0:
        return None
    with _lock:
        if _threads is None:
            _threads = _ReadThreads(settings.EVENT_READ_THREADS)
        return _threads


def _dropping_broken_connections(function: Callable[P, R]) -> Callable[P, R]:
    def run(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return function(*args, **kwargs)
        except DatabaseError:
            # The connection may be dead (the database restarted): the next read opens a new one.
            connections.close_all()
            raise

    return run


async def run_sync(function: Callable[P, R], /, *args: P.args, **kwargs: P.kwargs) -> R:
    """Run ``function`` (which may use the database) in a read thread and return its result."""
    threads = _read_threads()
    if threads is None:
        return await sync_to_async(function)(*args, **kwargs)
    in_thread = sync_to_async(
        _dropping_broken_connections(function), thread_sensitive=False, executor=threads.executor
    )
    return await in_thread(*args, **kwargs)


_shared_lock = threading.Lock()
# The shared reads not begun yet, by what they read; a read leaves as it begins.
_not_begun: dict[Hashable, Future[Any]] = {}
_shared_reads: set[asyncio.Task[None]] = set()  # their tasks, kept until done


async def run_shared(function: Callable[..., R], /, *args: Hashable, **kwargs: Hashable) -> R:
    """``run_sync(function, *args, **kwargs)``, shared with every caller asking for the same read
    (the same function and arguments) before it has begun.

    Only before: a waiter asks for a read after it has been woken, and must get everything committed
    before that. A read that has begun may have missed it, so asking again then starts a read of
    its own; a read that has not begun will see it. ``function`` must depend on its arguments alone
    (not on who asks), and callers must not change what it returns: they all get the same object.
    """
    loop = asyncio.get_running_loop()  # a read is shared within its event loop (a process has one)
    key = (loop, function, args, frozenset(kwargs.items()))
    with _shared_lock:
        shared = _not_begun.get(key)
        begins_here = shared is None
        if shared is None:
            shared = _not_begun[key] = Future()
    if begins_here:

        def begin() -> R:
            with _shared_lock:
                del _not_begun[key]
            return function(*args, **kwargs)

        task = loop.create_task(_read_for_all(key, shared, begin))
        _shared_reads.add(task)
        task.add_done_callback(_shared_reads.discard)
    # A caller that goes away (its client disconnected) leaves the read to the others.
    result: R = await asyncio.shield(asyncio.wrap_future(shared))
    return result


async def _read_for_all(key: Hashable, shared: Future[Any], begin: Callable[[], Any]) -> None:
    try:
        shared.set_result(await run_sync(begin))
    except BaseException as error:
        with _shared_lock:  # it may have failed before it began (the threads were stopped)
            if _not_begun.get(key) is shared:
                del _not_begun[key]
        shared.set_exception(error)
        if not isinstance(error, Exception):
            raise


def close_connections() -> None:
    """Close the read threads' connections (server shutdown; before a test database is dropped).
    Threads and connections are made again on the next read."""
    global _threads
    with _lock:
        threads, _threads = _threads, None
    if threads is not None:
        threads.close()


def release_request_thread() -> None:
    """Before a request waits: stop the thread Django keeps for the request's synchronous parts.

    Django's ASGI handler runs each request inside asgiref's ``ThreadSensitiveContext``, which gives
    the request a one-thread executor on first use and keeps it until the response is finished —
    for a stream, until the stream ends. Middleware has used it by the time a view waits; when a
    synchronous step comes later (rendering, ``response.close()``) asgiref starts a fresh one for
    that moment. With ``EVENT_READ_THREADS = 0`` reads use that thread and its connection, so it is
    kept.
    """
    if _read_threads() is None:
        return
    context = SyncToAsync.thread_sensitive_context.get(None)
    if context is None:
        return
    executor = SyncToAsync.context_to_thread_executor.pop(context, None)
    if executor is not None:
        executor.shutdown(wait=False)
