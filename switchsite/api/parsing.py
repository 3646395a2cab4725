"""Request parsing shared by every view: JSON bodies only, validated by a serializer or refused."""

from __future__ import annotations

from typing import Any

from rest_framework import parsers, serializers
from rest_framework.exceptions import ParseError


def parsed(serializer_class: type[serializers.Serializer], data: Any) -> dict[str, Any]:
    """The validated data, or a ValidationError that the exception handler turns into 400."""
    serializer = serializer_class(data=data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


class JSONParser(parsers.JSONParser):
    """DRF's JSON parser, refusing a body nested too deeply for the decoder with 400 (not 500)."""

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        try:
            return super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ParseError("JSON parse error - the document is nested too deeply.") from None
