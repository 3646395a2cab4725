"""A request body's values have the JSON types the schema gives them: DRF alone would take 0 for
false, a number for a string and "2" for 2, which the schema calls invalid (schemathesis sends
such bodies and expects them refused: tests/clients/test_schema_truth.py)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.api.conftest import assert_problem

pytestmark = pytest.mark.django_db

MATCH = {"ruleset": "switch", "seats": 2}


@pytest.mark.parametrize(
    ("path", "body", "place"),
    [
        ("/api/v1/matches/", {**MATCH, "seats": "2"}, "seats"),
        ("/api/v1/matches/", {**MATCH, "rated": 0}, "rated"),
        ("/api/v1/matches/", {**MATCH, "ruleset": 0}, "ruleset"),
        ("/api/v1/matches/", {**MATCH, "on_resign": 1}, "on_resign"),
        (
            "/api/v1/matches/",
            {**MATCH, "bots": [{"seat": "1", "strategy": "random"}]},
            "bots[0].seat",
        ),
        ("/api/v1/matches/", {**MATCH, "bots": [{"seat": 1, "strategy": 5}]}, "bots[0].strategy"),
        ("/api/v1/auth/tokens/", {"name": 0, "scopes": ["read"]}, "name"),
        ("/api/v1/auth/tokens/", {"name": "bot", "scopes": [1]}, "scopes[0]"),
        ("/api/v1/challenges/", {**MATCH, "to": [7]}, "to[0]"),
    ],
)
def test_a_value_of_another_json_type_is_refused(
    alice, path: str, body: dict[str, Any], place: str
) -> None:
    problem = assert_problem(alice.post(path, body), 400, "invalid")

    assert list(problem["errors"]) == [place]


def test_values_of_their_own_types_are_taken(alice) -> None:
    bots = [{"seat": 1, "strategy": "random"}]
    answer = alice.post("/api/v1/matches/", {**MATCH, "rated": False, "bots": bots})

    assert answer.status_code == 201, answer.content
