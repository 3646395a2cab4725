"""The organiser's desk: tournaments with their entries and rounds, drafted tables to edit before
publishing, corrections of score lines, and a standings page with a chart of running totals.

Every action calls the same service as the API, so the rules hold whichever door is used.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe

from games import catalog
from switchsite.problems import problem_classes
from tournaments import charts, selectors, services
from tournaments.forms import EntrantForm, TournamentForm
from tournaments.models import Bye, Entry, Round, ScoreLine, Table, TableSeat, Tournament


class RoundFilter(admin.SimpleListFilter):
    """Tournaments by the number of rounds published so far."""

    title = "round"
    parameter_name = "round"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        most = max(Tournament.objects.values_list("rounds", flat=True), default=0)
        return [("0", "not started"), *((str(n), f"round {n}") for n in range(1, most + 1))]

    def queryset(self, request: HttpRequest, queryset: QuerySet) -> QuerySet:
        if self.value() is None:
            return queryset
        return queryset.filter(current_round=int(self.value()))


class EntryInline(admin.TabularInline):
    model = Entry
    extra = 0
    fields = ("name", "player", "bot_strategy", "joined_round", "withdrawn_after")
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # entries are made by registering (the tournament's register page, or API)


class RoundInline(admin.TabularInline):
    model = Round
    extra = 0
    fields = ("number", "status", "repeats", "repeat_lower_bound", "seed", "tables_seated")
    readonly_fields = fields
    can_delete = False
    show_change_link = True

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        return super().get_queryset(request).prefetch_related("seats__entry", "tables")

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    @admin.display(description="tables")
    def tables_seated(self, played: Round) -> SafeString:
        by_table: dict[int, list[str]] = {}
        for seat in sorted(played.seats.all(), key=lambda s: (s.table_id, s.seat)):
            by_table.setdefault(seat.table_id, []).append(seat.entry.name)
        numbers = {table.pk: table for table in played.tables.all()}
        return format_html_join(
            "",
            "<div>table {}: {} {}</div>",
            (
                (numbers[table_id].number, ", ".join(names), _match_link(numbers[table_id]))
                for table_id, names in by_table.items()
            ),
        )


def _match_link(table: Table) -> SafeString | str:
    if table.match_id is None:
        return ""
    url = reverse("admin:games_match_change", args=[table.match_id])
    return format_html('<a href="{}">match {}</a>', url, table.match_id)


def _each(
    service: Callable[..., Any], done: str
) -> Callable[[admin.ModelAdmin, HttpRequest, QuerySet], None]:
    """An admin action calling ``service`` for each selected tournament, reporting refusals."""

    def action(model_admin: admin.ModelAdmin, request: HttpRequest, queryset: QuerySet) -> None:
        for tournament in queryset:
            try:
                service(tournament_id=tournament.pk, user=request.user)
            except problem_classes() as error:
                model_admin.message_user(request, f"{tournament}: {error}", messages.ERROR)
            else:
                model_admin.message_user(request, f"{tournament}: {done}", messages.SUCCESS)

    return action


def _recompute(*, tournament_id: int, user: Any) -> None:
    services.standings_recompute(tournament_id=tournament_id)


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = (
        "name",
        "ruleset",
        "scoring",
        "status",
        "current_round",
        "rounds",
        "entry_count",
        "standings_link",
        "created_at",
    )
    list_filter = ("status", RoundFilter, "scoring", "ruleset")
    search_fields = ("name",)
    inlines = (EntryInline, RoundInline)
    # Everything but the name is fixed at creation, where the service checks it (as the API does).
    fields = (
        *TournamentForm.Meta.fields,
        "status",
        "seed",
        "created_by",
        "created_at",
        "standings_link",
        "register_link",
    )
    readonly_fields = tuple(field for field in fields if field != "name")
    actions = (
        "start",
        "seat_next_round",
        "publish_round",
        "recompute",
        "export_csv",
    )

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        return selectors.tournament_list().select_related("created_by")

    def add_view(
        self, request: HttpRequest, form_url: str = "", extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        """A new tournament through ``services.tournament_create``, which checks the ruleset,
        scoring and house rules; a refusal is shown on the form."""
        form = TournamentForm(request.POST if request.method == "POST" else None)
        if request.method == "POST" and form.is_valid():
            try:
                created = services.tournament_create(
                    creator=request.user, **form.service_arguments()
                )
            except problem_classes() as error:
                form.add_error(None, str(error))
            else:
                self.message_user(request, f"{created} is open for registration.", messages.SUCCESS)
                return redirect("admin:tournaments_tournament_change", created.pk)
        return self._form_page(request, form, title="New tournament", submit="Create")

    @admin.display(description="round", ordering="current_round")
    def current_round(self, tournament: Tournament) -> int:
        return tournament.current_round

    @admin.display(description="entries", ordering="entry_count")
    def entry_count(self, tournament: Tournament) -> int:
        return tournament.entry_count

    @admin.display(description="standings")
    def standings_link(self, tournament: Tournament) -> SafeString:
        url = reverse("admin:tournaments_tournament_standings", args=[tournament.pk])
        return format_html('<a href="{}">standings</a>', url)

    @admin.display(description="register")
    def register_link(self, tournament: Tournament) -> SafeString:
        url = reverse("admin:tournaments_tournament_register", args=[tournament.pk])
        return format_html('<a href="{}">register a player or a bot</a>', url)

    start = admin.action(description="Start: seat and publish round 1")(
        _each(services.tournament_start, "round 1 is seated and its tables started.")
    )
    seat_next_round = admin.action(
        description="Seat the next round as a draft (edit it on the round's page)"
    )(_each(services.round_draft, "the next round is drafted: review its tables, then publish."))
    publish_round = admin.action(description="Publish the drafted round (start its tables)")(
        _each(services.round_publish, "the drafted round is published.")
    )
    recompute = admin.action(description="Recompute standings and ratings")(
        _each(_recompute, "standings and ratings recomputed.")
    )

    @admin.action(description="Export standings as CSV (one tournament)")
    def export_csv(self, request: HttpRequest, queryset: QuerySet) -> HttpResponse | None:
        if queryset.count() != 1:
            self.message_user(request, "Select exactly one tournament to export.", messages.ERROR)
            return None
        tournament = queryset.get()
        rows = selectors.standings_table(tournament=tournament).rows
        response = HttpResponse(
            selectors.standings_csv(standings_rows=rows), content_type="text/csv"
        )
        response["Content-Disposition"] = f'attachment; filename="standings-{tournament.pk}.csv"'
        return response

    def get_urls(self) -> list[Any]:
        standings = self.admin_site.admin_view(self.standings_view)
        register = self.admin_site.admin_view(self.register_view)
        return [
            path("<int:object_id>/standings/", standings, name="tournaments_tournament_standings"),
            path("<int:object_id>/register/", register, name="tournaments_tournament_register"),
            *super().get_urls(),
        ]

    def register_view(self, request: HttpRequest, object_id: int) -> HttpResponse:
        """Register a player or a bot through ``services.entry_register`` (late entries too)."""
        tournament = self.get_object(request, str(object_id))
        if tournament is None:
            return self._get_obj_does_not_exist_redirect(request, self.opts, str(object_id))
        game = catalog.find_ruleset(tournament.ruleset).game
        form = EntrantForm(request.POST if request.method == "POST" else None, game=game)
        if request.method == "POST" and form.is_valid():
            try:
                entry = services.entry_register(
                    tournament_id=tournament.pk,
                    user=request.user,
                    player=form.cleaned_data["player"] or None,
                    bot=form.cleaned_data["bot"] or None,
                    name=form.cleaned_data["name"] or None,
                )
            except problem_classes() as error:
                form.add_error(None, str(error))
            else:
                self.message_user(
                    request,
                    f"{entry.name} is registered from round {entry.joined_round}.",
                    messages.SUCCESS,
                )
                return redirect("admin:tournaments_tournament_register", tournament.pk)
        return self._form_page(
            request, form, title=f"Register for {tournament}", submit="Register", parent=tournament
        )

    def _form_page(
        self,
        request: HttpRequest,
        form: Any,
        *,
        title: str,
        submit: str,
        parent: Tournament | None = None,
    ) -> HttpResponse:
        context = {
            **self.admin_site.each_context(request),
            "title": title,
            "opts": self.opts,
            "form": form,
            "submit": submit,
            "parent": parent,
        }
        return TemplateResponse(request, "admin/tournaments/tournament/form.html", context)

    def standings_view(self, request: HttpRequest, object_id: int) -> HttpResponse:
        """Rank, player, points, deals won, tie-breaks and a column per round, and the chart —
        with the selector's fixed number of queries whatever the field size."""
        tournament = self.get_object(request, str(object_id))
        if tournament is None:
            return self._get_obj_does_not_exist_redirect(request, self.opts, str(object_id))
        standings = selectors.standings_table(tournament=tournament)
        chart = charts.running_totals_svg(
            selectors.running_totals(standings=standings), standings.round_numbers
        )
        context = {
            **self.admin_site.each_context(request),
            "title": f"Standings — {tournament}",
            "opts": self.opts,
            "tournament": tournament,
            "rounds_played": tournament.current_round,
            "standings": standings,
            "rows": [
                (row, [row["round_points"][n] for n in standings.round_numbers])
                for row in standings.rows
            ],
            "chart": mark_safe(chart),  # built from escaped names and numbers only
        }
        return TemplateResponse(request, "admin/tournaments/tournament/standings.html", context)


class TableInline(admin.TabularInline):
    model = Table
    extra = 0
    fields = ("number", "match_link", "recorded_at")
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    @admin.display(description="match")
    def match_link(self, table: Table) -> SafeString | str:
        return _match_link(table)


class TableSeatInline(admin.TabularInline):
    model = TableSeat
    extra = 0
    fields = ("table", "seat", "entry")
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # edited as a whole on the seating page, where the rules are checked


class ByeInline(TableSeatInline):
    model = Bye
    fields = ("entry",)
    readonly_fields = fields


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
    tables, byes = [], []
    for line in filter(None, (line.strip() for line in text.splitlines())):
        is_bye = line.lower().startswith(BYE_PREFIX)
        listed = [
            n.strip() for n in line[len(BYE_PREFIX) if is_bye else 0 :].split(",") if n.strip()
        ]
        unknown = [name for name in listed if name not in names]
        if unknown:
            raise ValueError(f"not entries of this tournament: {', '.join(unknown)}")
        ids = [names[name] for name in listed]
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
    inlines = (TableInline, TableSeatInline, ByeInline)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    @admin.display(description="seating")
    def seating_link(self, drafted: Round) -> SafeString | str:
        if drafted.status != Round.Status.DRAFT:
            return "published: the tables are playing"
        url = reverse("admin:tournaments_round_seating", args=[drafted.pk])
        return format_html('<a href="{}">edit the tables</a>', url)

    def get_urls(self) -> list[Any]:
        seating_page = self.admin_site.admin_view(self.seating_view)
        return [
            path("<int:object_id>/seating/", seating_page, name="tournaments_round_seating"),
            *super().get_urls(),
        ]

    def seating_view(self, request: HttpRequest, object_id: int) -> HttpResponse:
        drafted = self.get_object(request, str(object_id))
        if drafted is None:
            return self._get_obj_does_not_exist_redirect(request, self.opts, str(object_id))
        text = seating_text(drafted)
        if request.method == "POST":
            text = request.POST.get("seating", "")
            names = dict(drafted.tournament.entries.values_list("name", "pk"))
            try:
                tables, byes = parse_seating(text, names)
                services.round_edit(
                    tournament_id=drafted.tournament_id, user=request.user, tables=tables, byes=byes
                )
            except (ValueError, *problem_classes()) as error:
                self.message_user(request, str(error), messages.ERROR)
            else:
                self.message_user(request, "The tables are saved.", messages.SUCCESS)
                return redirect("admin:tournaments_round_change", drafted.pk)
        context = {
            **self.admin_site.each_context(request),
            "title": f"Tables of {drafted}",
            "opts": self.opts,
            "round": drafted,
            "seating": text,
            "editable": drafted.status == Round.Status.DRAFT,
        }
        return TemplateResponse(request, "admin/tournaments/round/seating.html", context)


@admin.register(ScoreLine)
class ScoreLineAdmin(admin.ModelAdmin):
    """Corrections: saving a line marks it corrected and recomputes standings and ratings."""

    list_display = ("table", "entry", "deal", "points", "won", "corrected")
    list_filter = ("table__round__tournament", "corrected")
    list_select_related = ("table__round__tournament", "entry")
    fields = ("table", "entry", "deal", "points", "won", "corrected")
    readonly_fields = ("table", "entry", "deal", "corrected")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def save_model(self, request: HttpRequest, obj: ScoreLine, form: Any, change: bool) -> None:
        services.score_line_correct(
            line_id=obj.pk, points=obj.points, won=obj.won, user=request.user
        )
