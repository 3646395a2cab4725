"""OpenAPI building blocks every API module uses: problem documents, pages, common headers."""

from __future__ import annotations

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


PROBLEM = OpenApiResponse(ProblemSerializer, description="A problem document (RFC 9457).")
IDEMPOTENCY_KEY = OpenApiParameter(
    "Idempotency-Key",
    str,
    OpenApiParameter.HEADER,
    description="Makes a retried request safe: the first answer is returned, nothing is applied twice.",
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
