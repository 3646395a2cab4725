"""The shapes of ladders and quick play in the API, for parsing and for the schema."""

from __future__ import annotations

from rest_framework import serializers

from matchmaking.models import PoolEntry
from switchsite.api.names import RulesetNameField, seats_refused
from switchsite.api.schema import body_schema, page_of


@body_schema(*seats_refused("seats"))
class LadderCreateSerializer(serializers.Serializer):
    ruleset = RulesetNameField()
    seats = serializers.IntegerField(
        min_value=2, max_value=10, help_text="Seats at each table: a count the ruleset allows."
    )
    interval_seconds = serializers.IntegerField(
        min_value=30, max_value=86400, help_text="A round is seated this often."
    )
    turn_seconds = serializers.IntegerField(
        min_value=1,
        max_value=3600,
        required=False,
        default=30,
        help_text="The turn clock of its matches (two timeouts in one make a bot inactive).",
    )


class LadderSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    ruleset = serializers.CharField()
    game = serializers.CharField(help_text="The ruleset's game: shedding or abbott.")
    seats = serializers.IntegerField()
    interval_seconds = serializers.IntegerField()
    turn_seconds = serializers.IntegerField()
    members = serializers.IntegerField(help_text="Bot accounts that joined it.")
    online = serializers.IntegerField(help_text="Members active and online: the next round's.")
    rounds = serializers.IntegerField(help_text="Rounds seated so far.")
    next_round_at = serializers.DateTimeField()
    created_at = serializers.DateTimeField()


LadderPageSerializer = page_of(LadderSerializer, "LadderPageSerializer")


class MembershipSerializer(serializers.Serializer):
    ladder = serializers.IntegerField()
    player = serializers.CharField()
    active = serializers.BooleanField()
    joined_at = serializers.DateTimeField()


class StandingSerializer(serializers.Serializer):
    player = serializers.CharField(help_text="A username, or bot:<strategy> for a server bot.")
    bot = serializers.BooleanField(help_text="Always true: ladders are for bots.")
    rating = serializers.FloatField(help_text="The openskill ordinal μ − 3σ in the ladder's game.")
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    games = serializers.IntegerField(help_text="Rated matches of the ladder's game played.")
    active = serializers.BooleanField(
        help_text="False after two timeouts in one of the ladder's matches, until it joins again."
    )
    last_match = serializers.IntegerField(
        allow_null=True, help_text="Its latest match in this ladder."
    )


StandingsPageSerializer = page_of(StandingSerializer, "StandingsPageSerializer")


@body_schema(*seats_refused("seats"))
class PoolEnterSerializer(serializers.Serializer):
    ruleset = RulesetNameField()
    seats = serializers.IntegerField(min_value=2, max_value=10)
    rated = serializers.BooleanField(required=False, default=False)
    bots_ok = serializers.BooleanField(
        required=False,
        default=False,
        help_text="Server bots may fill the empty seats after wait_seconds.",
    )
    wait_seconds = serializers.IntegerField(
        min_value=0,
        max_value=3600,
        required=False,
        allow_null=True,
        default=None,
        help_text="How long to wait for people before bots fill the table (default 30).",
    )


class PoolEntrySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    status = serializers.ChoiceField(choices=PoolEntry.Status.choices)
    ruleset = serializers.CharField()
    seats = serializers.IntegerField()
    rated = serializers.BooleanField()
    bots_ok = serializers.BooleanField()
    wait_seconds = serializers.IntegerField()
    match = serializers.IntegerField(allow_null=True, help_text="The match, once matched.")
    created_at = serializers.DateTimeField()
