"""The tournament endpoints of the API guide are in the published OpenAPI schema, errors as problems.

(tests/api/test_schema.py checks that the committed schema is the one the code generates.)"""

from pathlib import Path

import yaml

SCHEMA = Path(__file__).resolve().parents[2] / "docs" / "openapi.yaml"

TOURNAMENT_ENDPOINTS = [
    ("post", "/api/v1/tournaments/"),
    ("get", "/api/v1/tournaments/"),
    ("get", "/api/v1/tournaments/{tournament_id}/"),
    ("post", "/api/v1/tournaments/{tournament_id}/register/"),
    ("post", "/api/v1/tournaments/{tournament_id}/withdraw/"),
    ("post", "/api/v1/tournaments/{tournament_id}/start/"),
    ("post", "/api/v1/tournaments/{tournament_id}/next-round/"),
    ("get", "/api/v1/tournaments/{tournament_id}/standings/"),
    (
        "post",
        "/api/v1/tournaments/{tournament_id}/rounds/{round_number}/tables/{table_number}/result/",
    ),
]


def test_every_tournament_endpoint_is_in_the_schema():
    paths = yaml.safe_load(SCHEMA.read_text())["paths"]

    assert [(m, p) for m, p in TOURNAMENT_ENDPOINTS if m not in paths.get(p, {})] == []
    next_round = paths["/api/v1/tournaments/{tournament_id}/next-round/"]["post"]["responses"]
    assert "application/problem+json" in next_round["409"]["content"]
    standings = paths["/api/v1/tournaments/{tournament_id}/standings/"]["get"]["responses"]["200"]
    assert set(standings["content"]) == {
        "application/json",
        "text/csv",
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    }
