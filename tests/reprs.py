"""What a problem document must not say: Python's reprs, where the API speaks JSON and sentences.
Checked on every answer of the API tests (tests/openapi.py) and of schemathesis's requests
(tests/clients/schemathesis/hooks.py). No Django here: schemathesis's process imports it."""

from __future__ import annotations

import re
from typing import Any

# What Python's reprs look like in a sentence, and JSON's words never do: a DRF error's repr, an
# enum member (``Scope.PLAY``), a dict keyed by numbers (DRF's errors of a list's items), None
# and the booleans (JSON says null, true, false), an object's default repr, escapes of repr.
PYTHON_REPR = re.compile(
    r"ErrorDetail\(|\b[A-Z]\w*\.[A-Z][A-Z_]+\b|\{\d+: |\bNone\b|\bTrue\b|\bFalse\b"
    r"| object at 0x|<class '|\\x[0-9a-f]{2}"
)


def python_in_problem(problem: Any) -> list[str]:
    """The messages of a problem document (``detail``, every message of ``errors``) that carry a
    Python repr rather than the API's words."""
    errors = problem.get("errors") if isinstance(problem, dict) else None
    messages: list[Any] = [problem.get("detail")] if isinstance(problem, dict) else []
    if isinstance(errors, dict):
        messages += [
            m for found in errors.values() for m in (found if isinstance(found, list) else [found])
        ]
        messages += list(errors)  # the places too: "scopes[2]", never "{2: …}"
    return [str(m) for m in messages if not isinstance(m, str) or PYTHON_REPR.search(m)]
