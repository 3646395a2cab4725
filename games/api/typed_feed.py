"""The typed shapes of the player's feed for the OpenAPI schema, one schema per kind of feed entry,
discriminated by ``type`` (the rest of the API's shapes are in ``typed``)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import PolymorphicProxySerializer
from rest_framework import serializers

from games.api.typed import (
    Kinds,
    OutcomeSerializer,
    ViewField,
    camel,
    seat,
    shape,
    tag,
    union_field,
)
from games.models import Challenge


def bot_account() -> serializers.BooleanField:
    # Not required: entries written before it was added lack it (the feed keeps what was written).
    return serializers.BooleanField(required=False, help_text="That player is a bot account.")


FEED_DATA: dict[str, tuple[str, dict[str, serializers.Field]]] = {
    "your_turn": (
        "It is your turn; `view` is your full view then, legal_moves included.",
        {"seat": seat(), "version": serializers.IntegerField(), "view": ViewField()},
    ),
    "match_started": ("A match you sit in started.", {"seat": seat()}),
    "match_end": (
        "A match you sit in ended: `result`, or `abandoned`.",
        {
            "result": OutcomeSerializer(required=False),
            "abandoned": serializers.BooleanField(required=False),
        },
    ),
    "player_joined": (
        "Someone took a seat in a waiting match of yours.",
        {"seat": seat(), "player": serializers.CharField(), "bot_account": bot_account()},
    ),
    "player_left": (
        "Someone left a waiting match of yours.",
        {"seat": seat(), "player": serializers.CharField(), "bot_account": bot_account()},
    ),
    "challenge": (
        "You are challenged.",
        {
            "challenge": serializers.IntegerField(),
            "from": serializers.CharField(),
            "from_bot_account": bot_account(),
            "ruleset": serializers.CharField(),
        },
    ),
    "challenge_declined": (
        "A challenge you are part of was declined, and why.",
        {
            "challenge": serializers.IntegerField(),
            "player": serializers.CharField(),
            "reason": serializers.ChoiceField(choices=Challenge.Reason.values),
        },
    ),
    "challenge_cancelled": (
        "A challenge you were invited to was cancelled.",
        {"challenge": serializers.IntegerField(), "player": serializers.CharField()},
    ),
    "challenge_expired": (
        "A challenge you are part of expired before everyone had answered.",
        {"challenge": serializers.IntegerField()},
    ),
    "round_seated": (
        "A tournament round seated you (`match`: null when played with real cards).",
        {
            "tournament": serializers.IntegerField(),
            "round": serializers.IntegerField(),
            "table": serializers.IntegerField(),
            "seat": seat(),
        },
    ),
}


def feed_event(name: str, doc: str, data: dict[str, Any]) -> type[serializers.Serializer]:
    data_fields = {
        "match": serializers.IntegerField(allow_null=True, help_text="The match, if any."),
        **data,
    }
    fields = {
        "seq": serializers.IntegerField(),
        "at": serializers.DateTimeField(),
        "type": tag(name, "feed"),
        "match": serializers.IntegerField(allow_null=True),
        "data": shape(camel(name) + "FeedData", data_fields)(),
    }
    return shape(camel(name) + "FeedEvent", fields, doc)


FEED_EVENTS: Kinds = {name: feed_event(name, doc, data) for name, (doc, data) in FEED_DATA.items()}
FEED_EVENT = PolymorphicProxySerializer(
    "FeedEvent", serializers=FEED_EVENTS, resource_type_field_name="type"
)
FeedEventField = union_field(FEED_EVENT)
