"""OpenAPI building blocks every API module uses: problem documents, pages, common headers."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any, TypeVar

from drf_spectacular.utils import OpenApiParameter, OpenApiResponse
from rest_framework import serializers

from switchsite.problems import PROBLEM_CONTENT_TYPE


class ProblemSerializer(serializers.Serializer):
    """An RFC 9457 problem document; ``code`` is stable and machine-readable."""

    type = serializers.CharField()
    title = serializers.CharField()
    status = serializers.IntegerField()
    detail = serializers.CharField()
    code = serializers.CharField()
    errors = serializers.DictField(  # type: ignore[assignment]  # a declared field, not the attribute (DRF's metaclass moves it)
        child=serializers.ListField(child=serializers.CharField()),
        required=False,
        help_text="What is wrong, per field or place in the body (codes `invalid`, `invalid_result`, `invalid_entries`).",
    )
    oldest = serializers.IntegerField(
        required=False,
        help_text="`cursor_expired` only: the first `seq` still kept; resume with `after` = oldest − 1.",
    )
    last = serializers.IntegerField(
        required=False,
        help_text="`cursor_expired` only: the last `seq` now; resume with `after` = last after "
        "reading the match (or your matches) again.",
    )
    incarnation = serializers.CharField(
        required=False,
        help_text="`cursor_expired` only: the incarnation of the database now, to send with the "
        "new cursor.",
    )
    limit = serializers.CharField(
        required=False,
        help_text="`limit_reached` and `too_many_streams` only: the limit, by the server's setting "
        "(`USER_OPEN_MATCHES`, `USER_BOT_SEATS`, `STREAMS_PER_TOKEN`, `STREAMS_PER_ADDRESS`).",
    )
    allowed = serializers.IntegerField(
        required=False,
        help_text="`limit_reached` and `too_many_streams` only: what the limit allows.",
    )


PROBLEM = OpenApiResponse(ProblemSerializer, description="A problem document (RFC 9457).")
IDEMPOTENCY_KEY = OpenApiParameter(
    "Idempotency-Key",
    str,
    OpenApiParameter.HEADER,
    description="Makes a retried request safe: the first answer is returned, nothing is applied twice.",
)


# The schema of one Server-Sent Event of a stream (before OpenAPI 3.2, the `schema` of a
# `text/event-stream` answer describes each event): `id` the event's `seq`, `event` its `type`,
# `data` the event itself as JSON, exactly as the long poll lists it; a stream opens with `retry`.
SSE_EVENT = OpenApiResponse(
    {
        "type": "object",
        "properties": {
            "id": {"type": "string", "description": "The event's `seq`: resume after it."},
            "event": {"type": "string", "description": "The event's `type`."},
            "data": {"type": "string", "description": "The event as JSON."},
            "retry": {"type": "integer", "description": "Milliseconds to wait to reconnect."},
        },
    },
    description="Server-Sent Events, one per event (with `id`, `event` and JSON `data`).",
)


def problems(*statuses: int) -> dict[tuple[int, str], OpenApiResponse]:
    """The problem-document responses of an operation, by status."""
    return {(code, PROBLEM_CONTENT_TYPE): PROBLEM for code in statuses}


def page_of(
    item: type[serializers.Serializer] | type[serializers.Field], name: str
) -> type[serializers.Serializer]:
    """The schema of one page of a list: ``{"count", "next", "previous", "results"}`` (the API guide);
    ``item`` is the serializer or field class of one result."""
    results = (
        item(many=True)
        if issubclass(item, serializers.BaseSerializer)
        else serializers.ListField(child=item())
    )
    fields = {
        "count": serializers.IntegerField(),
        "next": serializers.URLField(allow_null=True, help_text="The next page, if any."),
        "previous": serializers.URLField(allow_null=True),
        "results": results,
    }
    return type(name, (serializers.Serializer,), fields)


# What any operation may answer whatever it does (the contract's "Serving, errors and failure"):
# 400 a request the server cannot take (a Host it does not serve, malformed query parameters),
# 406 a `?format=` or `Accept` it cannot answer, 429 a throttle, 503 the database unavailable.
_ANY_OPERATION = (400, 406, 429, 503)
# …an operation that needs a signed-in caller: 401, and 403 `insufficient_scope` for a named token
# whose scopes do not allow it; one with a body: 413 too big, 415 not JSON;
# one that takes an Idempotency-Key: 400 a malformed key, 422 a key reused for another request.
_SIGNED_IN, _WITH_BODY, _IDEMPOTENT = (401, 403), (413, 415), (422,)


# The answers of the event endpoints (long polls and streams) say which incarnation of the
# database their events are of (switchsite.incarnation); clients send it back with their cursor.
INCARNATION_HEADER = "Switch-Incarnation"
INCARNATION_HEADER_SCHEMA = {
    "description": "The incarnation of the database these events are of: send it back as "
    "`incarnation` with the cursor.",
    "schema": {"type": "string"},
}

# Every answer of the API carries the caller's tightest rate limit (switchsite.api.throttling).
RATE_LIMIT_HEADERS = {
    "RateLimit-Limit": {
        "description": "Requests allowed in the window of the caller's tightest limit.",
        "schema": {"type": "integer"},
    },
    "RateLimit-Remaining": {
        "description": "Requests left in that window (0: the next is refused with 429).",
        "schema": {"type": "integer"},
    },
    "RateLimit-Reset": {
        "description": "Seconds until the oldest request counted leaves the window.",
        "schema": {"type": "integer"},
    },
}


Body = TypeVar("Body", bound=type[serializers.Serializer])


@dataclass(frozen=True)
class BodySchema:
    """What a request body's schema says besides its fields' own schemas: the bodies that the
    serializer's ``validate`` refuses across fields (``refused``: JSON Schemas, which the body's
    ``not`` lists), and what its fields' schemas cannot say of themselves (``fields``: keywords
    laid over a property's)."""

    refused: tuple[dict[str, Any], ...] = ()
    fields: dict[str, dict[str, Any]] = field(default_factory=dict)


# By the body's component (``<name>Request``), laid over it by the hook below.
_BODY_SCHEMAS: dict[str, BodySchema] = {}


def body_schema(
    *refused: dict[str, Any], fields: dict[str, dict[str, Any]] | None = None
) -> Callable[[Body], Body]:
    """Say in the schema of a serializer's request bodies what its ``validate`` refuses (with what
    the serializers it extends said): see :class:`BodySchema`."""

    def registered(serializer: Body) -> Body:
        own = BodySchema(refused, fields or {})
        serializer._body_schema = own  # type: ignore[attr-defined]
        said = [
            vars(base)["_body_schema"]
            for base in serializer.__mro__[::-1]
            if "_body_schema" in vars(base)
        ]
        _BODY_SCHEMAS[serializer.__name__.removesuffix("Serializer") + "Request"] = BodySchema(
            tuple(rule for schema in said for rule in schema.refused),
            {name: rules for schema in said for name, rules in schema.fields.items()},
        )
        return serializer

    return registered


def together(*names: str) -> list[dict[str, Any]]:
    """The bodies giving two or more of ``names``."""
    return [{"required": list(pair)} for pair in combinations(names, 2)]


def without(name: str, needed: str) -> dict[str, Any]:
    """The bodies giving ``name`` without ``needed``."""
    return {"required": [name], "not": {"required": [needed]}}


def _requires_fields(result: dict[str, Any], body: dict[str, Any]) -> bool:
    """Whether a request body must have fields (every shape it may take requires some), so that
    no body at all is refused too: the body itself is then required."""

    def requires(schema: dict[str, Any]) -> bool:
        if "$ref" in schema:
            schema = result["components"]["schemas"][schema["$ref"].rsplit("/", 1)[-1]]
        if "oneOf" in schema:
            return all(requires(shape) for shape in schema["oneOf"])
        return bool(schema.get("required"))

    return any(requires(content["schema"]) for content in body["content"].values())


def every_operations_problems(
    result: dict[str, Any], generator: Any, request: Any, public: bool
) -> dict[str, Any]:
    """drf-spectacular's post-processing hook: every operation lists the problems any request may
    get besides its own, every answer the rate limit headers (the event endpoints' events their
    incarnation too), request bodies refuse fields they do not declare
    (``additionalProperties: false``, as :func:`switchsite.api.parsing.parsed` does) and keep
    what :func:`body_schema` says of them."""
    problem = {
        "description": "A problem document (RFC 9457).",
        "content": {PROBLEM_CONTENT_TYPE: {"schema": {"$ref": "#/components/schemas/Problem"}}},
    }
    result["components"]["headers"] = {
        **RATE_LIMIT_HEADERS,
        INCARNATION_HEADER: INCARNATION_HEADER_SCHEMA,
    }
    quota_headers = {name: {"$ref": f"#/components/headers/{name}"} for name in RATE_LIMIT_HEADERS}
    for methods in result["paths"].values():
        for operation in methods.values():
            if any(p.get("name") == "incarnation" for p in operation.get("parameters", [])):
                events = operation["responses"]["200"]
                events["headers"] = {
                    INCARNATION_HEADER: {"$ref": f"#/components/headers/{INCARNATION_HEADER}"}
                }
            if "requestBody" in operation and _requires_fields(result, operation["requestBody"]):
                operation["requestBody"]["required"] = True
            statuses = list(_ANY_OPERATION)
            if any(operation.get("security", [])):  # none, or only {}: open to anyone
                statuses += _SIGNED_IN
            if "requestBody" in operation:
                statuses += _WITH_BODY
            if any(p.get("name") == "Idempotency-Key" for p in operation.get("parameters", [])):
                statuses += _IDEMPOTENT
            responses = operation["responses"]
            for status in statuses:
                responses.setdefault(str(status), problem)
            operation["responses"] = {
                status: {**response, "headers": {**response.get("headers", {}), **quota_headers}}
                for status, response in sorted(responses.items())
            }
    for name, component in result["components"]["schemas"].items():
        if name.endswith("Request") and component.get("type") == "object":
            component.setdefault("additionalProperties", False)
        if name in _BODY_SCHEMAS:
            said = _BODY_SCHEMAS[name]
            for field_name, keywords in said.fields.items():
                component["properties"][field_name].update(keywords)
            if said.refused:
                component["not"] = {"anyOf": list(said.refused)}
    return result
