"""Template filters of the tournament pages."""

import math
from datetime import datetime
from typing import Any

from django import template

register = template.Library()


@register.filter
def of(mapping: dict[str, Any] | None, key: str) -> Any:
    """``totals|of:name``: the value under a key that is not a plain identifier (a name)."""
    return (mapping or {}).get(key, "")


@register.filter
def countdown(clock: dict[str, Any], now: str) -> str:
    """A round's ``clock`` as the pages first show it at ``now`` (then live.js counts down):
    ``m:ss``, or ``h:mm:ss`` from an hour."""
    if clock["paused_remaining"] is not None:
        seconds = float(clock["paused_remaining"])
    elif clock["ends_at"]:
        left = datetime.fromisoformat(clock["ends_at"]) - datetime.fromisoformat(now)
        seconds = left.total_seconds()
    else:
        return ""
    whole = max(math.ceil(seconds), 0)
    hours, rest = divmod(whole, 3600)
    minutes, seconds_left = divmod(rest, 60)
    if hours:
        return f"{hours}:{minutes:02}:{seconds_left:02}"
    return f"{minutes}:{seconds_left:02}"
