"""Input and output shapes of the games API (they also feed the OpenAPI schema)."""

from __future__ import annotations

import unicodedata

from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import (
    MinimumLengthValidator,
    get_default_password_validators,
    validate_password,
)
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core.exceptions import ValidationError as DjangoValidationError
from django.utils.translation import gettext
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from games.api import schema_shapes
from games.models import Challenge, Match
from games.selectors import bot_account
from games.services import RESIGN_POLICIES
from games.services.challenges import EXPIRES_IN_DEFAULT, EXPIRES_IN_RANGE
from switchgame import protocol
from switchsite.api.names import (
    RulesetNameField,
    StrategyField,
    bots_refused,
    options_refused,
    seats_refused,
    target_refused,
)
from switchsite.api.pagination import PageQuerySerializer
from switchsite.api.parsing import WholeNumberField
from switchsite.api.schema import body_schema, page_of

MAX_LONG_POLL_SECONDS = 30
# The shortest password the settings' validators take (AUTH_PASSWORD_VALIDATORS).
MIN_PASSWORD_LENGTH = max(
    (
        validator.min_length
        for validator in get_default_password_validators()
        if isinstance(validator, MinimumLengthValidator)
    ),
    default=1,
)
# Writing systems that are used together in one language count as one (Japanese).
_SAME_SCRIPT = {"HIRAGANA": "CJK", "KATAKANA": "CJK"}


def writing_systems(text: str) -> set[str]:
    """The scripts of the letters in ``text`` (LATIN, CYRILLIC, GREEK, CJK, …), after NFKC: a name
    mixing them ("аdmin" with a Cyrillic а) is a look-alike of another name."""
    scripts = set()
    for char in unicodedata.normalize("NFKC", text):
        if unicodedata.category(char).startswith("L"):
            script = unicodedata.name(char, "UNKNOWN").split()[0]
            scripts.add(_SAME_SCRIPT.get(script, script))
    return scripts


# --- players -----------------------------------------------------------------------------------


class UsernameSerializer(serializers.Serializer):
    """A username as an account may have it; a path's username is checked against it before it
    reaches the database (where a NUL byte, say, would fail)."""

    username = serializers.CharField(max_length=150, validators=[UnicodeUsernameValidator()])


class CredentialsSerializer(UsernameSerializer):
    password = serializers.CharField(
        max_length=128, write_only=True, style={"input_type": "password"}
    )


# What the settings' password validators (``validate`` below) refuse that a schema can say.
@body_schema(fields={"password": {"minLength": MIN_PASSWORD_LENGTH, "pattern": r"\D"}})
class RegistrationSerializer(CredentialsSerializer):
    password = serializers.CharField(
        max_length=128,
        write_only=True,
        style={"input_type": "password"},
        help_text=f"At least {MIN_PASSWORD_LENGTH} characters, not all digits, not a common "
        "password, not like the username.",
    )
    bot = serializers.BooleanField(
        required=False, default=False, help_text="A bot account: a program playing the API."
    )

    def validate_username(self, username: str) -> str:
        scripts = writing_systems(username)
        if len(scripts) > 1:
            raise serializers.ValidationError(
                gettext("A username must be written in one script, not %(scripts)s.")
                % {"scripts": gettext(" and ").join(sorted(scripts))}
            )
        return username

    def validate(self, attrs: dict) -> dict:
        # The account as it will be stored (its NFKC name), so that a password too like the
        # username is refused with the other checks.
        named = get_user_model()(username=unicodedata.normalize("NFKC", attrs["username"]))
        try:
            validate_password(attrs["password"], user=named)
        except DjangoValidationError as error:
            raise serializers.ValidationError({"password": list(error.messages)}) from None
        return attrs


class RegisteredSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    username = serializers.CharField()
    bot = serializers.BooleanField()
    token = serializers.CharField()


class TokenRequestSerializer(CredentialsSerializer):
    rotate = serializers.BooleanField(
        default=False, help_text="Issue a new token and revoke the old one."
    )


class TokenSerializer(serializers.Serializer):
    token = serializers.CharField()


class MatchCountsSerializer(serializers.Serializer):
    matches = serializers.IntegerField()
    active = serializers.IntegerField()
    finished = serializers.IntegerField()


class RatingSerializer(serializers.Serializer):
    mu = serializers.FloatField()
    sigma = serializers.FloatField()


class GameRatingSerializer(serializers.Serializer):
    rating = serializers.FloatField(help_text="The openskill ordinal μ − 3σ: the one shown.")
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    games = serializers.IntegerField(help_text="Rated matches (and tournament results) so far.")


class GameRatingsSerializer(serializers.Serializer):
    shedding = GameRatingSerializer()
    abbott = GameRatingSerializer()


class PlayedSerializer(serializers.Serializer):
    played = serializers.IntegerField(help_text="Finished matches with a seat of theirs.")
    won = serializers.IntegerField()


class PlayerPageSerializer(serializers.Serializer):
    username = serializers.CharField()
    bot = serializers.BooleanField(help_text="A bot account.")
    created_at = serializers.DateTimeField()
    ratings = GameRatingsSerializer()
    matches = PlayedSerializer()


class PlayerMatchesQuerySerializer(PageQuerySerializer):
    status = serializers.ChoiceField(choices=Match.Status.choices, required=False)


class LeaderboardQuerySerializer(PageQuerySerializer):
    game = serializers.ChoiceField(choices=Match.Game.choices)


class LeaderboardRowSerializer(serializers.Serializer):
    player = serializers.CharField(help_text="A username, or bot:<strategy> for a server bot.")
    bot = serializers.BooleanField()
    rating = serializers.FloatField(help_text="The openskill ordinal μ − 3σ.")
    games = serializers.IntegerField()


LeaderboardPageSerializer = page_of(LeaderboardRowSerializer, "LeaderboardPageSerializer")


class OnlineQuerySerializer(PageQuerySerializer):
    bot = serializers.BooleanField(
        required=False,
        allow_null=True,
        default=None,
        help_text="true: bot accounts only; false: people only; absent: everyone online.",
    )


class OnlineRowSerializer(serializers.Serializer):
    player = serializers.CharField(help_text="A username.")
    bot = serializers.BooleanField(help_text="A bot account.")
    seen_at = serializers.DateTimeField(
        help_text="When a feed stream or long poll of theirs was last seen open (now, or within "
        "the last minute)."
    )


OnlinePageSerializer = page_of(OnlineRowSerializer, "OnlinePageSerializer")


class PlayerSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    username = serializers.CharField()
    name = serializers.CharField(
        help_text="The name people see: the username, or a tournament guest's name as the desk "
        "typed it."
    )
    rating = RatingSerializer()
    matches = MatchCountsSerializer()


# --- rulesets ----------------------------------------------------------------------------------


class RulesetSerializer(serializers.Serializer):
    name = serializers.CharField()
    game = serializers.ChoiceField(choices=["shedding", "abbott"])
    title = serializers.CharField()
    players = serializers.ListField(child=serializers.IntegerField(), min_length=2, max_length=2)
    options = serializers.DictField()
    description = serializers.CharField()
    bots = serializers.ListField(
        child=serializers.CharField(),
        help_text="The strategies of the server's bots for this game (a match's `bots`).",
    )


# --- matches -----------------------------------------------------------------------------------


# Seat 0 is the creator's (or the challenger's): never a bot's.
@body_schema(fields={"seat": {"minimum": 1}})
class BotSeatSerializer(serializers.Serializer):
    seat = serializers.IntegerField(min_value=0)
    strategy = StrategyField()


@body_schema(
    *seats_refused("seats"),
    *options_refused(),
    *bots_refused(),
    *target_refused(),
    # A practice match is never rated (400 practice_rated).
    {
        "required": ["practice_seed", "rated"],
        "properties": {"practice_seed": {"type": "string"}, "rated": {"enum": [True]}},
    },
    fields={"practice_seed": {"pattern": "^[0-9a-fA-F]{64}$"}},
)
class MatchCreateSerializer(serializers.Serializer):
    ruleset = RulesetNameField()
    seats = serializers.IntegerField(min_value=2, max_value=10)
    options = serializers.DictField(
        required=False, default=dict, help_text="House rules: option overrides on the preset."
    )
    bots = BotSeatSerializer(many=True, required=False, default=list)
    deals = serializers.IntegerField(min_value=1, max_value=100, required=False, default=1)
    target = serializers.IntegerField(min_value=1, required=False, allow_null=True, default=None)
    turn_seconds = serializers.IntegerField(
        min_value=5, max_value=7 * 24 * 3600, required=False, allow_null=True, default=None
    )
    on_resign = serializers.ChoiceField(choices=RESIGN_POLICIES, required=False, default="bot")
    auto_start = serializers.BooleanField(
        required=False, default=False, help_text="Start by itself when the last seat is taken."
    )
    rated = serializers.BooleanField(
        required=False, default=False, help_text="Update the seats' ratings when it finishes."
    )
    layout = serializers.DictField(
        required=False,
        allow_null=True,
        default=None,
        help_text=(
            "With the permission games.fix_layout only: fixes the first deal (shedding: hands, "
            "starter, stock; Abbott: grid)."
        ),
    )
    practice_seed = serializers.CharField(
        required=False,
        allow_null=True,
        default=None,
        trim_whitespace=False,
        help_text=(
            "64 hex digits: a practice match, whose deals and bots' choices the seed fixes. Only "
            "unrated (400 practice_rated), with a server bot on every other seat (400 "
            "practice_seats); 400 invalid_practice_seed for a seed that is not 64 hex digits."
        ),
    )


class JoinSerializer(serializers.Serializer):
    seat = serializers.IntegerField(min_value=0, required=False, allow_null=True, default=None)


class MatchSummarySerializer(serializers.Serializer):
    id = serializers.IntegerField(source="pk")
    ruleset = serializers.CharField()
    game = serializers.CharField()
    status = serializers.CharField()
    version = serializers.IntegerField()
    seat_count = serializers.IntegerField()
    auto_start = serializers.BooleanField()
    rated = serializers.BooleanField()
    practice = serializers.SerializerMethodField(help_text="A practice match (practice_seed).")
    created_by = serializers.CharField(source="created_by.username")
    created_by_bot_account = serializers.SerializerMethodField(
        help_text="The creator is a bot account."
    )
    created_at = serializers.DateTimeField()

    def get_practice(self, match: Match) -> bool:
        return bool(match.practice_seed)

    def get_created_by_bot_account(self, match: Match) -> bool:
        return bot_account(match.created_by)


def posted_action(data: object) -> tuple[dict, int | None]:
    """Split a posted action into the engine's action and ``expected_version``.

    Only the envelope is checked here; the engine judges the fields of the action itself, so that a
    client gets the engine's own words for what is wrong.
    """
    if not isinstance(data, dict):
        raise protocol.InvalidAction(gettext("An action must be a JSON object."))
    action = dict(data)
    expected_version = action.pop("expected_version", None)
    if expected_version is not None and (type(expected_version) is not int or expected_version < 0):
        raise protocol.InvalidAction(gettext("expected_version must be a non-negative integer."))
    if not isinstance(action.get("action"), str):
        raise protocol.InvalidAction(
            gettext('An action needs an "action" field naming it, e.g. "play".')
        )
    return action, expected_version


class MoveResultSerializer(serializers.Serializer):
    event = schema_shapes.EventField(help_text="The first event the action produced.")
    events = serializers.ListField(
        child=schema_shapes.EventField(), help_text="Every event the action produced, in order."
    )
    view = schema_shapes.ViewField()


class EventsQuerySerializer(serializers.Serializer):
    after = WholeNumberField(min_value=0, required=False, default=0)
    wait = serializers.FloatField(
        min_value=0, max_value=MAX_LONG_POLL_SECONDS, required=False, default=0
    )
    limit = WholeNumberField(min_value=1, max_value=500, required=False, default=100)


EventPageSerializer = page_of(schema_shapes.EventField, "EventPageSerializer")
FeedPageSerializer = page_of(schema_shapes.FeedEventField, "FeedPageSerializer")
MatchPageSerializer = page_of(MatchSummarySerializer, "MatchPageSerializer")
RulesetPageSerializer = page_of(RulesetSerializer, "RulesetPageSerializer")


class MatchListQuerySerializer(PageQuerySerializer):
    status = serializers.ChoiceField(choices=Match.Status.choices, required=False)
    player = serializers.ChoiceField(choices=["me"], required=False)
    open = serializers.BooleanField(
        required=False,
        default=False,
        help_text="true: the lobby — waiting matches with a free seat, in which you are not seated.",
    )


# --- challenges --------------------------------------------------------------------------------


@body_schema(*seats_refused("seats"), *options_refused(), *bots_refused(), *target_refused())
class MatchSettingsSerializer(serializers.Serializer):
    """What a match is created with, but who sits where."""

    ruleset = RulesetNameField()
    seats = serializers.IntegerField(min_value=2, max_value=10)
    options = serializers.DictField(required=False, default=dict)
    bots = BotSeatSerializer(many=True, required=False, default=list)
    deals = serializers.IntegerField(min_value=1, max_value=100, required=False, default=1)
    target = serializers.IntegerField(min_value=1, required=False, allow_null=True, default=None)
    turn_seconds = serializers.IntegerField(
        min_value=5, max_value=7 * 24 * 3600, required=False, allow_null=True, default=None
    )
    rated = serializers.BooleanField(
        required=False, default=False, help_text="Update the seats' ratings when it finishes."
    )


@extend_schema_field(
    {
        "type": "array",
        "items": {"type": "string", "minLength": 1, "maxLength": 150},
        "minItems": 1,
        "uniqueItems": True,
    }
)
class UsernamesField(serializers.ListField):
    """Usernames, each once (the challenge refuses a name given twice: 400 invalid_challenge)."""


@body_schema()
class ChallengeCreateSerializer(MatchSettingsSerializer):
    to = UsernamesField(
        child=serializers.CharField(max_length=150),
        min_length=1,
        help_text="Usernames of the invitees, each once; they take seats 1, 2, … in this order.",
    )
    expires_in = serializers.IntegerField(
        min_value=EXPIRES_IN_RANGE[0],
        max_value=EXPIRES_IN_RANGE[1],
        required=False,
        default=EXPIRES_IN_DEFAULT,
        help_text="Seconds the invitees have to answer before the challenge expires.",
    )


class DeclineSerializer(serializers.Serializer):
    reason = serializers.ChoiceField(
        choices=Challenge.Reason.values,
        required=False,
        default=Challenge.Reason.GENERIC,
        help_text="Why you decline.",
    )


class InvitationSerializer(serializers.Serializer):
    player = serializers.CharField()
    bot_account = serializers.BooleanField(help_text="The invitee is a bot account.")
    answer = serializers.ChoiceField(choices=["accepted", "declined"], allow_null=True)


class ChallengeSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    # "from" is a Python keyword: declared below.
    to = InvitationSerializer(many=True)
    status = serializers.ChoiceField(choices=Challenge.Status.values)
    reason = serializers.ChoiceField(
        choices=Challenge.Reason.values, allow_null=True, help_text="Why it was declined."
    )
    match = serializers.IntegerField(
        allow_null=True, help_text="The match, once every invitee accepted."
    )
    created_at = serializers.DateTimeField()
    expires_at = serializers.DateTimeField(
        help_text="When it expires unless everyone has answered."
    )
    ruleset = serializers.CharField()
    seats = serializers.IntegerField()
    options = serializers.DictField()
    bots = BotSeatSerializer(many=True)
    deals = serializers.IntegerField()
    target = serializers.IntegerField(allow_null=True)
    turn_seconds = serializers.IntegerField(allow_null=True)
    rated = serializers.BooleanField()


ChallengeSerializer._declared_fields["from"] = serializers.CharField(help_text="The challenger.")
ChallengeSerializer._declared_fields["from_bot_account"] = serializers.BooleanField(
    help_text="The challenger is a bot account."
)


class ChallengeListQuerySerializer(PageQuerySerializer):
    status = serializers.ChoiceField(choices=Challenge.Status.values, required=False)


ChallengePageSerializer = page_of(ChallengeSerializer, "ChallengePageSerializer")


# --- game records ------------------------------------------------------------------------------


class RecordedActionSerializer(serializers.Serializer):
    seat = schema_shapes.seat()
    action = schema_shapes.ActionField()
    timeout = serializers.BooleanField(
        required=False, help_text="Played by the turn clock: the default action."
    )


class RecordedDealSerializer(serializers.Serializer):
    number = serializers.IntegerField(min_value=1)
    seed = serializers.CharField(help_text="The deal's seed (hex), revealed.")
    shuffle_commitment = serializers.CharField(help_text="SHA-256 of the seed, published first.")
    actions = RecordedActionSerializer(many=True)


class RecordedMatchSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    ruleset = serializers.CharField()
    game = serializers.ChoiceField(choices=Match.Game.choices)
    seat_count = serializers.IntegerField()
    options = serializers.DictField()
    deals = serializers.IntegerField()
    target = serializers.IntegerField(allow_null=True)
    layout = serializers.DictField(allow_null=True, help_text="A fixed layout of deal 1.")
    turn_seconds = serializers.IntegerField(allow_null=True)
    status = serializers.ChoiceField(choices=["finished", "abandoned"])
    practice = serializers.BooleanField(
        help_text="A practice match: its deals' seeds were derived from its practice seed."
    )
    created_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)


class RecordedPlayerSerializer(serializers.Serializer):
    seat = schema_shapes.seat()
    player = serializers.CharField(allow_null=True)
    bot_account = serializers.BooleanField(help_text="The player is a bot account.")
    bot = serializers.CharField(allow_null=True, help_text="The server bot that played the seat.")
    resigned = serializers.BooleanField()


class GameRecordSerializer(serializers.Serializer):
    format = serializers.ChoiceField(choices=["switch-record/1"])
    match = RecordedMatchSerializer()
    players = RecordedPlayerSerializer(many=True)
    deals = RecordedDealSerializer(many=True)
    result = schema_shapes.ResultField(allow_null=True)
