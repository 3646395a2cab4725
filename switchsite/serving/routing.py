"""Which requests wait: the views that hold a request open (long polls and event streams) are async
views and go to Django's ASGI handler; every other view goes to Django's WSGI handler on a thread
pool (``switchsite.asgi`` has the why)."""

from __future__ import annotations

import functools

from asgiref.sync import iscoroutinefunction
from django.urls import Resolver404, resolve

# Paths longer than this are resolved every time: long made-up paths cannot fill the cache.
CACHED_PATH_LENGTH = 200


def waits(path: str) -> bool:
    """Whether ``path`` is served by an async view — the ones that wait. Tried as given, then with
    a trailing slash, as :class:`switchsite.middleware.OptionalTrailingSlash` serves it. Resolving
    costs more than the rest of the choice and clients ask the same paths again, so the answers for
    paths of ordinary length are kept (a bounded cache)."""
    if len(path) > CACHED_PATH_LENGTH:
        return _resolves_to_async_view(path)
    return _cached_resolves_to_async_view(path)


def _resolves_to_async_view(path: str) -> bool:
    for candidate in (path,) if path.endswith("/") else (path, path + "/"):
        try:
            return iscoroutinefunction(resolve(candidate).func)
        except Resolver404:
            continue
    return False


_cached_resolves_to_async_view = functools.lru_cache(maxsize=4096)(_resolves_to_async_view)
