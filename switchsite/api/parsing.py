"""Request parsing shared by every view: validate with a serializer or raise a problem."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers


def parsed(serializer_class: type[serializers.Serializer], data: Any) -> dict[str, Any]:
    """The validated data, or a ValidationError that the exception handler turns into 400."""
    serializer = serializer_class(data=data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data
