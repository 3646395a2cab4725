"""``AsyncAPIView``: a DRF view whose handlers are ``async def``, for requests that wait.

DRF's ``APIView.dispatch`` is synchronous. This runs the same steps in the same order —
authentication, permissions, throttling and content negotiation (``initial``), the handler, the
problem+json exception handler, ``finalize_response`` — with an awaited handler, so that a long poll
or stream waits in the event loop. ``initial`` may query the database (the token, the session), so
it runs through :func:`switchsite.asyncdb.run_sync` like every other read of these views.
"""

from __future__ import annotations

import inspect
from typing import Any

from django.http import HttpRequest, HttpResponseBase
from rest_framework.views import APIView

from switchsite.asyncdb import run_sync


class AsyncAPIView(APIView):
    # Django awaits what ``dispatch`` returns when a view's handlers are ``async def``
    # (``View.view_is_async``); the stubs type ``dispatch`` for synchronous views only.
    async def dispatch(  # type: ignore[override]
        self, request: HttpRequest, *args: Any, **kwargs: Any
    ) -> HttpResponseBase:
        self.args = args
        self.kwargs = kwargs
        request = self.initialize_request(request, *args, **kwargs)
        self.request = request
        self.headers = self.default_response_headers
        try:
            await run_sync(self.initial, request, *args, **kwargs)
            assert request.method is not None  # set on every request a server hands over
            method = request.method.lower()
            handler = (
                getattr(self, method, self.http_method_not_allowed)
                if method in self.http_method_names
                else self.http_method_not_allowed
            )
            response = handler(request, *args, **kwargs)
            if inspect.isawaitable(response):
                response = await response
        except Exception as exc:
            response = self.handle_exception(exc)
        self.response = self.finalize_response(request, response, *args, **kwargs)
        return self.response
