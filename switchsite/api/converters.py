"""The path converter of the API's ids (``<id:match_id>``): at most 18 digits, so that every id a
path can carry fits the database's 64-bit integers — Django's ``int`` takes any number of digits,
and a longer one failed in the database lookup (500) instead of being nobody's id (404)."""

from __future__ import annotations

# 18 digits: below 2**63 - 1, the largest bigint.
MAX_DIGITS = 18
MAX_ID = 10**MAX_DIGITS - 1


class IdConverter:
    regex = f"[0-9]{{1,{MAX_DIGITS}}}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)
