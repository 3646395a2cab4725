"""DRF's throttles, counting in the shared cache and failing open.

With Redis configured the counters live there (see ``CACHES`` in the settings), so a limit holds
across every web process rather than per process. If the cache cannot be reached, a request is let
through and the fault logged: a rate limit is a protection, not a reason to refuse service.
"""

from __future__ import annotations

import logging
from typing import Any

from rest_framework import throttling
from rest_framework.request import Request

logger = logging.getLogger(__name__)


class FailOpen:
    def allow_request(self, request: Request, view: Any) -> bool:
        try:
            return super().allow_request(request, view)  # type: ignore[misc]
        except Exception:
            logger.exception("rate limiting skipped: the cache is unreachable")
            return True


class AnonRateThrottle(FailOpen, throttling.AnonRateThrottle):
    pass


class UserRateThrottle(FailOpen, throttling.UserRateThrottle):
    pass


class ScopedRateThrottle(FailOpen, throttling.ScopedRateThrottle):
    pass
