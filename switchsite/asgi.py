"""ASGI entry point: ``switchsite.asgi:application``, served by uvicorn (``make serve``, ``make run``).

Two ways in, chosen per request by the view its path resolves to (:func:`serving.routing.waits`):

- the **waiting** views (long polls and event streams, Django async views) go to Django's ASGI
  handler: they wait on the event loop, holding no thread (:mod:`switchsite.asyncdb`);
- every **other** view — synchronous, as most of Django and DRF are — goes to Django's WSGI handler
  on a fixed pool of ``SYNC_REQUEST_THREADS`` threads per process (a2wsgi). Under the ASGI handler
  a synchronous view costs a new thread per request, a hop between threads for each synchronous
  middleware on the way in and out, and (the thread being new) a new database connection; on the
  pool the whole request runs in one thread that keeps its connection (``CONN_MAX_AGE``).

Django's ASGI handler serves HTTP only: ``application`` adds the ASGI lifespan protocol around it
(:mod:`switchsite.serving.lifespan`), and sets each request's client address from the trusted
proxies' ``X-Forwarded-For`` (:mod:`switchsite.serving.addresses`) before either way in. A move
is noted as in flight from its arrival to its answer, for the turn clocks
(:mod:`switchsite.serving.arrivals`). Around
every request, the access log line and its metrics (:mod:`switchsite.serving.observing`); a
third way in, outside Django, for Prometheus's scrape (:mod:`switchsite.serving.scraping`).
"""

from __future__ import annotations

import os
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from a2wsgi import WSGIMiddleware
from django.core.asgi import get_asgi_application
from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "switchsite.settings")

waiting_application = get_asgi_application()

# These need the app registry that get_asgi_application set up.
from django.conf import settings  # noqa: E402

from switchsite.serving import arrivals, scraping  # noqa: E402
from switchsite.serving.addresses import with_client_address  # noqa: E402
from switchsite.serving.lifespan import lifespan  # noqa: E402
from switchsite.serving.observing import observed  # noqa: E402
from switchsite.serving.routing import waits  # noqa: E402

Scope = dict[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[Mapping[str, Any]], Awaitable[None]]

ordinary_application = WSGIMiddleware(
    get_wsgi_application(),  # type: ignore[arg-type]  # Django's WSGIHandler is a WSGI app
    workers=settings.SYNC_REQUEST_THREADS,
)


async def service(scope: Scope, receive: Receive, send: Send) -> None:
    path = scope["path"].removeprefix(scope["root_path"])
    if scope["type"] == "http" and path == scraping.PATH:
        await scraping.scrape(scope, receive, send)
    elif scope["type"] == "http" and not waits(path):
        # A move is noted as arrived here, before it waits for a thread.
        async with arrivals.in_flight(scope["method"], path):
            await ordinary_application(scope, receive, send)  # type: ignore[arg-type]
    else:
        await waiting_application(scope, receive, send)


observed_service = observed(service)


async def application(scope: Scope, receive: Receive, send: Send) -> None:
    if scope["type"] == "lifespan":
        await lifespan(receive, send)
        return
    with_client_address(scope, settings.TRUSTED_PROXIES)
    await observed_service(scope, receive, send)
