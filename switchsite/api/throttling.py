"""DRF's throttles, counting in the shared cache and failing open, and the quota they leave.

With Redis configured the counters live there (see ``CACHES`` in the settings), so a limit holds
across every web process rather than per process. If the cache cannot be reached, a request is let
through and the fault logged: a rate limit is a protection, not a reason to refuse service.

Each throttle that counts a request also notes what is left of its limit (:class:`Quota`) on the
request; :class:`switchsite.middleware.RateLimitHeaders` answers the tightest one as
``RateLimit-Limit``, ``RateLimit-Remaining`` and ``RateLimit-Reset``.
"""

from __future__ import annotations

import logging
import math
from dataclasses import dataclass
from typing import Any

from django.http import HttpRequest
from rest_framework import throttling
from rest_framework.request import Request

from switchsite.outages import outages

logger = logging.getLogger(__name__)

_QUOTA_ATTRIBUTE = "rate_limit_quota"


@dataclass(frozen=True)
class Quota:
    """One limit as it stands after a request: ``reset`` is the seconds until the oldest request
    it counts leaves its window (and one more request is allowed)."""

    limit: int
    remaining: int
    reset: int

    def tighter_than(self, other: Quota) -> bool:
        return (self.remaining, -self.reset) < (other.remaining, -other.reset)


class FailOpen:
    def allow_request(self, request: Request, view: Any) -> bool:
        try:
            allowed: bool = super().allow_request(request, view)  # type: ignore[misc]
        except Exception:
            logger.exception("rate limiting skipped: the cache is unreachable")
            return True
        if getattr(self, "key", None) is not None:  # this throttle counted the request
            outages.answered("Redis")
            _note(request._request, _quota(self))
        return allowed


class AnonRateThrottle(FailOpen, throttling.AnonRateThrottle):
    pass


class UserRateThrottle(FailOpen, throttling.UserRateThrottle):
    pass


class ScopedRateThrottle(FailOpen, throttling.ScopedRateThrottle):
    pass


def _quota(throttle: Any) -> Quota:
    """What a throttle's history (newest first, already trimmed to its window) leaves."""
    history: list[float] = throttle.history
    reset = math.ceil(history[-1] + throttle.duration - throttle.now) if history else 0
    return Quota(
        limit=throttle.num_requests,
        remaining=max(0, throttle.num_requests - len(history)),
        reset=max(0, reset),
    )


def _note(request: HttpRequest, quota: Quota) -> None:
    noted: Quota | None = getattr(request, _QUOTA_ATTRIBUTE, None)
    if noted is None or quota.tighter_than(noted):
        setattr(request, _QUOTA_ATTRIBUTE, quota)


def quota_noted(request: HttpRequest) -> bool:
    """Whether the throttles have noted this request's quota (then reading it costs no I/O)."""
    return hasattr(request, _QUOTA_ATTRIBUTE)


def tightest_quota(request: HttpRequest) -> Quota | None:
    """The tightest limit the throttles noted for this request; for an answer given before they
    ran (no or a refused token, an unknown path), the address's limits, read without counting.
    None when the cache cannot be reached."""
    noted: Quota | None = getattr(request, _QUOTA_ATTRIBUTE, None)
    if noted is not None:
        return noted
    anonymous = Request(request)  # no authenticators: the caller as the throttles saw it
    try:
        for throttle_class in (AnonRateThrottle, UserRateThrottle):
            throttle: Any = throttle_class()
            key = throttle.get_cache_key(anonymous, None)
            if throttle.rate is None or key is None:
                continue
            throttle.now = throttle.timer()
            throttle.history = [
                at for at in throttle.cache.get(key, []) if at > throttle.now - throttle.duration
            ]
            _note(request, _quota(throttle))
    except Exception:
        logger.exception("no rate limit headers: the cache is unreachable")
        return None
    return getattr(request, _QUOTA_ATTRIBUTE, None)
