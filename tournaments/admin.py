"""The organiser's desk: a tournament's page carries the button for the next step (start, seat,
publish, next round), its entries with drop buttons and a bulk entry form (guests typed or pasted
from a spreadsheet, players, bots), a result form per table with the running totals shown before
saving, printable A4 pages (tables by table and by name, result slips, standings) and the
standings with a chart. Drafted rounds can be edited on the round's page before publishing.

Every button calls the same service as the API, so the rules hold whichever door is used.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import admin, messages
from django.contrib.auth.models import User
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe

from games import catalog
from switchsite.problems import problem_classes
from switchsite.requests import AuthenticatedHttpRequest
from tournaments import errors, selectors, services
from tournaments.core import charts, results
from tournaments.core.scoring import Scoring
from tournaments.forms import RegisterForm, TableResultForm, TournamentForm
from tournaments.models import Bye, ResultEntry, Round, Table, Tournament

PRINT_CSS = {"all": ("tournaments/print.css",)}
# The rows a result form shows when the number of deals (hands) is not fixed.
OPEN_ENDED_ROWS = {Scoring.ABBOTT: 6, Scoring.FRENCH: 4, Scoring.PLACEMENT: 4}


class RoundFilter(admin.SimpleListFilter):
    """Tournaments by the number of rounds published so far."""

    title = "round"
    parameter_name = "round"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        most = max(Tournament.objects.values_list("planned_rounds", flat=True), default=0)
        return [("0", "not started"), *((str(n), f"round {n}") for n in range(1, most + 1))]

    def queryset(self, request: HttpRequest, queryset: QuerySet) -> QuerySet:
        value = self.value()
        if value is None:
            return queryset
        return queryset.filter(current_round=int(value))


class RoundInline(admin.TabularInline):
    model = Round
    extra = 0
    fields = ("number", "status", "repeats", "repeat_lower_bound", "seed")
    readonly_fields = fields
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


def _match_link(table: Table) -> SafeString | str:
    if table.match_id is None:
        return ""
    url = reverse("admin:games_match_change", args=[table.match_id])
    return format_html('<a href="{}">match {}</a>', url, table.match_id)


# What each button of the desk does: the service, and the message when it is done.
STEPS: dict[str, tuple[Callable[..., Any], str]] = {
    "start": (services.tournament_start, "Round 1 is seated and published."),
    "draft": (services.round_draft, "The next round is drafted: check its tables, then publish."),
    "publish": (services.round_publish, "The drafted round is published."),
    "next_round": (services.round_next, "The next round is seated and published."),
}


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = (
        "name",
        "ruleset",
        "scoring",
        "play",
        "status",
        "current_round",
        "planned_rounds",
        "entry_count",
        "created_at",
    )
    list_filter = ("status", RoundFilter, "play", "scoring", "ruleset")
    search_fields = ("name",)
    inlines = (RoundInline,)
    # Everything but the name and the public flag is fixed at creation, where the service checks it.
    fields = (*TournamentForm.Meta.fields, "status", "seed", "created_by", "created_at")
    readonly_fields = tuple(field for field in fields if field not in ("name", "public"))
    actions = ("export_csv",)
    change_form_template = "admin/tournaments/tournament/change_form.html"

    class Media:
        css = PRINT_CSS

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        return selectors.tournament_list().select_related("created_by")

    def add_view(
        self, request: HttpRequest, form_url: str = "", extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        """A new tournament through ``services.tournament_create``, which checks the ruleset,
        scoring, table size and house rules; a refusal is shown on the form."""
        assert isinstance(request.user, User)  # the admin site lets only staff in
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
        return self._page(request, "form.html", title="New tournament", form=form, submit="Create")

    def change_view(
        self,
        request: HttpRequest,
        object_id: str,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        tournament = self.get_object(request, object_id)
        desk = _desk(tournament) if tournament is not None else {}
        return super().change_view(request, object_id, form_url, {**(extra_context or {}), **desk})

    def view_on_site(self, tournament: Tournament) -> str | None:
        """The public page ("View on site"), for a public tournament."""
        return reverse("tournament-public", args=[tournament.pk]) if tournament.public else None

    @admin.display(description="round", ordering="current_round")
    def current_round(self, tournament: selectors.ListedTournament) -> int:
        return tournament.current_round

    @admin.display(description="entries", ordering="entry_count")
    def entry_count(self, tournament: selectors.ListedTournament) -> int:
        return tournament.entry_count

    @admin.action(description="Export standings as CSV (one tournament)")
    def export_csv(self, request: HttpRequest, queryset: QuerySet) -> HttpResponse | None:
        if queryset.count() != 1:
            self.message_user(request, "Select exactly one tournament to export.", messages.ERROR)
            return None
        tournament = queryset.get()
        standings = selectors.standings_table(tournament=tournament)
        response = HttpResponse(
            selectors.standings_csv(standings=standings), content_type="text/csv"
        )
        filename = selectors.standings_filename(tournament=tournament)
        response["Content-Disposition"] = f'attachment; filename="{filename}"'
        return response

    def get_urls(self) -> list[Any]:
        def view(method: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
            return self.admin_site.admin_view(self._with_tournament(method))

        name = "tournaments_tournament_"
        return [
            path("<int:object_id>/step/", view(self.step_view), name=f"{name}step"),
            path("<int:object_id>/withdraw/", view(self.withdraw_view), name=f"{name}withdraw"),
            path("<int:object_id>/register/", view(self.register_view), name=f"{name}register"),
            path("<int:object_id>/standings/", view(self.standings_view), name=f"{name}standings"),
            path(
                "<int:object_id>/rounds/<int:round_number>/tables/<int:table_number>/result/",
                view(self.result_view),
                name=f"{name}result",
            ),
            path(
                "<int:object_id>/print/<str:sheet>/",
                view(self.print_view),
                name=f"{name}print",
            ),
            *super().get_urls(),
        ]

    def _with_tournament(self, method: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        def wrapped(request: HttpRequest, object_id: int, **kwargs: Any) -> HttpResponse:
            tournament = self.get_object(request, str(object_id))
            if tournament is None:
                # Django's own answer for a missing object (private, so not in the stubs).
                return self._get_obj_does_not_exist_redirect(  # type: ignore[attr-defined]
                    request, self.opts, str(object_id)
                )
            return method(request, tournament, **kwargs)

        return wrapped

    def _back(self, tournament: Tournament) -> HttpResponse:
        return redirect("admin:tournaments_tournament_change", tournament.pk)

    def step_view(self, request: AuthenticatedHttpRequest, tournament: Tournament) -> HttpResponse:
        """One of the desk's buttons: the next step of the evening (POST only)."""
        step = STEPS.get(request.POST.get("step", "")) if request.method == "POST" else None
        if step is None:
            raise Http404("No such step.")
        service, done = step
        try:
            service(tournament_id=tournament.pk, user=request.user)
        except problem_classes() as error:
            self.message_user(request, str(error), messages.ERROR)
        else:
            self.message_user(request, done, messages.SUCCESS)
        return self._back(tournament)

    def withdraw_view(
        self, request: AuthenticatedHttpRequest, tournament: Tournament
    ) -> HttpResponse:
        """Drop an entry (POST ``name``): it keeps its results and is not seated again."""
        if request.method != "POST":
            raise Http404("Withdraw with the button on the tournament's page.")
        try:
            entry = services.entry_withdraw(
                tournament_id=tournament.pk, user=request.user, name=request.POST.get("name", "")
            )
        except problem_classes() as error:
            self.message_user(request, str(error), messages.ERROR)
        else:
            self.message_user(
                request, f"{entry.name} is withdrawn (results kept).", messages.SUCCESS
            )
        return self._back(tournament)

    def register_view(
        self, request: AuthenticatedHttpRequest, tournament: Tournament
    ) -> HttpResponse:
        """Register many entrants in one step (late entries too), all or none."""
        game = catalog.find_ruleset(tournament.ruleset).game
        form = RegisterForm(request.POST if request.method == "POST" else None, game=game)
        if request.method == "POST" and form.is_valid():
            entrants = form.entrants()
            try:
                entries = services.entries_register(
                    tournament_id=tournament.pk, user=request.user, entrants=entrants
                )
            except problem_classes() as error:
                form.add_error(None, str(error))
                for where, problems in (getattr(error, "errors", None) or {}).items():
                    index = int(where.removeprefix("entries[").rstrip("]"))
                    who = entrants[index].guest or entrants[index].player or entrants[index].bot
                    form.add_error(None, f"{who}: {' '.join(problems)}")
            else:
                joined = {entry.joined_round for entry in entries}
                self.message_user(
                    request,
                    f"{len(entries)} registered (playing from round {min(joined)}).",
                    messages.SUCCESS,
                )
                return self._back(tournament)
        return self._page(
            request,
            "form.html",
            title=f"Register for {tournament}",
            form=form,
            submit="Register",
            parent=tournament,
        )

    def result_view(
        self,
        request: AuthenticatedHttpRequest,
        tournament: Tournament,
        round_number: int,
        table_number: int,
    ) -> HttpResponse:
        """A table's result: checked and shown with running totals, then saved (a correction
        when the table has one already: the earlier versions stay on record)."""
        try:
            table = selectors.table_of(
                tournament=tournament, round_number=round_number, table_number=table_number
            )
        except errors.TableNotFound as error:
            raise Http404(str(error)) from None
        names = [s.entry.name for s in table.seats.select_related("entry").order_by("seat")]
        entered = table.result_entries.order_by("-entered_at", "-pk").first()
        scoring = Scoring(tournament.scoring)
        # Abbott's hands are played to the target, whatever number of deals is set.
        fixed_deals = tournament.deals_per_round if scoring != Scoring.ABBOTT else None
        earlier = sum(len(items) for items in (entered.result if entered else {}).values())
        wanted = _int_or_none(request.GET.get("rows")) or 0
        fixed = fixed_deals is not None
        rows = (
            fixed_deals
            if fixed_deals is not None
            else max(OPEN_ENDED_ROWS[scoring], earlier + 1, wanted)
        )
        initial = (
            TableResultForm.initial_from(tournament.scoring, names, entered.result)
            if entered
            else {}
        )
        form = TableResultForm(
            request.POST if request.method == "POST" else None,
            initial=initial,
            scoring=tournament.scoring,
            names=names,
            rows=rows,
            fixed=fixed,
        )
        preview, problems = None, []
        if request.method == "POST" and form.is_valid():
            result = form.result()
            try:
                preview = selectors.result_preview(
                    tournament=tournament, names=names, result=result
                )
                if "_save" in request.POST:
                    services.table_result_enter(
                        tournament_id=tournament.pk,
                        round_number=round_number,
                        table_number=table_number,
                        user=request.user,
                        result=result,
                        replace=table.recorded_at is not None,
                    )
                    self.message_user(
                        request, f"Table {table_number}'s result is saved.", messages.SUCCESS
                    )
                    return self._back(tournament)
            except results.ResultInvalid as error:
                problems = _readable(error.errors)
            except problem_classes() as error:
                problems = [str(error), *_readable(getattr(error, "errors", None) or {})]
        return self._page(
            request,
            "result.html",
            title=f"Result of table {table_number}, round {round_number}",
            parent=tournament,
            table=table,
            names=names,
            form=form,
            grid=form.grid(),
            scoring=tournament.scoring,
            preview=preview,
            problems=problems,
            entered=entered,
            history=table.result_entries.select_related("entered_by").order_by("entered_at"),
            more_rows=None if fixed else rows + 2,
        )

    def standings_view(
        self, request: AuthenticatedHttpRequest, tournament: selectors.ListedTournament
    ) -> HttpResponse:
        """Rank, player, points, deals won, tie-breaks and a column per round, and the chart —
        with the selector's fixed number of queries whatever the field size."""
        standings = selectors.standings_table(tournament=tournament)
        return self._page(
            request,
            "standings.html",
            title=f"Standings — {tournament}",
            parent=tournament,
            tournament=tournament,
            rounds_played=tournament.current_round,
            standings=standings,
            rows=[
                (row, [row["round_points"][n] for n in standings.round_numbers])
                for row in standings.rows
            ],
            chart=_chart(standings),
        )

    def print_view(
        self, request: AuthenticatedHttpRequest, tournament: Tournament, sheet: str
    ) -> HttpResponse:
        """A4 sheets for the desk: ``pairings`` (by table and by name), ``slips`` (one result
        slip per table) or ``standings``. The round is ``?round=N``, by default the latest."""
        if sheet not in ("pairings", "slips", "standings"):
            raise Http404("No such sheet.")
        context: dict[str, Any] = {"tournament": tournament, "sheet": sheet}
        if sheet == "standings":
            context["standings"] = selectors.standings_table(tournament=tournament)
        else:
            seated = selectors.round_seating(
                rounds=selectors.tournament_detail(tournament=tournament)["rounds"],
                number=_int_or_none(request.GET.get("round")),
            )
            if seated is None:
                raise Http404("No round is seated yet.")
            context["round"] = seated
            context["deal_boxes"] = range(1, selectors.slip_columns(tournament=tournament) + 1)
        return self._page(
            request,
            f"print_{sheet}.html",
            title=f"{tournament}: {sheet}",
            parent=tournament,
            **context,
        )

    def _page(self, request: HttpRequest, template: str, **context: Any) -> TemplateResponse:
        return TemplateResponse(
            request,
            f"admin/tournaments/tournament/{template}",
            {**self.admin_site.each_context(request), "opts": self.opts, **context},
        )


def _desk(tournament: Tournament) -> dict[str, Any]:
    """What the desk panel of the tournament's page shows: the next steps, the current round's
    tables with their results, and the entries."""
    seated = selectors.round_seating(
        rounds=selectors.tournament_detail(tournament=tournament)["rounds"], number=None
    )
    drafted = tournament.rounds.filter(status=Round.Status.DRAFT).first()
    steps = []
    if tournament.status == Tournament.Status.REGISTERING:
        steps = [("start", "Start: seat and publish round 1"), ("draft", "Seat round 1 as a draft")]
    elif tournament.status == Tournament.Status.ROUND_COMPLETE:
        steps = [("next_round", "Seat and publish the next round"), ("draft", "Seat it as a draft")]
    if drafted is not None:
        steps = [("publish", f"Publish round {drafted.number}"), *steps]
    return {
        "desk_steps": steps,
        "desk_draft": drafted,
        "desk_round": seated,
        "desk_entries": list(tournament.entries.order_by("name")),
    }


def _chart(standings: selectors.Standings) -> SafeString:
    return mark_safe(  # built from escaped names and numbers only
        charts.score_chart_svg(standings.score_history, standings.round_numbers)
    )


def _readable(errors: dict[str, list[str]]) -> list[str]:
    """``deals[1].points_left: No tally for Bob.`` as ``Deal 2: No tally for Bob.``"""
    lines = []
    for where, problems in errors.items():
        head = where.split(".")[0]
        if "[" in head:
            kind, index = head.rstrip("]").split("[")
            head = f"{kind.rstrip('s').capitalize()} {int(index) + 1}"
        else:
            head = head.capitalize()
        lines += [f"{head}: {problem}" for problem in problems]
    return lines


def _int_or_none(value: str | None) -> int | None:
    return int(value) if value and value.isdigit() else None


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

    @admin.display(description="players, in seat order")
    def players(self, table: Table) -> str:
        return ", ".join(seat.entry.name for seat in table.seats.all())

    @admin.display(description="match")
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
            raise ValueError(f"not entries of this tournament: {', '.join(unknown)}")
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


class ResultEntryInline(admin.TabularInline):
    model = ResultEntry
    extra = 0
    fields = ("entered_at", "entered_by", "result")
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    """A table's record: its seats, score lines and every version of its result (read-only;
    results are entered with the result form of the tournament's page)."""

    list_display = ("__str__", "outcome", "recorded_at")
    list_filter = ("outcome", "round__tournament")
    fields = ("round", "number", "outcome", "recorded_at", "score_lines")
    readonly_fields = fields
    inlines = (ResultEntryInline,)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    @admin.display(description="score lines")
    def score_lines(self, table: Table) -> SafeString:
        lines = table.score_lines.select_related("entry").order_by("deal", "entry__name")
        return format_html(
            "<table><tr><th>deal</th><th>player</th><th>points</th><th>won</th></tr>{}</table>",
            format_html_join(
                "",
                "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                ((ln.deal, ln.entry.name, ln.points, "✓" if ln.won else "") for ln in lines),
            ),
        )
