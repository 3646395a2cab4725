"""Template filters of the tournament pages."""

from typing import Any

from django import template

register = template.Library()


@register.filter
def of(mapping: dict[str, Any] | None, key: str) -> Any:
    """``totals|of:name``: the value under a key that is not a plain identifier (a name)."""
    return (mapping or {}).get(key, "")
