"""Input and output shapes of the tournaments API (they also feed the OpenAPI schema)."""

from __future__ import annotations

from itertools import combinations
from typing import Any

from django.conf import settings
from django.utils.translation import gettext
from drf_spectacular.utils import PolymorphicProxySerializer, extend_schema_field
from rest_framework import serializers

from switchgame import catalog
from switchgame.tournament.clock import MAX_MINUTES
from switchgame.tournament.meetings import RepeatVerdict
from switchgame.tournament.scoring import ByePolicy, Ranking, Scoring
from switchgame.tournament.seating import SeatingMode
from switchsite.api.converters import MAX_ID
from switchsite.api.names import (
    RulesetNameField,
    StrategyField,
    StrategyOrNoneField,
    options_refused,
    seats_refused,
    strategy_refused,
    target_refused,
)
from switchsite.api.schema import body_schema, page_of, together, without
from tournaments.models import Entry, ResultReport, Round, Table, Tournament
from tournaments.services.tournaments import SCORINGS_OF_GAME

LANGUAGE_CODES = [code for code, _name in settings.LANGUAGES]
# Who an entrant is, one of them at most.
ENTRANT_KINDS = ("player", "guest", "bot")


SELF_REPORT_HELP = (
    "Offline only: `off`, the desk enters every result; `confirm`, a player at the table reports "
    "it and an opponent confirms it; `trust`, a player's report is recorded at once."
)


@body_schema(
    *together("deals_per_round", "target"),
    *seats_refused("table_size"),
    *options_refused(),
    *strategy_refused("fill_with_bots"),
    *target_refused(),
    # A scoring of another game.
    *(
        {
            "required": ["ruleset", "scoring"],
            "properties": {
                "ruleset": {
                    "enum": [name for name, r in catalog.RULESETS.items() if r.game == game]
                },
                "scoring": {"enum": sorted(set(Scoring) - scorings)},
            },
        }
        for game, scorings in SCORINGS_OF_GAME.items()
    ),
    # Players report results at offline tables only; bots fill online tables only.
    {
        "required": ["self_report"],
        "properties": {"self_report": {"not": {"enum": [Tournament.SelfReport.OFF]}}},
        "not": {"required": ["play"], "properties": {"play": {"enum": [Tournament.Play.OFFLINE]}}},
    },
    {
        "required": ["fill_with_bots", "play"],
        "properties": {
            "fill_with_bots": {"type": "string"},
            "play": {"enum": [Tournament.Play.OFFLINE]},
        },
    },
)
class TournamentCreateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=120)
    ruleset = RulesetNameField()
    scoring = serializers.ChoiceField(choices=list(Scoring))
    rounds = serializers.IntegerField(
        min_value=1, max_value=50, help_text="How many rounds are planned."
    )
    table_size = serializers.IntegerField(
        min_value=2, max_value=10, help_text="Players a table seats: a count the ruleset allows."
    )
    deals_per_round = serializers.IntegerField(
        min_value=1, max_value=100, required=False, default=None
    )
    target = serializers.IntegerField(min_value=1, max_value=100_000, required=False, default=None)
    seating = serializers.ChoiceField(
        choices=list(SeatingMode), required=False, default=SeatingMode.BALANCED
    )
    bye_policy = serializers.ChoiceField(
        choices=list(ByePolicy),
        required=False,
        default=ByePolicy.ZERO,
        help_text="What a bye is worth: 0, the entry's own average, or the round's best.",
    )
    options = serializers.DictField(
        required=False, default=dict, help_text="House rules: option overrides on the preset."
    )
    play = serializers.ChoiceField(
        choices=Tournament.Play.choices,
        required=False,
        default=Tournament.Play.ONLINE,
        help_text="`offline`: real cards; no matches, the desk enters each table's result.",
    )
    public = serializers.BooleanField(
        required=False, default=False, help_text="Public pages (tables, standings), no login."
    )
    language = serializers.ChoiceField(
        choices=LANGUAGE_CODES,
        required=False,
        default=None,
        help_text="The language of its public pages, projector, seat cards and sheets, whatever "
        "the visitor's browser asks; by default the service's (`LANGUAGE_CODE`).",
    )
    fill_with_bots = StrategyOrNoneField(
        required=False,
        default=None,
        help_text="Online only: a bot strategy; server bots of it fill the seats the numbers "
        "leave empty (not entrants, not ranked). Null: no filling.",
    )
    ranking = serializers.ChoiceField(
        choices=list(Ranking),
        required=False,
        default=Ranking.TOTAL,
        help_text="`total`: the sum of the round scores; `average`: their mean.",
    )
    self_report = serializers.ChoiceField(
        choices=Tournament.SelfReport.values,
        required=False,
        default=Tournament.SelfReport.OFF,
        help_text=SELF_REPORT_HELP,
    )
    self_checkin = serializers.BooleanField(
        required=False,
        default=False,
        help_text="Players check themselves in (`checkin/self/`) before their round is seated.",
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if attrs["deals_per_round"] is not None and attrs["target"] is not None:
            raise serializers.ValidationError(
                {"target": [gettext("Give deals_per_round or target, not both.")]}
            )
        return attrs


@body_schema(*together(*ENTRANT_KINDS), without("name", "bot"))
class EntrantSerializer(serializers.Serializer):
    """One entrant: ``{}`` for the caller; staff: ``{"player": username}``, ``{"guest": name}``
    or ``{"bot": strategy, "name": display name}``."""

    player = serializers.CharField(max_length=150, required=False, default=None)
    guest = serializers.CharField(
        max_length=150, required=False, default=None, help_text="A guest's display name."
    )
    bot = StrategyField(required=False, default=None)
    name = serializers.CharField(
        max_length=150, required=False, default=None, help_text="A bot's display name."
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        named = [kind for kind in ENTRANT_KINDS if attrs[kind] is not None]
        if len(named) > 1:
            raise serializers.ValidationError(
                {named[1]: [gettext("Name one of player, guest or bot, not several.")]}
            )
        if attrs["name"] is not None and attrs["bot"] is None:
            raise serializers.ValidationError(
                {"name": [gettext("A display name is given to a bot.")]}
            )
        return attrs


@body_schema(*({"required": ["entries", kind]} for kind in ENTRANT_KINDS))
class RegisterSerializer(EntrantSerializer):
    """One entrant as above, or (staff) many at once: ``{"entries": [entrant, ...]}``."""

    entries = EntrantSerializer(many=True, required=False, default=None)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        attrs = super().validate(attrs)
        single = any(attrs[k] is not None for k in ENTRANT_KINDS)
        if attrs["entries"] is not None and single:
            raise serializers.ValidationError(
                {"entries": [gettext("Send entries, or one entrant.")]}
            )
        return attrs


@body_schema(*together("player", "name"))
class WithdrawSerializer(serializers.Serializer):
    """``{}`` for the caller; staff: ``{"player": username}`` or any entry's ``{"name": ...}``."""

    player = serializers.CharField(max_length=150, required=False, default=None)
    name = serializers.CharField(max_length=150, required=False, default=None)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if attrs["player"] is not None and attrs["name"] is not None:
            raise serializers.ValidationError(
                {"name": [gettext("Name a player or an entry, not both.")]}
            )
        return attrs


class CheckinSerializer(serializers.Serializer):
    """An entry checked in (``present``: true) or marked absent, by its display name."""

    name = serializers.CharField(max_length=150)
    present = serializers.BooleanField()


class FrenchDealSerializer(serializers.Serializer):
    """``french``: who went out, and every other seat's tally of the cards left (≥ 0)."""

    winner = serializers.CharField()
    points_left = serializers.DictField(child=serializers.IntegerField(min_value=0))


class PlacementDealSerializer(serializers.Serializer):
    """``placement``: every seat once, first out first."""

    order = serializers.ListField(child=serializers.CharField())


class AllianceNamesSerializer(serializers.Serializer):
    chooser = serializers.CharField()
    chosen = serializers.CharField()


class AbbottHandSerializer(serializers.Serializer):
    """``abbott``: the hand's winner (null: a tie) and its alliance, if any."""

    winner = serializers.CharField(allow_null=True)
    alliance = AllianceNamesSerializer(allow_null=True)


# The schema of a deal; the service checks deals itself (400 invalid_result, errors per deal).
DealField = extend_schema_field(
    PolymorphicProxySerializer(
        "TableDeal",
        serializers=[FrenchDealSerializer, PlacementDealSerializer],
        resource_type_field_name=None,
    )
)(type("DealField", (serializers.DictField,), {}))
HandField = extend_schema_field(AbbottHandSerializer)(
    type("HandField", (serializers.DictField,), {})
)


class TableResultSerializer(serializers.Serializer):
    """A table's result, by display names. ``french``: ``deals`` of ``{"winner", "points_left":
    {name: tally}}``; ``placement``: ``deals`` of ``{"order": [names]}``; ``abbott``: ``hands``
    of ``{"winner": name or null, "alliance": null or {"chooser", "chosen"}}``."""

    deals = serializers.ListField(
        child=DealField(), required=False, help_text="French or placement deals."
    )
    hands = serializers.ListField(child=HandField(), required=False, help_text="Abbott hands.")
    replace = serializers.BooleanField(
        required=False, default=False, help_text="Correct a table that already has a result."
    )
    confirm = serializers.BooleanField(
        required=False,
        default=False,
        help_text="French: record a tally above 150 (else 400 implausible_tally).",
    )
    reason = serializers.CharField(
        required=False,
        default="",
        allow_blank=True,
        max_length=200,
        help_text="A correction's reason, kept and shown with who and when.",
    )


class EntrySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    kind = serializers.ChoiceField(choices=Entry.Kind.choices)
    player = serializers.CharField(allow_null=True)
    bot = serializers.CharField(allow_null=True)
    bot_account = serializers.BooleanField(help_text="The entry's player is a bot account.")
    joined_round = serializers.IntegerField()
    withdrawn = serializers.BooleanField()
    play_url = serializers.URLField(
        allow_null=True,
        help_text="Staff only: a guest's seat link (`/play/seat/<secret>/`) in an online "
        "tournament, which plays that entry's tables without an account, or in an offline one "
        "that takes results or check-in from the players' phones. Null otherwise.",
    )
    present = serializers.BooleanField(help_text="Checked in: only present entries are seated.")


class SeatedSerializer(serializers.Serializer):
    entry = serializers.IntegerField()
    name = serializers.CharField()
    bot = serializers.CharField(allow_null=True)
    bot_account = serializers.BooleanField(help_text="The entry's player is a bot account.")


class TableSeatSerializer(SeatedSerializer):
    seat = serializers.IntegerField()


class DealPointsSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    winner = serializers.CharField(allow_null=True)
    points = serializers.DictField(
        child=serializers.IntegerField(), help_text="Each name's points in this deal or hand."
    )
    tallies = serializers.DictField(
        child=serializers.IntegerField(),
        required=False,
        help_text="French scoring: each name's tally of the cards left in hand (the winner's "
        "0); the winner's points are the others' tallies added up.",
    )


class ResultVersionSerializer(serializers.Serializer):
    entered_by = serializers.CharField()
    entered_at = serializers.DateTimeField()
    reason = serializers.CharField(help_text="Why it was corrected (blank for the first).")
    reported_by = serializers.CharField(
        allow_null=True, help_text="Who reported it from their phone (null: the desk entered it)."
    )
    confirmed_by = serializers.CharField(
        allow_null=True,
        help_text="Who confirmed that report (null: entered at the desk, or trusted).",
    )


class TableResultOutSerializer(serializers.Serializer):
    source = serializers.ChoiceField(  # type: ignore[assignment]  # a declared field, not the attribute (DRF's metaclass moves it)
        choices=[c for c in Table.Outcome.values if c],
        help_text="`played` on the server, `entered` at the desk, or `forfeited` (abandoned "
        "with no result: everyone at the table lost).",
    )
    totals = serializers.DictField(child=serializers.IntegerField())
    conceded = serializers.DictField(
        child=serializers.IntegerField(),
        required=False,
        help_text="French scoring: each name's tallies of the deals it did not win, added up.",
    )
    deals = DealPointsSerializer(many=True, help_text="The score lines, deal by deal.")
    entered = serializers.DictField(allow_null=True, help_text="The result as the desk sent it.")
    entered_by = serializers.CharField(allow_null=True)
    entered_at = serializers.DateTimeField(allow_null=True)
    corrections = serializers.IntegerField(help_text="Earlier versions replaced.")
    history = ResultVersionSerializer(
        many=True, help_text="Every version entered at the desk, first to last."
    )


class TableSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    match = serializers.IntegerField(allow_null=True)
    played = serializers.ChoiceField(choices=Tournament.Play.choices)
    recorded = serializers.BooleanField(help_text="The table has its result.")
    seats = TableSeatSerializer(many=True)
    fill_bots = serializers.IntegerField(
        help_text="Server bots filling the seats after the entries' (`fill_with_bots`)."
    )
    result = TableResultOutSerializer(allow_null=True)
    report_status = serializers.ChoiceField(
        choices=ResultReport.OPEN,
        allow_null=True,
        help_text="A players' report awaits an opponent's confirmation (`pending`) or the desk "
        "(`disputed`); null otherwise.",
    )


class ReportCreateSerializer(serializers.Serializer):
    """A player's report: the body of the desk's result (``deals`` or ``hands``), and
    ``confirm`` for a French tally above 150."""

    deals = serializers.ListField(
        child=DealField(), required=False, help_text="French or placement deals."
    )
    hands = serializers.ListField(child=HandField(), required=False, help_text="Abbott hands.")
    confirm = serializers.BooleanField(
        required=False,
        default=False,
        help_text="French: report a tally above 150 (else 400 implausible_tally).",
    )


class ReportDisputeSerializer(serializers.Serializer):
    reason = serializers.CharField(
        required=False,
        default="",
        allow_blank=True,
        max_length=200,
        help_text="What is wrong with the report, for the desk.",
    )


class ReportSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    round = serializers.IntegerField()
    table = serializers.IntegerField()
    by = serializers.CharField(help_text="Who reported: the entry's name (or the desk user's).")
    at = serializers.DateTimeField()
    result = serializers.DictField(help_text="The result as reported (the desk's body).")
    status = serializers.ChoiceField(
        choices=ResultReport.Status.values,
        help_text="`pending`: awaits an opponent; `confirmed`: recorded; `disputed`: awaits the "
        "desk; `recorded`: recorded at once (trusted); `settled`: the desk entered the result.",
    )
    answered_by = serializers.CharField(allow_null=True, help_text="Who confirmed or disputed it.")
    answered_at = serializers.DateTimeField(allow_null=True)
    reason = serializers.CharField(help_text="A dispute's reason (blank otherwise).")


class OwnTableSerializer(serializers.Serializer):
    round = serializers.IntegerField()
    table = serializers.IntegerField()
    seat = serializers.IntegerField(help_text="0-based, as in the tournament's tables.")


class OwnEntrySerializer(serializers.Serializer):
    tournament = serializers.IntegerField()
    name = serializers.CharField(help_text="The tournament's name.")
    status = serializers.ChoiceField(choices=Tournament.Status.choices)
    play = serializers.ChoiceField(choices=Tournament.Play.choices)
    self_report = serializers.ChoiceField(choices=Tournament.SelfReport.values)
    self_checkin = serializers.BooleanField()
    entry = serializers.CharField(help_text="Your entry's display name.")
    present = serializers.BooleanField()
    table = OwnTableSerializer(
        allow_null=True, help_text="Your table in the latest published round (null: none yet)."
    )


class SelfCheckinSerializer(serializers.Serializer):
    tournament = serializers.IntegerField()
    name = serializers.CharField(help_text="The entry checked in, by its display name.")
    present = serializers.BooleanField()


class ClockSerializer(serializers.Serializer):
    ends_at = serializers.DateTimeField(
        allow_null=True, help_text="When the running clock reaches zero; null unless running."
    )
    paused_remaining = serializers.FloatField(
        allow_null=True, help_text="Seconds left on a paused clock; null unless paused."
    )


# What each way to ask for a change of the round clock gives (pause and resume ask when true).
_CLOCK_ASKED = [
    {"required": ["minutes"]},
    *({"required": [name], "properties": {name: {"enum": [True]}}} for name in ("pause", "resume")),
]


@body_schema(
    *({"allOf": list(pair)} for pair in combinations(_CLOCK_ASKED, 2)),
    {"not": {"anyOf": _CLOCK_ASKED}},
)
class ClockRequestSerializer(serializers.Serializer):
    """Exactly one of ``minutes`` (start, or restart), ``pause`` or ``resume``."""

    minutes = serializers.IntegerField(min_value=1, max_value=MAX_MINUTES, required=False)
    pause = serializers.BooleanField(required=False)
    resume = serializers.BooleanField(required=False)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        asked = [name for name in ("minutes", "pause", "resume") if attrs.get(name, False)]
        if len(asked) != 1:
            message = 'Send one of "minutes", "pause": true or "resume": true.'
            raise serializers.ValidationError(message)
        return attrs


class RoundSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    status = serializers.ChoiceField(choices=Round.Status.choices)
    seed = serializers.IntegerField(help_text="The draw's seed: it reproduces the seating.")
    repeats = serializers.IntegerField(help_text="Pairs meeting again this round.")
    repeat_lower_bound = serializers.IntegerField(
        help_text="The fewest repeats any seating of the same entries at the same tables could "
        "have, given the rounds before (a lower bound when `repeat_verdict` is `unproven`)."
    )
    repeat_verdict = serializers.ChoiceField(
        choices=list(RepeatVerdict),
        help_text="`fewest`: no seating repeats fewer pairs; `spread`: fewer only by seating a "
        "pair together more often than this one does; `improvable`: another seating has fewer "
        "repeats or pairs meeting less often, seat it again; `unproven`: the exact fewest took "
        "too long to work out.",
    )
    published_at = serializers.DateTimeField(allow_null=True)
    clock = ClockSerializer(help_text="The round clock (both null: never started).")
    tables = TableSerializer(many=True)
    byes = SeatedSerializer(many=True)


class TournamentSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    ruleset = serializers.CharField()
    options = serializers.DictField()
    scoring = serializers.ChoiceField(choices=list(Scoring))
    planned_rounds = serializers.IntegerField(help_text="The `rounds` given at creation.")
    table_size = serializers.IntegerField()
    deals_per_round = serializers.IntegerField(allow_null=True)
    target = serializers.IntegerField(allow_null=True)
    seating = serializers.ChoiceField(choices=list(SeatingMode))
    bye_policy = serializers.ChoiceField(choices=list(ByePolicy))
    play = serializers.ChoiceField(choices=Tournament.Play.choices)
    fill_with_bots = serializers.CharField(allow_null=True)
    ranking = serializers.ChoiceField(choices=list(Ranking))
    self_report = serializers.ChoiceField(
        choices=Tournament.SelfReport.values, help_text=SELF_REPORT_HELP
    )
    self_checkin = serializers.BooleanField(
        help_text="Players check themselves in (`checkin/self/`)."
    )
    tiebreaks = serializers.ListField(
        child=serializers.CharField(),
        help_text="The tie-breaks in the order used, after the score and the tables played.",
    )
    public = serializers.BooleanField()
    public_url = serializers.URLField(
        allow_null=True, help_text="The public page (tables, standings), when `public`."
    )
    language = serializers.ChoiceField(
        choices=LANGUAGE_CODES,
        help_text="The language of its public pages, projector, seat cards and sheets.",
    )
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
    planned_rounds = serializers.IntegerField()
    current_round = serializers.IntegerField(help_text="Rounds published so far.")
    entries = serializers.IntegerField(source="entry_count", help_text="Active entries.")
    created_at = serializers.DateTimeField()


TournamentPageSerializer = page_of(TournamentSummarySerializer, "TournamentPageSerializer")


class TiebreaksSerializer(serializers.Serializer):
    """In the order used (the tournament's ``tiebreaks``)."""

    conceded = serializers.IntegerField(
        required=False, help_text="French only: the tallies left holding, lower first."
    )
    table_share = serializers.FloatField()
    opponents_score = serializers.FloatField()
    deals_won = serializers.IntegerField()
    head_to_head = serializers.FloatField(allow_null=True)
    lot = serializers.FloatField()


class StandingRowSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    entry = serializers.IntegerField()
    player = serializers.CharField(help_text="The entry's display name (a player's username).")
    kind = serializers.ChoiceField(choices=Entry.Kind.choices)
    bot = serializers.CharField(allow_null=True)
    score = serializers.FloatField(
        help_text="The ranking score: the round scores (share of table opponents outscored) "
        "added up (`ranking: total`) or averaged (`average`)."
    )
    points = serializers.FloatField(help_text="The raw tally or total, byes included.")
    deals_won = serializers.IntegerField()
    played = serializers.IntegerField()
    byes = serializers.IntegerField()
    withdrawn = serializers.BooleanField()
    present = serializers.BooleanField()
    tiebreaks = TiebreaksSerializer()
    rating = serializers.FloatField(help_text="openskill ordinal μ − 3σ after every rated match.")
    round_points = serializers.DictField(
        child=serializers.FloatField(allow_null=True), help_text="Points per round number."
    )


class ExportQuerySerializer(serializers.Serializer):
    dialect = serializers.ChoiceField(choices=["excel", "excel-fr"], required=False)


class SeriesCreateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=120)
    tournaments = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=MAX_ID), min_length=1, max_length=100
    )
    public = serializers.BooleanField(default=False)


class SeriesTournamentSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    status = serializers.CharField(help_text="The tournament's `status`.")


class SeriesSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    public = serializers.BooleanField()
    public_url = serializers.URLField(allow_null=True, help_text="The public page, when `public`.")
    tournaments = SeriesTournamentSerializer(many=True, help_text="Oldest first.")
    created_at = serializers.DateTimeField()


class SeriesStandingRowSerializer(serializers.Serializer):
    rank = serializers.IntegerField(help_text="Equal score, points and places share a rank.")
    name = serializers.CharField(help_text="The name of the person's latest tournament.")
    kind = serializers.ChoiceField(choices=["player", "guest"])
    score = serializers.FloatField(help_text="The sum of the tournaments' scores.")
    points = serializers.FloatField(help_text="The sum of the tournaments' points.")
    tournaments = serializers.IntegerField(help_text="Tournaments played in.")
    ranks = serializers.DictField(
        child=serializers.IntegerField(), help_text="Tournament id → rank there."
    )
