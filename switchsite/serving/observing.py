"""What each request leaves behind: one line of the access log, and its metrics.

Both are taken around the whole application (``switchsite.asgi``), so that they see every request
whichever way it goes in (the thread pool, the waiting views, static files) and time it to the
last byte of its answer. A line says when, who (the client's address, as the throttles see it), the
method, the path (seat-link secrets redacted by the log's filter; no query string, which is the
client's business), the status, the bytes sent and the duration; ``LOG_FORMAT=json`` writes them
as members of one JSON object. The health checks and metric scrapes, asked every few seconds by
machines, are written at ``DEBUG`` only. A request whose client went away before an answer
began is written with status 0 (as nginx's 499).
"""

from __future__ import annotations

import functools
import logging
import time
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from django.conf import settings
from django.urls import Resolver404, resolve

from switchsite import metrics
from switchsite.serving.routing import CACHED_PATH_LENGTH, waits

logger = logging.getLogger("switch.access")

Scope = dict[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[Mapping[str, Any]], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]

# Asked by machines every few seconds: logged at DEBUG only.
MACHINE_PATHS = frozenset({"/healthz", "/metrics"})


def observed(app: App) -> App:
    async def observing(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await app(scope, receive, send)
            return
        started = time.perf_counter()
        status, sent = 0, 0

        async def sending(message: Mapping[str, Any]) -> None:
            nonlocal status, sent
            if message["type"] == "http.response.start":
                status = message["status"]
            elif message["type"] == "http.response.body":
                sent += len(message.get("body", b""))
            await send(message)

        try:
            await app(scope, receive, sending)
        finally:
            answered(scope, status, sent, time.perf_counter() - started)

    return observing


def answered(scope: Scope, status: int, sent: int, seconds: float) -> None:
    path = scope["path"].removeprefix(scope["root_path"])
    method = scope["method"]
    machine = path in MACHINE_PATHS
    if not machine:
        route = route_of(path)
        metrics.REQUESTS.labels(route=route, method=method, status=str(status)).inc()
        if not waits(path):
            metrics.REQUEST_SECONDS.labels(route=route, method=method).observe(seconds)
    client = scope.get("client")
    address = client[0] if client else "-"
    logger.log(
        logging.DEBUG if machine else logging.INFO,
        '%s "%s %s" %d %d %.1f ms',
        address,
        method,
        path,
        status,
        sent,
        seconds * 1000,
        extra={
            "client": address,
            "method": method,
            "path": path,
            "status": status,
            "bytes": sent,
            "duration_ms": round(seconds * 1000, 1),
        },
    )


def route_of(path: str) -> str:
    """The URL pattern ``path`` resolves to (a label of bounded variety for the metrics):
    ``api/v1/matches/<id:match_id>/moves/``; ``static`` or ``unmatched`` for the rest."""
    if len(path) > CACHED_PATH_LENGTH:
        return _route_of(path)
    return _cached_route_of(path)


def _route_of(path: str) -> str:
    if path.startswith("/" + settings.STATIC_URL.lstrip("/")):
        return "static"
    for candidate in (path,) if path.endswith("/") else (path, path + "/"):
        try:
            return resolve(candidate).route or "unmatched"
        except Resolver404:
            continue
    return "unmatched"


_cached_route_of = functools.lru_cache(maxsize=4096)(_route_of)
