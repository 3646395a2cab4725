"""Schemathesis hooks for the schema test (``SCHEMATHESIS_HOOKS``; tests/clients/test_schema_truth.py).

- A long poll holds its answer up to ``wait`` seconds (≤ 30) when nothing happens, by design: a
  valid ``wait`` is cut to a fifth of a second before the request is sent, so the run does not sit
  out thirty seconds a case (invalid values go as generated, and must be refused).
- Every problem document speaks the API, not Python (no ``ErrorDetail(``, ``Scope.PLAY``, ``{2: …}``
  in its messages: ``tests.openapi.python_in_problem``), whatever request brought it.
- Python 3.11.7's compiler can fail with ``SystemError: AST constructor recursion depth mismatch``
  (a CPython bug, fixed in 3.11.8) when Hypothesis parses a source file deep in a stack only to
  describe a lambda in a strategy's repr: the description falls back to the lambda's name.
"""

from __future__ import annotations

from typing import Any

import schemathesis
from hypothesis.internal import lambda_sources

from tests.reprs import python_in_problem

LONG_POLL_SECONDS = 0.2

_describe = lambda_sources.lambda_description


def _described(function: Any) -> str:
    try:
        return _describe(function)
    except SystemError:
        return "lambda"


lambda_sources.lambda_description = _described


@schemathesis.hook
def before_call(context: Any, case: Any, kwargs: Any) -> None:
    query = case.query
    if not query or "wait" not in query:
        return
    try:
        wait = float(query["wait"])
    except (TypeError, ValueError):
        return
    if LONG_POLL_SECONDS < wait <= 30:
        query["wait"] = LONG_POLL_SECONDS


@schemathesis.check
def problems_speak_the_api(ctx: Any, response: Any, case: Any) -> None:
    """A problem document's messages carry no Python repr."""
    if not response.headers.get("content-type", [""])[0].startswith("application/problem+json"):
        return
    if leaks := python_in_problem(response.json()):
        raise AssertionError(f"the problem speaks Python: {leaks}")
