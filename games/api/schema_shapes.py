"""The typed shapes of the games API for the OpenAPI schema: actions, events, views, results and the
player's feed, one schema per kind, discriminated as the contract says (actions by ``action``,
events and feed events by ``type``, views by ``game``).

Nothing here validates a request (the engine judges actions, in its own words); these serializers
only describe what the service sends and accepts, and the API tests check every response against
them (``tests/openapi.py``), so a field added to a view without its schema fails.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import PolymorphicProxySerializer, extend_schema_field
from rest_framework import serializers

from games.models import Challenge, Match

# --- helpers -----------------------------------------------------------------------------------

# The schemas of one discriminated family, by discriminator value (PolymorphicProxySerializer's).
Kinds = dict[str, type[serializers.Serializer] | serializers.Serializer]


def tag(value: str, family: str) -> serializers.Field:
    """A string field that is always ``value``: the discriminator of one kind of a ``family``
    (action, event, feed, view). Its one-value enum is identified by both, so that the action
    ``play`` and the event ``play`` get enum components of their own, each named after the one
    component that uses it."""
    schema = {"type": "string", "enum": [value], "x-spec-enum-id": f"{family}:{value}"}
    return extend_schema_field(schema)(type("Tag", (serializers.CharField,), {}))()


def union_field(proxy: PolymorphicProxySerializer) -> type[serializers.Field]:
    """A field class whose schema is ``proxy`` (a PolymorphicProxySerializer cannot be a field)."""
    return extend_schema_field(proxy)(
        type(proxy.component_name + "Field", (serializers.Field,), {})
    )


def shape(name: str, fields: dict[str, Any], doc: str = "") -> type[serializers.Serializer]:
    """A serializer class named ``name`` (its component is ``name`` without "Serializer")."""
    return type(name + "Serializer", (serializers.Serializer,), {**fields, "__doc__": doc})


def ints(**kwargs: Any) -> serializers.ListField:
    return serializers.ListField(child=serializers.IntegerField(), **kwargs)


def cards(**kwargs: Any) -> serializers.ListField:
    return serializers.ListField(child=serializers.CharField(), **kwargs)


def grid(**kwargs: Any) -> serializers.ListField:
    """Abbott's grid: rows of card codes, null where the square is empty."""
    row = serializers.ListField(child=serializers.CharField(allow_null=True))
    return serializers.ListField(child=row, **kwargs)


def square(**kwargs: Any) -> serializers.ListField:
    return ints(min_length=2, max_length=2, **kwargs)


def seat(**kwargs: Any) -> serializers.IntegerField:
    return serializers.IntegerField(min_value=0, **kwargs)


# --- actions -----------------------------------------------------------------------------------


class ActionBase(serializers.Serializer):
    expected_version = serializers.IntegerField(
        min_value=0,
        required=False,
        write_only=True,
        help_text="Refused with 409 stale_version unless it equals the view's version.",
    )


def action(name: str, fields: dict[str, Any], doc: str) -> type[serializers.Serializer]:
    class_name = "".join(part.title() for part in name.split("_")) + "ActionSerializer"
    return type(
        class_name, (ActionBase,), {"action": tag(name, "action"), **fields, "__doc__": doc}
    )


ACTIONS: Kinds = {
    "play": action(
        "play",
        {
            "card": serializers.CharField(
                help_text="The card code (`10S` and lower case accepted)."
            ),
            "suit": serializers.ChoiceField(
                choices=["C", "D", "H", "S"],
                required=False,
                help_text="The suit a suit-changer names.",
            ),
            "announce": serializers.ChoiceField(
                choices=["last_card"],
                required=False,
                help_text="When the play leaves one card.",
            ),
        },
        "Shedding: play a card.",
    ),
    "draw": action("draw", {}, "Shedding: draw per the draw rule, or take a pending penalty."),
    "end_turn": action(
        "end_turn", {}, "Shedding: end a multi-card turn, or pass after a draw where allowed."
    ),
    "move": action("move", {"to": square(help_text="[row, col]")}, "Abbott: move your piece."),
    "pass": action("pass", {}, "Abbott: pass (only when blocked)."),
    "ally": action("ally", {"partner": seat(help_text="The partner's seat.")}, "Abbott: ally."),
    "propose_end": action("propose_end", {}, "Abbott: propose to end the hand."),
    "decline_end": action(
        "decline_end", {}, "Abbott: decline the end of the hand when your consent is asked."
    ),
}
ACTION = PolymorphicProxySerializer(
    "Action", serializers=ACTIONS, resource_type_field_name="action"
)
ActionField = union_field(ACTION)


# --- results -----------------------------------------------------------------------------------

HandOutcomeSerializer = shape(
    "HandOutcome",
    {
        "number": serializers.IntegerField(),
        "points": ints(),
        "winner": seat(allow_null=True),
        "placings": ints(help_text="Seats, best first."),
        "teams": serializers.ListField(child=ints(), help_text="The sides, as lists of seats."),
        "tallies": ints(
            required=False,
            help_text="Shedding: each seat's French tally of the cards it held at the deal's end.",
        ),
    },
    "One deal (shedding) or hand (Abbott) of a finished match.",
)
OutcomeSerializer = shape(
    "Outcome",
    {
        "winner": seat(),
        "ranking": ints(help_text="Every seat, best first."),
        "totals": ints(help_text="French points (shedding) or running totals (Abbott)."),
        "conceded": ints(
            required=False,
            help_text="Shedding: the tallies each seat was left holding in the deals it did not "
            "win, added up.",
        ),
        "hands": HandOutcomeSerializer(many=True),
    },
    "How a finished match came out, the same shape for both games.",
)
AbandonedSerializer = shape(
    "Abandoned",
    {
        "abandoned": serializers.BooleanField(),
        "resigned": ints(required=False, help_text="The seats that resigned."),
        "reason": serializers.CharField(required=False, help_text="Why staff abandoned it."),
    },
    "A match that ended without a result.",
)
RESULT = PolymorphicProxySerializer(
    "Result", serializers=[OutcomeSerializer, AbandonedSerializer], resource_type_field_name=None
)
ResultField = union_field(RESULT)


# --- events ------------------------------------------------------------------------------------

BestHandSerializer = shape(
    "BestHand",
    {"category": serializers.CharField(), "cards": cards()},
    "Abbott: a seat's best five-card poker hand.",
)
AllianceSerializer = shape(
    "Alliance", {"chooser": seat(), "chosen": seat()}, "Abbott: this hand's alliance."
)
SheddingDealSerializer = shape(
    "SheddingDeal",
    {
        "deal": serializers.IntegerField(),
        "first": seat(help_text="The seat to move first."),
        "decks": serializers.IntegerField(),
        "jokers": serializers.IntegerField(),
        "hand_size": serializers.IntegerField(),
        "from_layout": serializers.BooleanField(),
        "direction": serializers.IntegerField(),
        "starter": serializers.CharField(),
        "active_suit": serializers.CharField(),
        "hand_counts": ints(),
        "stock_count": serializers.IntegerField(),
        "shuffle_commitment": serializers.CharField(help_text="SHA-256 of the deal's secret seed."),
    },
)
AbbottDealSerializer = shape(
    "AbbottDeal",
    {
        "hand": serializers.IntegerField(),
        "first_mover": seat(),
        "dealer": seat(),
        "grid": grid(),
        "pieces": serializers.ListField(child=square()),
        "from_layout": serializers.BooleanField(),
        "shuffle_commitment": serializers.CharField(help_text="SHA-256 of the deal's secret seed."),
    },
)
DEAL = PolymorphicProxySerializer(
    "DealData",
    serializers=[SheddingDealSerializer, AbbottDealSerializer],
    resource_type_field_name=None,
)

EVENT_DATA: dict[str, tuple[str, Any]] = {
    # Each event type: what it means, and its data (a dict of fields, or a field).
    "deal": ("A deal (shedding) or hand (Abbott) begins.", union_field(DEAL)()),
    "hand": (
        "Shedding: a seat's hand is dealt; `cards` only for that seat.",
        {"count": serializers.IntegerField(), "cards": cards(required=False)},
    ),
    "play": (
        "Shedding: a card played.",
        {
            "card": serializers.CharField(),
            "suit": serializers.CharField(required=False),
            "announce": serializers.CharField(required=False),
        },
    ),
    "announce": ("Shedding: last card announced.", {"cards_left": serializers.IntegerField()}),
    "suit": ("Shedding: the suit named.", {"suit": serializers.CharField()}),
    "penalty": (
        "Shedding: a pick-up to answer, or a penalty.",
        {
            "kind": serializers.CharField(help_text="`stack`, `last_card`, `blunder`, …"),
            "draw": serializers.IntegerField(),
            "skip": serializers.IntegerField(required=False),
            "cancelled": serializers.IntegerField(required=False),
            "reason": serializers.CharField(required=False),
            "play": ActionField(
                required=False,
                help_text="`blunder`: the play refused (only for the seat that made it).",
            ),
        },
    ),
    "reverse": (
        "Shedding: the direction of play reversed.",
        {
            "direction": serializers.IntegerField(),
            "as_skip": serializers.BooleanField(required=False),
        },
    ),
    "draw": (
        "Shedding: cards drawn; `cards` only for the drawing seat (or once the match is over).",
        {
            "count": serializers.IntegerField(),
            "reason": serializers.CharField(),
            "cards": cards(required=False),
        },
    ),
    "reshuffle": (
        "Shedding: the pile under the top card became the stock.",
        {"count": serializers.IntegerField()},
    ),
    "skip": ("Shedding: a seat misses turns.", {"turns": serializers.IntegerField()}),
    "end_turn": ("Shedding: the seat ended its turn.", {}),
    "finish": ("Shedding: a seat went out.", {"place": serializers.IntegerField()}),
    "deal_end": (
        "Shedding: a deal ended; `seed` reveals its shuffle.",
        {
            "deal": serializers.IntegerField(),
            "winner": seat(),
            "blocked": serializers.BooleanField(),
            "tallies": ints(),
            "points": ints(),
            "placings": ints(),
            "seed": serializers.CharField(required=False),
        },
    ),
    "move": (
        "Abbott: a piece moved (`card`: the card taken, if any).",
        {
            "seat": seat(help_text="The seat that made the move."),
            "piece": seat(help_text="The piece (its owner's seat)."),
            "from": square(),
            "to": square(),
            "card": serializers.CharField(allow_null=True),
        },
    ),
    "pass": (
        "Abbott: a blocked piece passed.",
        {"seat": seat(), "piece": seat(), "card": serializers.CharField(allow_null=True)},
    ),
    "ally": (
        "Abbott: an alliance formed.",
        {"chooser": seat(), "chosen": seat(), "controls": ints()},
    ),
    "propose_end": (
        "Abbott: a seat proposes to end the hand.",
        {"seat": seat(), "proposed": serializers.ListField(child=serializers.BooleanField())},
    ),
    "consent_asked": ("Abbott: a seat is asked to agree to end the hand.", {"seat": seat()}),
    "decline_end": (
        "Abbott: a seat declined to end the hand.",
        {"seat": seat(), "proposed": serializers.ListField(child=serializers.BooleanField())},
    ),
    "hand_end": (
        "Abbott: a hand ended; `seed` reveals its shuffle.",
        {
            "hand": serializers.IntegerField(),
            "winner": seat(allow_null=True),
            "reason": serializers.CharField(),
            "best_hands": BestHandSerializer(many=True),
            "alliance": AllianceSerializer(allow_null=True),
            "scores": ints(),
            "totals": ints(),
            "seed": serializers.CharField(required=False),
        },
    ),
    "match_end": ("The match ended: its outcome, or how it was abandoned.", ResultField()),
    "timeout": (
        "The seat's clock ran out: its default move was played, with a strike.",
        {"strikes": serializers.IntegerField()},
    ),
    "bot_takeover": (
        "After three strikes a bot took the seat.",
        {"strategy": serializers.CharField()},
    ),
    "resign": (
        "The seat resigned; `replaced_by` the bot that took it, if any.",
        {"replaced_by": serializers.CharField(allow_null=True)},
    ),
}


def camel(name: str) -> str:
    return "".join(part.title() for part in name.split("_"))


EmptyField = extend_schema_field({"type": "object", "maxProperties": 0})(
    type("EmptyField", (serializers.DictField,), {})
)


def data_field(name: str, data: Any) -> serializers.Field:
    if data == {}:  # drf-spectacular leaves out a serializer without fields
        return EmptyField(help_text="Always empty.")
    if isinstance(data, dict):
        return shape(camel(name) + "EventData", data)()
    return data


def event(name: str, doc: str, data: Any) -> type[serializers.Serializer]:
    fields = {
        "seq": serializers.IntegerField(),
        "at": serializers.DateTimeField(),
        "seat": seat(allow_null=True, help_text="The seat it concerns, if any."),
        "type": tag(name, "event"),
        "data": data_field(name, data),
    }
    return shape(camel(name) + "Event", fields, doc)


EVENTS: Kinds = {name: event(name, doc, data) for name, (doc, data) in EVENT_DATA.items()}
EVENT = PolymorphicProxySerializer("Event", serializers=EVENTS, resource_type_field_name="type")
EventField = union_field(EVENT)


# --- views -------------------------------------------------------------------------------------

NOT_WAITING = "Absent while the match is waiting."


class SeatBase(serializers.Serializer):
    seat = seat()
    player = serializers.CharField(allow_null=True)
    name = serializers.CharField(
        allow_null=True,
        help_text="The player's name as people see it: the username, or a tournament guest's "
        "name as the desk typed it; null for a server bot or an open seat.",
    )
    bot = serializers.CharField(allow_null=True)
    bot_account = serializers.BooleanField(help_text="The seat's player is a bot account.")
    resigned = serializers.BooleanField()


class SheddingSeatSerializer(SeatBase):
    hand_count = serializers.IntegerField(required=False, help_text=NOT_WAITING)
    announced = serializers.BooleanField(required=False, help_text=NOT_WAITING)
    finished = serializers.IntegerField(
        required=False, allow_null=True, help_text="The finishing place, once out."
    )
    score = serializers.IntegerField(required=False, help_text=NOT_WAITING)
    skips_owed = serializers.IntegerField(required=False, help_text=NOT_WAITING)


class AbbottSeatSerializer(SeatBase):
    cards = cards(required=False, help_text="The cards taken this hand, face up.")
    best_hand = BestHandSerializer(required=False)
    total = serializers.IntegerField(required=False, help_text="The running total.")
    proposed_end = serializers.BooleanField(required=False)


class SheddingYouSerializer(serializers.Serializer):
    seat = seat()
    hand = cards()
    drawn = serializers.CharField(
        required=False,
        allow_null=True,
        help_text="A card just drawn that may be played now (one_then_play, until_playable).",
    )


class AbbottYouSerializer(serializers.Serializer):
    seat = seat()


class ViewBase(serializers.Serializer):
    """The service's fields, the same in both games."""

    id = serializers.IntegerField()
    ruleset = serializers.CharField()
    options = serializers.DictField()
    status = serializers.ChoiceField(choices=Match.Status.choices)
    version = serializers.IntegerField()
    deal = serializers.IntegerField()
    seat_count = serializers.IntegerField()
    deals = serializers.IntegerField()
    target = serializers.IntegerField(allow_null=True)
    turn_seconds = serializers.IntegerField(allow_null=True)
    rated = serializers.BooleanField(help_text="Its seats' ratings are updated when it finishes.")
    practice = serializers.BooleanField(
        help_text="A practice match: its deals and bots' choices are fixed by its practice seed."
    )
    turn_deadline = serializers.DateTimeField(allow_null=True)
    created_by = serializers.CharField()
    created_by_bot_account = serializers.BooleanField(help_text="The creator is a bot account.")
    shuffle_commitment = serializers.CharField(
        allow_null=True, help_text="SHA-256 of the deal's secret seed."
    )
    to_move = seat(allow_null=True)
    legal_moves = serializers.ListField(
        child=ActionField(), help_text="Empty unless it is your turn; post any of them back."
    )
    result = ResultField(allow_null=True)


PendingSerializer = shape(
    "Pending",
    {
        "draw": serializers.IntegerField(),
        "skip": serializers.IntegerField(),
        "draw_card": serializers.CharField(allow_null=True),
        "skip_card": serializers.CharField(allow_null=True),
    },
    "The pick-up and skips waiting to be answered, and the cards that set them.",
)
TurnSerializer = shape(
    "Turn",
    {
        "played": serializers.IntegerField(),
        "last_card": serializers.CharField(allow_null=True),
        "must_cover": serializers.BooleanField(),
        "suit_mode": serializers.CharField(allow_null=True),
        "drew": serializers.IntegerField(),
        "run": serializers.IntegerField(help_text="A run's direction: 1 up, -1 down, 0 none yet."),
        "again": serializers.BooleanField(help_text="Play again: the next card only has to match."),
        "skips": serializers.IntegerField(help_text="Turns the next player misses."),
        "last_card_barred": serializers.BooleanField(),
    },
    "Shedding: the public facts of the turn in progress.",
)
HistoryEntrySerializer = shape(
    "HistoryEntry",
    {
        "type": serializers.ChoiceField(
            choices=["starter", "play", "draw", "end_turn", "skip", "reshuffle"]
        ),
        "seat": seat(required=False),
        "card": serializers.CharField(required=False),
        "suit": serializers.CharField(required=False),
        "announce": serializers.CharField(required=False),
        "count": serializers.IntegerField(required=False),
        "reason": serializers.CharField(required=False),
        "turns": serializers.IntegerField(required=False),
    },
    "Shedding: one entry of the deal's public log.",
)
LastDealSerializer = shape(
    "LastDeal",
    {
        "deal": serializers.IntegerField(),
        "winner": seat(),
        "blocked": serializers.BooleanField(),
        "tallies": ints(),
        "points": ints(),
        "placings": ints(),
    },
)


class SheddingViewSerializer(ViewBase):
    """A shedding match as the caller may see it: never another seat's cards or the stock."""

    game = tag("shedding", "view")
    seats = SheddingSeatSerializer(many=True)
    you = SheddingYouSerializer(allow_null=True, help_text="null for spectators.")
    direction = serializers.IntegerField(
        required=False, help_text="1 clockwise, -1 counter-clockwise."
    )
    top_card = serializers.CharField(required=False, allow_null=True)
    active_suit = serializers.CharField(required=False, allow_null=True)
    pending = PendingSerializer(required=False)
    stock_count = serializers.IntegerField(required=False)
    discard_count = serializers.IntegerField(required=False)
    discard_pile = cards(required=False, help_text="Top card last; all played face up.")
    turn = TurnSerializer(required=False)
    finish_order = ints(required=False, help_text="Seats out this deal, first out first.")
    history = HistoryEntrySerializer(many=True, required=False)
    last_deal = LastDealSerializer(required=False, allow_null=True)


class AbbottViewSerializer(ViewBase):
    """An Abbott match: everything is face up; only ``legal_moves`` depends on the caller."""

    game = tag("abbott", "view")
    seats = AbbottSeatSerializer(many=True)
    you = AbbottYouSerializer(allow_null=True, help_text="null for spectators.")
    players = serializers.IntegerField(required=False)
    size = serializers.IntegerField(required=False, help_text="The grid is size × size.")
    control_threshold = serializers.IntegerField(required=False)
    hand = serializers.IntegerField(required=False, help_text="The hand being played.")
    first_mover = seat(required=False, allow_null=True)
    dealer = seat(required=False, allow_null=True)
    grid = grid(required=False, help_text="Rows of card codes, null where the square is empty.")
    pieces = serializers.ListField(child=square(), required=False, help_text="Per seat.")
    consent_asked = seat(required=False, allow_null=True)
    alliance = AllianceSerializer(required=False, allow_null=True)
    totals = ints(required=False)
    controls = ints(required=False, help_text="Per seat: whose moves it makes (the 16+ rule).")
    piece_to_move = seat(required=False, allow_null=True)


VIEWS: Kinds = {
    "shedding": SheddingViewSerializer,
    "abbott": AbbottViewSerializer,
}
VIEW = PolymorphicProxySerializer("View", serializers=VIEWS, resource_type_field_name="game")
ViewField = union_field(VIEW)


# --- the player's feed -------------------------------------------------------------------------


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
    "table_report": (
        "A player at your offline tournament table reported its result, or a report of it was "
        "confirmed, disputed or settled by the desk (`status`: the report's).",
        {
            "tournament": serializers.IntegerField(),
            "round": serializers.IntegerField(),
            "table": serializers.IntegerField(),
            "report": serializers.IntegerField(),
            "status": serializers.CharField(),
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
