"""JSON as this service writes it wherever it is big and hot: orjson, with keys that are not
strings (tallies and totals keyed by seat) written as strings, as ``json.dumps`` writes them."""

from __future__ import annotations

from typing import Any

import orjson

JSON_OPTIONS = orjson.OPT_NON_STR_KEYS


def json_bytes(value: Any) -> bytes:
    return orjson.dumps(value, option=JSON_OPTIONS)


def json_text(value: Any) -> str:
    return json_bytes(value).decode()
