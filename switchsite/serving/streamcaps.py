"""How many streams one holder may keep open at once in this process: a token (the API's streams),
or an address (the anonymous live pages of tournaments and series).

A stream is counted from the moment its view accepts it to the moment its response is closed
(Django closes every response when it is done, the client gone or the stream ended), so a holder
over the cap is refused at once with a problem document, never cut off half-way. The count is
this process's own: a client spread over several processes by the balancer may hold up to the cap
in each (docs/operations.md, "Fair shares"). Kept to the one place a stream is opened, so that a
connection tier in front could take it over whole.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable

from django.http import HttpRequest, StreamingHttpResponse
from django.utils.translation import gettext

from switchsite.problems import TooManyStreams

RETRY_AFTER_SECONDS = 10


class OpenStreams:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._open: Counter[str] = Counter()

    def count(self, holder: str) -> int:
        with self._lock:
            return self._open[holder]

    def hold(self, holder: str, allowed: int, limit: str) -> Callable[[], None]:
        """Count one more stream of ``holder`` and return what ends it (once); refuse (429
        ``too_many_streams``, naming ``limit``) if it already has ``allowed`` open."""
        with self._lock:
            if self._open[holder] >= allowed:
                raise TooManyStreams(
                    gettext(
                        "You have %(allowed)d streams open already: close one, or follow more "
                        "matches from your feed's stream."
                    )
                    % {"allowed": allowed},
                    limit=limit,
                    allowed=allowed,
                    retry_after=RETRY_AFTER_SECONDS,
                )
            self._open[holder] += 1
        ended = threading.Event()

        def end() -> None:
            if ended.is_set():
                return
            ended.set()
            with self._lock:
                self._open[holder] -= 1
                if self._open[holder] <= 0:
                    del self._open[holder]

        return end


open_streams = OpenStreams()


def counted(response: StreamingHttpResponse, end: Callable[[], None]) -> StreamingHttpResponse:
    """The stream stops counting when its response is closed (whether or not it was ever sent)."""
    response._resource_closers.append(end)  # type: ignore[attr-defined]  # run by close()
    return response


def address_holder(request: HttpRequest) -> str:
    """An anonymous viewer, by the client's address (switchsite.serving.addresses)."""
    return f"address:{request.META.get('REMOTE_ADDR', '')}"
