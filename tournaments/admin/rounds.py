"""A round's page: its tables and byes, and while it is a draft its seating, edited as text;
the service checks an edit against the rules before anything is saved."""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from switchsite.problems import problem_classes, said
from switchsite.requests import AuthenticatedHttpRequest
from tournaments import services
from tournaments.admin.desk import PRINT_CSS
from tournaments.models import Bye, Round, Table
from tournaments.powers import Power, has_power


def _match_link(table: Table) -> SafeString | str:
    if table.match_id is None:
        return ""
    url = reverse("admin:games_match_change", args=[table.match_id])
    return format_html('<a href="{}">{}</a>', url, gettext("match %(id)s") % {"id": table.match_id})


class TableInline(admin.TabularInline):
    model = Table
    extra = 0
    fields = ("number", "players", "outcome", "match_link", "recorded_at")
    readonly_fields = fields
    can_delete = False

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        return super().get_queryset(request).prefetch_related("seats__entry")

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # edited as a whole on the seating page, where the rules are checked

    @admin.display(description=_("players, in seat order"))
    def players(self, table: Table) -> str:
        return ", ".join(seat.entry.name for seat in table.seats.all())

    @admin.display(description=_("match"))
    def match_link(self, table: Table) -> SafeString | str:
        return _match_link(table)


class ByeInline(admin.TabularInline):
    model = Bye
    extra = 0
    fields = ("entry",)
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


BYE_PREFIX = "bye:"


def seating_text(drafted: Round) -> str:
    """The round as the organiser edits it: a line of names per table in seat order, then byes."""
    lines = []
    for table in drafted.tables.prefetch_related("seats__entry").order_by("number"):
        lines.append(", ".join(seat.entry.name for seat in table.seats.all()))
    byes = [bye.entry.name for bye in drafted.byes.select_related("entry")]
    if byes:
        lines.append(f"{BYE_PREFIX} {', '.join(byes)}")
    return "\n".join(lines)


def parse_seating(text: str, names: dict[str, int]) -> tuple[list[list[int]], list[int]]:
    """Entry ids per table and of the byes from the organiser's text; unknown names are refused."""
    by_name = {name.lower(): pk for name, pk in names.items()}
    tables, byes = [], []
    for line in filter(None, (line.strip() for line in text.splitlines())):
        is_bye = line.lower().startswith(BYE_PREFIX)
        listed = [
            n.strip() for n in line[len(BYE_PREFIX) if is_bye else 0 :].split(",") if n.strip()
        ]
        unknown = [name for name in listed if name.lower() not in by_name]
        if unknown:
            raise ValueError(
                gettext("not entries of this tournament: %(value)s") % {"value": ", ".join(unknown)}
            )
        ids = [by_name[name.lower()] for name in listed]
        if is_bye:
            byes += ids
        else:
            tables.append(ids)
    return tables, byes


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    """A round and its tables. While it is a draft the organiser may rewrite the seating on its
    seating page; the service checks it against the rules before anything is saved."""

    list_display = (
        "tournament",
        "number",
        "status",
        "repeats",
        "repeat_lower_bound",
        "published_at",
    )
    list_filter = ("status",)
    list_select_related = ("tournament",)
    fields = (
        "tournament",
        "number",
        "status",
        "seed",
        "repeats",
        "repeat_lower_bound",
        "published_at",
        "seating_link",
    )
    readonly_fields = fields
    inlines = (TableInline, ByeInline)

    class Media:
        css = PRINT_CSS

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    @admin.display(description=_("seating"))
    def seating_link(self, drafted: Round) -> SafeString | str:
        if drafted.status != Round.Status.DRAFT:
            return gettext("published: the tables are playing")
        url = reverse("admin:tournaments_round_seating", args=[drafted.pk])
        return format_html('<a href="{}">{}</a>', url, gettext("edit the tables"))

    def get_urls(self) -> list[Any]:
        seating_page = self.admin_site.admin_view(self.seating_view)
        return [
            path("<int:object_id>/seating/", seating_page, name="tournaments_round_seating"),
            *super().get_urls(),
        ]

    def seating_view(self, request: AuthenticatedHttpRequest, object_id: int) -> HttpResponse:
        drafted = self.get_object(request, str(object_id))
        if drafted is None:
            # Django's own answer for a missing object (private, so not in the stubs).
            return self._get_obj_does_not_exist_redirect(  # type: ignore[attr-defined]
                request, self.opts, str(object_id)
            )
        text = seating_text(drafted)
        if request.method == "POST":
            text = request.POST.get("seating", "")
            names = dict(drafted.tournament.entries.values_list("name", "pk"))
            refused: tuple[type[Exception], ...] = (ValueError, *problem_classes())
            try:
                tables, byes = parse_seating(text, names)
                services.round_edit(
                    tournament_id=drafted.tournament_id, user=request.user, tables=tables, byes=byes
                )
            except refused as error:
                self.message_user(request, said(error), messages.ERROR)
            else:
                saved = gettext(
                    "The tables of round %(number)s are saved: publish them when ready."
                )
                self.message_user(request, saved % {"number": drafted.number}, messages.SUCCESS)
                return redirect("admin:tournaments_tournament_change", drafted.tournament_id)
        context = {
            **self.admin_site.each_context(request),
            "title": gettext("Tables of %(round)s") % {"round": drafted},
            "opts": self.opts,
            "round": drafted,
            "seating": text,
            # Saved only by those who may seat rounds (the service refuses the others).
            "editable": drafted.status == Round.Status.DRAFT
            and has_power(request.user, Power.SEAT),
        }
        return TemplateResponse(request, "admin/tournaments/round/seating.html", context)
