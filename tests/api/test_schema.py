"""The published OpenAPI schema: valid, complete for the API guide and the URLconf, typed for every action,
event and feed event the code emits, and the committed copy in step.

(Every answer of the API tests is also validated against it: tests/openapi.py.)"""

import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from django.core.management import call_command
from django.urls import URLPattern, URLResolver, get_resolver
from django.utils import translation
from rest_framework.test import APIClient

from games.api import schema_shapes
from switchgame import bots
from switchgame.abbott.actions import ACTION_FIELDS as ABBOTT_ACTIONS
from switchgame.shedding.actions import ACTION_DICTS

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
COMMITTED = ROOT / "docs" / "openapi.yaml"
# The schema's own endpoints, which it does not describe.
UNDOCUMENTED = {"/api/v1/schema/", "/api/v1/docs/", "/api/v1/redoc/"}

# Every endpoint of the API guide, as (method, path).
API_MD = [
    ("post", "/api/v1/players/"),
    ("post", "/api/v1/auth/token/"),
    ("get", "/api/v1/players/me/"),
    ("get", "/api/v1/rulesets/"),
    ("post", "/api/v1/matches/"),
    ("get", "/api/v1/matches/"),
    ("post", "/api/v1/matches/{match_id}/join/"),
    ("post", "/api/v1/matches/{match_id}/start/"),
    ("get", "/api/v1/matches/{match_id}/"),
    ("post", "/api/v1/matches/{match_id}/moves/"),
    ("get", "/api/v1/matches/{match_id}/events/"),
    ("get", "/api/v1/matches/{match_id}/stream/"),
    ("get", "/api/v1/matches/{match_id}/record/"),
    ("get", "/api/v1/players/{username}/matches/export/"),
    ("post", "/api/v1/matches/{match_id}/resign/"),
    ("get", "/api/v1/players/me/events/"),
    ("get", "/api/v1/players/me/stream/"),
]


@pytest.fixture(scope="module")
def generated(tmp_path_factory) -> str:
    target = tmp_path_factory.mktemp("schema") / "openapi.yaml"
    # In the default language, as `make schema` writes it, whichever a test before left active.
    with translation.override(None):
        call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(target))
    return target.read_text()


def test_committed_schema_matches_the_code(generated):
    assert COMMITTED.read_text() == generated, "docs/openapi.yaml is stale: run `make schema`"


def test_every_api_md_endpoint_is_in_the_schema(generated):
    paths = yaml.safe_load(generated)["paths"]

    missing = [(m, p) for m, p in API_MD if m not in paths.get(p, {})]

    assert not missing


def test_errors_are_documented_as_problem_documents(generated):
    schema = yaml.safe_load(generated)
    moves = schema["paths"]["/api/v1/matches/{match_id}/moves/"]["post"]

    assert {"201", "400", "401", "403", "404", "409", "422"} <= set(moves["responses"])
    problem = moves["responses"]["422"]["content"]["application/problem+json"]["schema"]["$ref"]
    assert problem.endswith("/Problem")
    assert {"type", "title", "status", "detail", "code"} <= set(
        schema["components"]["schemas"]["Problem"]["properties"]
    )


def test_the_token_scheme_is_declared(generated):
    schema = yaml.safe_load(generated)
    token = schema["components"]["securitySchemes"]["tokenAuth"]

    assert token == {
        "type": "apiKey",
        "in": "header",
        "name": "Authorization",
        "description": token["description"],
    }
    assert "Token" in token["description"]


def test_schema_and_docs_are_served_without_authentication():
    client = APIClient()

    assert client.get("/api/v1/schema/").status_code == 200
    assert client.get("/api/v1/docs/").status_code == 200


def api_routes(resolver: URLResolver | None = None, prefix: str = "") -> list[tuple[str, Any]]:
    """Every route of the URLconf under /api/v1/ as an OpenAPI path template, with its view."""
    routes = []
    for pattern in (resolver or get_resolver()).url_patterns:
        route = prefix + str(pattern.pattern)
        if isinstance(pattern, URLResolver):
            routes += api_routes(pattern, route)
        elif isinstance(pattern, URLPattern) and route.startswith("api/v1/"):
            routes.append(("/" + re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", route), pattern.callback))
    return routes


def test_every_endpoint_of_the_urlconf_is_in_the_schema(generated):
    paths = yaml.safe_load(generated)["paths"]
    routes = [(path, view) for path, view in api_routes() if path not in UNDOCUMENTED]

    missing = [
        (method, path)
        for path, view in routes
        for method in ("get", "post", "put", "patch", "delete")
        if hasattr(view.view_class, method) and method not in paths.get(path, {})
    ]

    assert len(routes) > 25
    assert missing == []
    assert set(paths) <= {path for path, _ in routes}


def test_request_bodies_are_json_only(generated):
    schema = yaml.safe_load(generated)
    bodies = [
        (path, method, set(operation["requestBody"]["content"]))
        for path, operations in schema["paths"].items()
        for method, operation in operations.items()
        if "requestBody" in operation
    ]

    assert bodies
    assert [b for b in bodies if b[2] != {"application/json"}] == []


def emitted(pattern: str) -> set[str]:
    """The string literals that ``pattern`` finds in the service's code (not the tests)."""
    found: set[str] = set()
    for package in ("games", "switchgame", "tournaments"):
        for source in (ROOT / package).rglob("*.py"):
            found.update(re.findall(pattern, source.read_text()))
    return found


def discriminated(schema: dict, component: str) -> set[str]:
    return set(schema["components"]["schemas"][component]["discriminator"]["mapping"])


def test_every_event_type_the_code_emits_has_a_schema(generated):
    schema = yaml.safe_load(generated)
    events = emitted(r'\bEvent\(\s*"(\w+)"')

    assert {"deal", "play", "draw", "move", "ally", "hand_end", "match_end", "resign"} <= events
    assert events == discriminated(schema, "Event") == set(schema_shapes.EVENTS)


def test_every_feed_event_type_the_code_emits_has_a_schema(generated):
    schema = yaml.safe_load(generated)
    feed = emitted(r'(?:FeedEntry|Notice)\([^()]*?"(\w+)"')
    feed |= emitted(r'_seat_news\(\w+, "(\w+)"') | emitted(r'_challenge_end\([^()]*"(\w+)"\)')
    feed |= emitted(r'event_type="(\w+)"')

    assert {"your_turn", "player_joined", "challenge_cancelled", "round_seated"} <= feed
    assert feed == discriminated(schema, "FeedEvent") == set(schema_shapes.FEED_EVENTS)


def test_every_action_of_both_games_has_a_schema(generated):
    schema = yaml.safe_load(generated)
    shedding = {action["action"] for action in ACTION_DICTS.values()}

    assert discriminated(schema, "Action") == shedding | set(ABBOTT_ACTIONS)
    assert discriminated(schema, "ActionRequest") == discriminated(schema, "Action")
    play = schema["components"]["schemas"]["PlayActionRequest"]["properties"]
    assert "expected_version" in play
    assert "expected_version" not in schema["components"]["schemas"]["PlayAction"]["properties"]


def test_views_are_typed_per_game(generated):
    schemas = yaml.safe_load(generated)["components"]["schemas"]

    assert discriminated({"components": {"schemas": schemas}}, "View") == {"shedding", "abbott"}
    shedding, abbott = schemas["SheddingView"]["properties"], schemas["AbbottView"]["properties"]
    assert {"turn", "finish_order", "last_deal", "history", "pending"} <= set(shedding)
    assert {"grid", "pieces", "players", "size", "piece_to_move", "controls"} <= set(abbott)
    assert "hand" in schemas["SheddingYou"]["properties"]
    assert "hand" not in schemas["AbbottYou"]["properties"]
    assert shedding["legal_moves"]["items"] == {"$ref": "#/components/schemas/Action"}


def test_the_served_schema_is_the_committed_one():
    served = APIClient().get("/api/v1/schema/", HTTP_ACCEPT="application/vnd.oai.openapi")

    assert yaml.safe_load(served.content) == yaml.safe_load(COMMITTED.read_text())


def test_the_schema_names_every_ruleset_and_bot_strategy_the_service_takes(generated, alice):
    """Enums, so that a request built from the schema names only what exists: every ruleset of
    GET /rulesets/ and every strategy their bots may take, with the names still accepted for
    them (switchgame.bots.ALIASES)."""
    schemas = yaml.safe_load(generated)["components"]["schemas"]
    rulesets = alice.get("/api/v1/rulesets/?page_size=100").json()["results"]
    aliases = {alias for names in bots.ALIASES.values() for alias in names}

    assert schemas["RulesetEnum"]["enum"] == [ruleset["name"] for ruleset in rulesets]
    assert (
        set(schemas["StrategyEnum"]["enum"])
        == {strategy for ruleset in rulesets for strategy in ruleset["bots"]} | aliases
    )
