"""The admin: players and matches for staff. The match page shows the table as a spectator sees it
(seats, counts, top card) and the event log — hidden cards stay hidden here too while it is played."""

from __future__ import annotations

import json
from typing import Any

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.html import conditional_escape, format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games import selectors
from games.models import (
    Challenge,
    Invitation,
    Match,
    MatchEvent,
    Player,
    Seat,
    UnbuildableRecord,
)
from switchgame import catalog

ADMIN_EVENT_ROWS = 200


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["user", "created_at"]
    search_fields = ["user__username"]
    readonly_fields = ["feed_seq", "created_at"]


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ("index", "player", "bot_strategy", "strikes", "resigned")
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = [
        "id",
        "ruleset",
        "status",
        "seat_count",
        "deal_number",
        "version",
        "created_by",
        "created_at",
    ]
    list_filter = ["status", "ruleset", "game"]
    search_fields = ["id", "created_by__username", "seats__player__username"]
    list_select_related = ["created_by"]
    inlines = [SeatInline]
    fields = (
        "ruleset",
        "game",
        "status",
        "options",
        "deals",
        "target",
        "turn_seconds",
        "auto_start",
        "turn_deadline",
        "version",
        "deal_number",
        "created_by",
        "created_at",
        "finished_at",
        "result",
        "table",
        "event_log",
    )
    readonly_fields = fields

    def has_add_permission(self, request) -> bool:
        return False  # matches are created through the API, where the rules are checked

    @admin.display(description=_("table"))
    def table(self, match: Match) -> SafeString | str:
        if match.state is None or match.status == Match.Status.WAITING:
            return gettext("not dealt yet")
        view = catalog.load_game(match.game, match.state).view(None)
        names = _seat_names(match)
        if match.game == catalog.ABBOTT:
            alliance = view["alliance"]
            summary = format_html(
                "{}",
                gettext("hand %(hand)s · totals %(totals)s · alliance %(alliance)s")
                % {
                    "hand": view["hand"],
                    "totals": ", ".join(f"{names[s]} {t}" for s, t in enumerate(view["totals"])),
                    "alliance": gettext("%(chooser)s chose %(chosen)s")
                    % {"chooser": names[alliance["chooser"]], "chosen": names[alliance["chosen"]]}
                    if alliance
                    else gettext("none"),
                },
            )
            grid = format_html_join(
                "",
                "<tr>{}</tr>",
                (
                    (format_html_join("", "<td>{}</td>", ((c or "·",) for c in row)),)
                    for row in view["grid"]
                ),
            )
            return format_html("<p>{}</p><table>{}</table>", summary, grid)
        summary = format_html(
            "{} <b>{}</b> · {}",
            gettext("top card"),
            view["top_card"],
            _said_safely(
                gettext(
                    "active suit %(suit)s · pending %(pending)s · direction %(direction)s · "
                    "stock %(stock)s · discard %(discard)s · to move: %(to_move)s"
                ),
                suit=view["active_suit"],
                pending=_machine(_readable(view["pending"])),
                direction=view["direction"],
                stock=view["stock_count"],
                discard=view["discard_count"],
                to_move="—"
                if view["to_move"] is None
                else gettext("seat %(seat)s (%(name)s)")
                % {"seat": view["to_move"], "name": names[view["to_move"]]},
            ),
        )
        seats = format_html_join(
            "",
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            (
                (s["seat"], names[s["seat"]], s["hand_count"], s["score"], s["finished"] or "")
                for s in view["seats"]
            ),
        )
        headers = format_html_join(
            "",
            "<th>{}</th>",
            (
                (heading,)
                for heading in (
                    gettext("seat"),
                    gettext("player"),
                    gettext("cards"),
                    gettext("score"),
                    gettext("place"),
                )
            ),
        )
        return format_html("<p>{}</p><table><tr>{}</tr>{}</table>", summary, headers, seats)

    @admin.display(description=_("event log (latest 200)"))
    def event_log(self, match: Match) -> SafeString:
        reveal = match.status in selectors.REVEALED_STATUSES
        records = MatchEvent.objects.filter(match=match).order_by("-seq")[:ADMIN_EVENT_ROWS]
        names = _seat_names(match)
        rows = (
            (
                e["seq"],
                e["at"],
                "" if e["seat"] is None else f"{e['seat']} ({names[e['seat']]})",
                _machine(e["type"]),
                _machine(_readable(e["data"])),
            )
            for e in (selectors.event_as_seen(r, seat=None, reveal_all=reveal) for r in records)
        )
        headers = format_html_join(
            "",
            "<th>{}</th>",
            (
                (heading,)
                for heading in (
                    gettext("seq"),
                    gettext("at"),
                    gettext("seat"),
                    gettext("type"),
                    gettext("data"),
                )
            ),
        )
        return format_html(
            "<table><tr>{}</tr>{}</table>",
            headers,
            format_html_join(
                "", "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>", rows
            ),
        )


class InvitationInline(admin.TabularInline):
    model = Invitation
    extra = 0
    fields = ("seat", "player", "answer", "answered_at")
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Challenge)
class ChallengeAdmin(admin.ModelAdmin):
    """Challenges are made and answered through the API; staff see who invited whom and how it
    ended (the match it became, if accepted)."""

    list_display = ["id", "challenger", "ruleset", "seat_count", "status", "match", "created_at"]
    list_filter = ["status", "ruleset"]
    search_fields = ["challenger__username", "invitations__player__username"]
    list_select_related = ["challenger"]
    inlines = [InvitationInline]
    fields = (
        "challenger",
        "status",
        "ruleset",
        "seat_count",
        "options",
        "bots",
        "deals",
        "target",
        "turn_seconds",
        "match",
        "created_at",
        "ended_at",
    )
    readonly_fields = fields

    def has_add_permission(self, request) -> bool:
        return False


@admin.register(UnbuildableRecord)
class UnbuildableRecordAdmin(admin.ModelAdmin):
    """The matches whose log did not replay into their record (docs/operations.md, "Game records
    that cannot be built"): the record task gave up on them after one try. Deleting a row lets the
    record be worked out again, once the fault is mended."""

    list_display = ["match", "failure"]
    list_select_related = ["match"]
    fields = ("match", "failure")
    readonly_fields = fields

    def get_queryset(self, request: HttpRequest) -> QuerySet[UnbuildableRecord]:
        return super().get_queryset(request).exclude(failure="")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False


def _seat_names(match: Match) -> list[str]:
    """Who plays each seat: the player's name, or the bot's strategy."""
    return [
        seat.player.get_username()
        if seat.player
        else gettext("%(strategy)s bot") % {"strategy": seat.bot_strategy}
        if seat.bot_strategy
        else gettext("nobody")
        for seat in match.seats.select_related("player").order_by("index")
    ]


def _said_safely(sentence: str, **values: Any) -> SafeString:
    """A translated sentence with its ``%(name)s`` values, the sentence and the values escaped
    unless they are safe HTML already (``_machine``'s code)."""
    return mark_safe(  # every part escaped here
        conditional_escape(sentence)
        % {name: conditional_escape(value) for name, value in values.items()}
    )


def _machine(text: str) -> SafeString:
    """The API's own words (event types, their data), shown as code: they are the same in every
    language."""
    return format_html("<code>{}</code>", text)


def _readable(data: dict[str, Any]) -> str:
    """``key: value`` pairs for a person, values as compact JSON."""
    return " · ".join(
        f"{key}: {json.dumps(value, separators=(',', ':'))}" for key, value in data.items()
    )
