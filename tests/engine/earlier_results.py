"""Results as the service wrote them before they carried tallies, for the tests that check old
logs and records are still read as they were written (docs/rules.md §7.6)."""

from __future__ import annotations

from typing import Any


def earlier_form(result: dict[str, Any]) -> dict[str, Any]:
    """A result as the service wrote it before results carried tallies (docs/rules.md §7.6)."""
    earlier = {key: value for key, value in result.items() if key != "conceded"}
    earlier["hands"] = [{k: v for k, v in h.items() if k != "tallies"} for h in result["hands"]]
    won = [sum(h["winner"] == s for h in result["hands"]) for s in range(len(result["totals"]))]
    earlier["ranking"] = sorted(result["ranking"], key=lambda s: (-result["totals"][s], -won[s], s))
    earlier["winner"] = earlier["ranking"][0]
    return earlier
