"""Every JSON answer the API tests get is checked against the published OpenAPI schema.

The schema is generated from the code once per test session (``tests/api/test_schema.py`` checks
that the committed ``docs/openapi.yaml`` is the same document). Each answer is looked up by path,
method and status, and its body validated by ``fastjsonschema`` (the schema compiled to Python
once per operation: the whole-game tests validate tens of thousands of views), so a served field,
status or content type that the schema does not describe fails the test that got it.

OpenAPI 3.0 schemas are not quite JSON Schema; :func:`as_json_schema` translates what ours use:
``nullable`` (also beside ``allOf``/``oneOf``, as drf-spectacular writes a nullable reference and
generators read it) and ``discriminator`` (a choice by the discriminating property, so that an
error names the field at fault rather than "no alternative matched"). It also closes every object
that lists its properties, so that a field served but not in the schema fails too.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from functools import cache
from typing import Any

import fastjsonschema
from django.http import HttpResponse
from drf_spectacular.generators import SchemaGenerator

from tests.reprs import python_in_problem

API_PREFIX = "/api/v1/"
IGNORED = {"nullable", "discriminator", "readOnly", "writeOnly", "example"}


class SchemaMismatch(AssertionError):
    pass


def as_json_schema(node: Any) -> Any:
    """An OpenAPI 3.0 schema as the equivalent JSON Schema (draft 7)."""
    if isinstance(node, list):
        return [as_json_schema(item) for item in node]
    if not isinstance(node, dict):
        return node
    if "discriminator" in node:
        name, mapping = node["discriminator"]["propertyName"], node["discriminator"]["mapping"]
        return {
            "type": "object",
            "required": [name],
            "properties": {name: {"enum": list(mapping)}},
            "allOf": [
                {"if": {"properties": {name: {"const": value}}}, "then": {"$ref": ref}}
                for value, ref in mapping.items()
            ],
        }
    schema = {key: as_json_schema(value) for key, value in node.items() if key not in IGNORED}
    if "properties" in schema:
        # Closed here, open in the published schema (clients must ignore fields they do not
        # know): every field the service sends must be in the schema.
        schema.setdefault("additionalProperties", False)
    if node.get("nullable") is True:
        if "type" not in schema:
            return {"anyOf": [{"type": "null"}, schema]}
        schema["type"] = [schema["type"], "null"]
        if "enum" in schema:
            schema["enum"] = [*schema["enum"], None]
    return schema


@cache
def published_schema() -> dict[str, Any]:
    """The schema as ``/api/v1/schema/`` serves it (JSON-ready: no tuples, no lazy strings)."""
    return json.loads(json.dumps(SchemaGenerator().get_schema(request=None, public=True)))


@cache
def _routes() -> list[tuple[re.Pattern[str], str]]:
    """Every path template as a pattern, the literal ones first (as Django routes them:
    ``players/me/`` before ``players/{username}/``)."""
    routes = []
    for template in sorted(published_schema()["paths"], key=lambda t: "{" in t):
        pattern = re.sub(r"\\\{[^}]+\\\}", "[^/]+", re.escape(template))
        routes.append((re.compile(f"^{pattern}$"), template))
    return routes


def route_of(path: str) -> str | None:
    """The schema's path template that ``path`` is an instance of (trailing slash optional)."""
    for candidate in (path, path if path.endswith("/") else path + "/"):
        for pattern, template in _routes():
            if pattern.match(candidate):
                return template
    return None


@cache
def _json_schema() -> dict[str, Any]:
    return as_json_schema(published_schema())


@cache
def _validator(template: str, method: str, status: str, media_type: str) -> Callable[[Any], Any]:
    schema = _json_schema()
    body = schema["paths"][template][method]["responses"][status]["content"][media_type]["schema"]
    # The components stay beside the body's schema: its references name them.
    return fastjsonschema.compile({**body, "components": schema["components"]})


def check_response(method: str, path: str, response: HttpResponse) -> None:
    """Raise SchemaMismatch unless the schema describes this answer to ``method path``."""
    if not path.startswith(API_PREFIX):
        return
    template = route_of(path)
    if template is None:  # an unknown path: 404 not_found, checked by the tests of errors
        return
    operations = published_schema()["paths"][template]
    method = method.lower()
    where = f"{method.upper()} {path} → {response.status_code}"
    if method not in operations:
        if response.status_code in (405, 404) or method in ("head", "options"):
            return
        raise SchemaMismatch(f"{where}: the schema has no {method.upper()} {template}")
    responses = operations[method]["responses"]
    status = str(response.status_code)
    if status not in responses:
        if response.status_code in (405, 413, 415, 429) or response.status_code >= 500:
            return  # answered by the framework for any operation, documented once in docs/api.md
        raise SchemaMismatch(f"{where}: status not in the schema ({sorted(responses)})")
    media_type = response.get("Content-Type", "").split(";")[0].strip()
    content = responses[status].get("content", {})
    if not content and not response.content:  # 204: no body, as the schema says
        return
    if media_type not in content:
        raise SchemaMismatch(f"{where}: content type {media_type!r} not in {sorted(content)}")
    if getattr(response, "streaming", False) or not media_type.endswith("json"):
        return
    body = json.loads(response.content)
    if media_type == "application/problem+json" and (leaks := python_in_problem(body)):
        raise SchemaMismatch(f"{where}: the problem speaks Python: {leaks}")
    try:
        _validator(template, method, status, media_type)(body)
    except fastjsonschema.JsonSchemaValueException as error:
        rule = f"{error.rule}: {error.rule_definition}"[:300]
        raise SchemaMismatch(f"{where}: {error.message} ({rule})") from None
