"""``GET /metrics``: the Prometheus scrape of a web host, answered outside Django (no host check,
no HTTPS redirect, no throttle, no session): Prometheus asks each host by its address. It must not
be reachable from outside — ``deploy/haproxy.cfg`` refuses it at the balancer (docs/operations.md,
"Monitoring")."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from prometheus_client import CONTENT_TYPE_LATEST

from switchsite import metrics

Scope = dict[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[Mapping[str, Any]], Awaitable[None]]

PATH = "/metrics"


async def scrape(scope: Scope, receive: Receive, send: Send) -> None:
    if scope["method"] not in ("GET", "HEAD"):
        status, body, content_type = 405, b"GET only\n", "text/plain"
    else:
        # Reading the files of every process and asking the broker: not in the event loop.
        loop = asyncio.get_running_loop()
        body = await loop.run_in_executor(None, metrics.exposition, metrics.ServiceCollector())
        status, content_type = 200, CONTENT_TYPE_LATEST
    headers = [(b"content-type", content_type.encode()), (b"cache-control", b"no-store")]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": b"" if scope["method"] == "HEAD" else body})
