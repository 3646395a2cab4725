"""Request parsing shared by every view: JSON bodies only, validated by a serializer or refused,
and content negotiation that refuses what it cannot answer."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from django.http import Http404
from django.utils.translation import gettext
from rest_framework import parsers, serializers
from rest_framework.exceptions import ErrorDetail, NotAcceptable, ParseError, ValidationError
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.renderers import BaseRenderer

from switchgame.words import quoted
from switchsite.api.converters import MAX_DIGITS

# A number the API reads from a query, a header or a path: ASCII digits, at most MAX_DIGITS of
# them, so that it fits the database's 64-bit integers (as the path converter's ids do).
WHOLE_NUMBER = re.compile(f"[0-9]{{1,{MAX_DIGITS}}}")


def whole_number(text: str | None) -> int | None:
    """``text`` as a whole number ≥ 0, or None when it is not one. Not ``str.isdigit`` and ``int``:
    ``"²".isdigit()`` is true and ``int("²")`` fails, ``int("٣")`` is 3, ``int`` takes ``+1``,
    `` 1`` and ``1_0``, and thousands of digits fail in the database."""
    return int(text) if text is not None and WHOLE_NUMBER.fullmatch(text) else None


class WholeNumberField(serializers.IntegerField):
    """A whole number of a query or header (:func:`whole_number`): anything else, 400 ``invalid``.
    At most MAX_DIGITS digits, as the schema says (its ``maximum``)."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("max_value", 10**MAX_DIGITS - 1)
        super().__init__(**kwargs)

    def to_internal_value(self, data: Any) -> int:
        number = whole_number(data) if isinstance(data, str) else None
        if number is None:
            self.fail("invalid")
        return number


def parsed_cursor(name: str, text: str) -> int:
    """The cursor ``text`` (a ``seq`` or a revision: a whole number ≥ 0) given as ``name``, or a
    ValidationError naming it (400 ``invalid``), as the long polls' ``after`` is refused."""
    try:
        return int(WholeNumberField(min_value=0).run_validation(text))
    except ValidationError as error:
        raise ValidationError({name: error.detail}) from None


def parsed(serializer_class: type[serializers.Serializer], data: Any) -> dict[str, Any]:
    """A request body's validated data, or a ValidationError (400) — also for a field the body
    should not have (a misspelt optional field would otherwise be ignored without a word); the
    schema says so (``additionalProperties: false``, switchsite.api.schema)."""
    serializer = serializer_class(data=data)
    unknown = unknown_fields(serializer, data)
    if unknown:
        raise ValidationError({field: [gettext("Unknown field.")] for field in unknown})
    mistyped = mistyped_fields(serializer, data)
    if not serializer.is_valid() or mistyped:
        raise ValidationError({**serializer.errors, **mistyped})
    return serializer.validated_data


def parsed_query(serializer_class: type[serializers.Serializer], query: Any) -> dict[str, Any]:
    """Query parameters' validated data (parameters the serializer does not name are ignored).
    An empty value (``?status=``) is refused like any other invalid one: read as a plain mapping,
    not as an HTML form, where DRF takes an empty optional field for an absent one."""
    serializer = serializer_class(data=dict(query.items()))
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


def unknown_fields(serializer: serializers.BaseSerializer, data: Any, at: str = "") -> list[str]:
    """The fields of ``data`` (paths such as ``bots.0.colour``) that ``serializer`` does not
    declare, nested serializers included; free-form fields (a ``DictField``) take anything."""
    if isinstance(serializer, serializers.ListSerializer):
        child = serializer.child
        if not isinstance(data, list) or not isinstance(child, serializers.BaseSerializer):
            return []
        items = [unknown_fields(child, item, f"{at}{i}.") for i, item in enumerate(data)]
        return [path for found in items for path in found]
    if not isinstance(serializer, serializers.Serializer) or not isinstance(data, Mapping):
        return []
    fields = serializer.fields
    unknown = [f"{at}{name}" for name in data if name not in fields or fields[name].read_only]
    for name, field in fields.items():
        if name in data and isinstance(field, serializers.BaseSerializer):
            unknown += unknown_fields(field, data[name], f"{at}{name}.")
    return unknown


# The JSON type a body's value must have for each kind of field, as the schema says it: DRF takes
# 0 for false, a number for a string and "5" for 5, which the schema calls invalid.
_JSON_TYPES: list[tuple[type[serializers.Field], Callable[[Any], bool]]] = [
    (serializers.BooleanField, lambda value: isinstance(value, bool)),
    (
        serializers.IntegerField,
        lambda value: isinstance(value, int) and not isinstance(value, bool),
    ),
    (
        serializers.FloatField,
        lambda value: isinstance(value, int | float) and not isinstance(value, bool),
    ),
    (serializers.CharField, lambda value: isinstance(value, str)),
]


def _same_json_type(value: Any, choice: Any) -> bool:
    for kind in (bool, int, str):  # bool first: True is an int to Python, not to JSON
        if isinstance(choice, kind):
            return isinstance(value, kind) and (kind is bool or not isinstance(value, bool))
    return True


def mistyped_fields(field: serializers.Field, data: Any) -> Any:
    """Where a JSON body's values are not of the JSON types its fields' schemas say, nested as
    DRF nests its errors (a list's items by index), each with the field's own message; empty when
    there is nowhere. Only what DRF would take: what it refuses by itself, it refuses."""
    if isinstance(field, serializers.ListSerializer | serializers.ListField):
        if not isinstance(data, list) or field.child is None:
            return {}
        items = {i: mistyped_fields(field.child, item) for i, item in enumerate(data)}
        return {i: errors for i, errors in items.items() if errors}
    if isinstance(field, serializers.DictField):
        if not isinstance(data, Mapping) or field.child is None:
            return {}
        values = {key: mistyped_fields(field.child, value) for key, value in data.items()}
        return {key: errors for key, errors in values.items() if errors}
    if isinstance(field, serializers.Serializer):
        if not isinstance(data, Mapping):
            return {}
        named = {
            name: mistyped_fields(inner, data[name])
            for name, inner in field.fields.items()
            if name in data
        }
        return {name: errors for name, errors in named.items() if errors}
    if data is None:
        return {}  # null: the field says whether it may be
    if isinstance(field, serializers.ChoiceField):
        # DRF looks a choice up by its text: it would take 1 for "1".
        taken = str(data) in field.choice_strings_to_values
        if not taken or any(_same_json_type(data, choice) for choice in field.choices):
            return {}
        message = field.error_messages["invalid_choice"].format(input=data)
        return [ErrorDetail(message, code="invalid_choice")]
    for kind, typed in _JSON_TYPES:
        if isinstance(field, kind):
            return (
                []
                if typed(data)
                else [ErrorDetail(str(field.error_messages["invalid"]), code="invalid")]
            )
    return {}


class JSONParser(parsers.JSONParser):
    """DRF's JSON parser, refusing a body nested too deeply for the decoder with 400 (not 500)."""

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        try:
            return super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ParseError(
                gettext("JSON parse error - the document is nested too deeply.")
            ) from None


class ContentNegotiation(DefaultContentNegotiation):
    """DRF's negotiation, but a ``?format=`` the view cannot answer — an empty one too, which DRF
    would take for none — is 406 ``not_acceptable``, as an ``Accept`` it cannot answer is, rather
    than DRF's 404."""

    def select_renderer(
        self, request: Any, renderers: Any, format_suffix: str | None = None
    ) -> tuple[BaseRenderer, str]:
        if request.query_params.get(self.settings.URL_FORMAT_OVERRIDE, None) == "":
            raise NotAcceptable(gettext("An empty format is no format this endpoint answers."))
        return super().select_renderer(request, renderers, format_suffix)

    def filter_renderers(
        self, renderers: Iterable[BaseRenderer], format: str
    ) -> list[BaseRenderer]:
        try:
            return super().filter_renderers(renderers, format)
        except Http404:
            raise NotAcceptable(
                gettext("This endpoint does not answer in format %(format)s.")
                % {"format": quoted(format)}
            ) from None
