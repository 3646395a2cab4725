"""Input and output shapes of the tournaments API (they also feed the OpenAPI schema)."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from switchsite.api.schema import page_of
from tournaments.models import Round, Tournament


class TournamentCreateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=120)
    ruleset = serializers.CharField(max_length=40)
    scoring = serializers.ChoiceField(choices=Tournament.Scoring.choices)
    rounds = serializers.IntegerField(min_value=1, max_value=50)
    table_size = serializers.IntegerField(min_value=2, max_value=10)
    deals_per_round = serializers.IntegerField(
        min_value=1, max_value=100, required=False, default=None
    )
    target = serializers.IntegerField(min_value=1, max_value=100_000, required=False, default=None)
    seating = serializers.ChoiceField(
        choices=Tournament.Seating.choices, required=False, default=Tournament.Seating.BALANCED
    )
    bye_policy = serializers.ChoiceField(
        choices=Tournament.ByePolicy.choices,
        required=False,
        default=Tournament.ByePolicy.ZERO,
        help_text="What a bye is worth: 0, the entry's own average, or the round's best.",
    )
    options = serializers.DictField(
        required=False, default=dict, help_text="House rules: option overrides on the preset."
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if attrs["deals_per_round"] is not None and attrs["target"] is not None:
            raise serializers.ValidationError(
                {"target": ["Give deals_per_round or target, not both."]}
            )
        return attrs


class EntrantSerializer(serializers.Serializer):
    """``{}`` for the caller; staff: ``{"player": username}`` or ``{"bot": strategy, "name": ...}``."""

    player = serializers.CharField(max_length=150, required=False, default=None)
    bot = serializers.CharField(max_length=20, required=False, default=None)
    name = serializers.CharField(max_length=150, required=False, default=None)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if attrs["player"] is not None and (attrs["bot"] is not None or attrs["name"] is not None):
            raise serializers.ValidationError({"player": ["Name a player or a bot, not both."]})
        return attrs


class EntrySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    player = serializers.CharField(allow_null=True)
    bot = serializers.CharField(allow_null=True)
    joined_round = serializers.IntegerField()
    withdrawn = serializers.BooleanField()


class SeatedSerializer(serializers.Serializer):
    entry = serializers.IntegerField()
    name = serializers.CharField()
    bot = serializers.CharField(allow_null=True)


class TableSeatSerializer(SeatedSerializer):
    seat = serializers.IntegerField()


class TableSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    match = serializers.IntegerField(allow_null=True)
    recorded = serializers.BooleanField(
        help_text="The match has ended and its score lines are written."
    )
    seats = TableSeatSerializer(many=True)


class RoundSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    status = serializers.ChoiceField(choices=Round.Status.choices)
    seed = serializers.IntegerField(help_text="The draw's seed: it reproduces the seating.")
    repeats = serializers.IntegerField(help_text="Pairs meeting again this round.")
    repeat_lower_bound = serializers.IntegerField(
        help_text="The fewest repeats any seating could have."
    )
    published_at = serializers.DateTimeField(allow_null=True)
    tables = TableSerializer(many=True)
    byes = SeatedSerializer(many=True)


class TournamentSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    ruleset = serializers.CharField()
    options = serializers.DictField()
    scoring = serializers.ChoiceField(choices=Tournament.Scoring.choices)
    planned_rounds = serializers.IntegerField(help_text="The `rounds` given at creation.")
    table_size = serializers.IntegerField()
    deals_per_round = serializers.IntegerField(allow_null=True)
    target = serializers.IntegerField(allow_null=True)
    seating = serializers.ChoiceField(choices=Tournament.Seating.choices)
    bye_policy = serializers.ChoiceField(choices=Tournament.ByePolicy.choices)
    status = serializers.ChoiceField(choices=Tournament.Status.choices)
    created_by = serializers.CharField()
    created_at = serializers.DateTimeField()
    entries = EntrySerializer(many=True)
    rounds = RoundSerializer(many=True, help_text="The published rounds, first to last.")


class TournamentSummarySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    ruleset = serializers.CharField()
    scoring = serializers.CharField()
    status = serializers.CharField()
    planned_rounds = serializers.IntegerField(source="rounds")
    current_round = serializers.IntegerField(help_text="Rounds published so far.")
    entries = serializers.IntegerField(source="entry_count", help_text="Active entries.")
    created_at = serializers.DateTimeField()


TournamentPageSerializer = page_of(TournamentSummarySerializer, "TournamentPageSerializer")


class TiebreaksSerializer(serializers.Serializer):
    table_share = serializers.FloatField()
    opponents_score = serializers.FloatField()
    deals_won = serializers.IntegerField()
    head_to_head = serializers.FloatField(allow_null=True)
    lot = serializers.FloatField()


class StandingRowSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    entry = serializers.IntegerField()
    player = serializers.CharField(help_text="The entry's display name (a player's username).")
    bot = serializers.CharField(allow_null=True)
    score = serializers.FloatField(
        help_text="The ranking score: share of table opponents outscored."
    )
    points = serializers.FloatField(help_text="The raw tally or total, byes included.")
    deals_won = serializers.IntegerField()
    played = serializers.IntegerField()
    byes = serializers.IntegerField()
    withdrawn = serializers.BooleanField()
    tiebreaks = TiebreaksSerializer()
    rating = serializers.FloatField(help_text="openskill ordinal μ − 3σ after every rated match.")
    round_points = serializers.DictField(
        child=serializers.FloatField(allow_null=True), help_text="Points per round number."
    )
