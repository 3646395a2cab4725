"""The tournaments' list and each tournament's page, with the desk panel at its top (the
views behind its buttons are in ``desk.py``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import admin, messages
from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import path, reverse
from django.utils.translation import get_language, gettext
from django.utils.translation import gettext_lazy as _

from switchsite.api.parsing import whole_number
from switchsite.problems import problem_classes, said
from tournaments import selectors, services
from tournaments.admin.desk import PRINT_CSS, DeskViews
from tournaments.forms import TournamentForm
from tournaments.models import Round, Tournament
from tournaments.powers import Power, has_power


class RoundFilter(admin.SimpleListFilter):
    """Tournaments by the number of rounds published so far."""

    title = _("round")
    parameter_name = "round"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        most = max(Tournament.objects.values_list("planned_rounds", flat=True), default=0)
        return [
            ("0", gettext("not started")),
            *((str(n), gettext("round %(number)s") % {"number": n}) for n in range(1, most + 1)),
        ]

    def queryset(self, request: HttpRequest, queryset: QuerySet) -> QuerySet:
        value = self.value()
        if value is None:
            return queryset
        number = whole_number(value)
        return queryset.none() if number is None else queryset.filter(current_round=number)


class RoundInline(admin.TabularInline):
    model = Round
    extra = 0
    fields = ("number", "status", "repeats", "repeat_lower_bound", "seed")
    readonly_fields = fields
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Tournament)
class TournamentAdmin(DeskViews):
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
    # Everything but the name, the public flag, the language and what the players may do on
    # their phones is fixed at creation, where the service checks it.
    fields = (*TournamentForm.Meta.fields, "status", "seed", "created_by", "created_at")
    readonly_fields = tuple(
        field
        for field in fields
        if field not in ("name", "public", "language", "self_report", "self_checkin")
    )
    actions = ("export_csv",)
    change_form_template = "admin/tournaments/tournament/change_form.html"

    class Media:
        css = PRINT_CSS

    def formfield_for_dbfield(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        """The players' reporting mode may be left out of a change (a script's post): the
        tournament keeps its own."""
        field = super().formfield_for_dbfield(db_field, request, **kwargs)
        if db_field.name == "self_report" and field is not None:
            field.required = False
        return field

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
                form.add_error(None, said(error))
            else:
                opened = gettext("%(tournament)s is open for registration.")
                self.message_user(request, opened % {"tournament": created}, messages.SUCCESS)
                return redirect("admin:tournaments_tournament_change", created.pk)
        return self._page(
            request,
            "form.html",
            title=gettext("New tournament"),
            form=form,
            submit=gettext("Create"),
        )

    def change_view(
        self,
        request: HttpRequest,
        object_id: str,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        tournament = self.get_object(request, object_id)
        desk = _desk(tournament, request.user) if tournament is not None else {}
        return super().change_view(request, object_id, form_url, {**(extra_context or {}), **desk})

    def view_on_site(self, tournament: Tournament) -> str | None:
        """The public page ("View on site"), for a public tournament."""
        return reverse("tournament-public", args=[tournament.pk]) if tournament.public else None

    def get_deleted_objects(
        self, objs: Any, request: HttpRequest
    ) -> tuple[list[Any], dict[str, int], set[str], list[str]]:
        """Deleting goes through the service: a tournament without results goes whole (seats and
        byes protect their entries only against deleting entries alone); one with results is
        refused, naming it, so the director cancels it instead."""
        deleted, counts, _, _ = super().get_deleted_objects(objs, request)
        refused = [
            gettext("%(name)s has recorded results: cancel it instead") % {"name": tournament.name}
            for tournament in objs
            if selectors.has_results(tournament=tournament)
        ]
        return deleted, counts, set(), refused

    def delete_model(self, request: HttpRequest, obj: Tournament) -> None:
        assert isinstance(request.user, User)  # the admin requires a login
        services.tournament_delete(tournament_id=obj.pk, user=request.user)

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet) -> None:
        for tournament in queryset:
            self.delete_model(request, tournament)

    @admin.display(description=_("round"), ordering="current_round")
    def current_round(self, tournament: selectors.ListedTournament) -> int:
        return tournament.current_round

    @admin.display(description=_("entries"), ordering="entry_count")
    def entry_count(self, tournament: selectors.ListedTournament) -> int:
        return tournament.entry_count

    @admin.action(description=_("Export standings as CSV (one tournament)"))
    def export_csv(self, request: HttpRequest, queryset: QuerySet) -> HttpResponse | None:
        if queryset.count() != 1:
            self.message_user(
                request, gettext("Select exactly one tournament to export."), messages.ERROR
            )
            return None
        tournament = queryset.get()
        standings = selectors.standings_table(tournament=tournament)
        dialect = selectors.csv_dialect(get_language())
        response = HttpResponse(
            selectors.standings_csv(standings=standings, dialect=dialect), content_type="text/csv"
        )
        filename = selectors.standings_filename(tournament=tournament)
        response["Content-Disposition"] = f'attachment; filename="{filename}"'
        return response

    def get_urls(self) -> list[Any]:
        def view(method: Callable[..., HttpResponse], power: Power) -> Callable[..., HttpResponse]:
            return self.admin_site.admin_view(self._with_tournament(method, power))

        name = "tournaments_tournament_"
        on = "<int:object_id>/"
        round_ = f"{on}rounds/<int:round_number>/"
        return [
            path(f"{on}step/", view(self.step_view, Power.SEAT), name=f"{name}step"),
            path(
                f"{on}entries/<int:entry_id>/withdraw/",
                view(self.withdraw_view, Power.REGISTER),
                name=f"{name}withdraw",
            ),
            path(f"{on}clock/", view(self.clock_view, Power.CLOCK), name=f"{name}clock"),
            path(
                f"{round_}withdraw/",
                view(self.round_withdraw_view, Power.SEAT),
                name=f"{name}round_withdraw",
            ),
            path(f"{on}cancel/", view(self.cancel_view, Power.CANCEL), name=f"{name}cancel"),
            path(f"{on}checkin/", view(self.checkin_view, Power.REGISTER), name=f"{name}checkin"),
            path(
                f"{on}register/", view(self.register_view, Power.REGISTER), name=f"{name}register"
            ),
            path(f"{on}standings/", view(self.standings_view, Power.VIEW), name=f"{name}standings"),
            path(
                f"{round_}tables/<int:table_number>/result/",
                view(self.result_view, Power.RESULTS),
                name=f"{name}result",
            ),
            path(f"{on}print/<str:sheet>/", view(self.print_view, Power.VIEW), name=f"{name}print"),
            *super().get_urls(),
        ]

    def _with_tournament(
        self, method: Callable[..., HttpResponse], power: Power
    ) -> Callable[..., HttpResponse]:
        """A desk page of one tournament, for those with ``power`` only: the admin lets any staff
        user in, and the desk's own pages are not Django's model views that check permissions."""

        def wrapped(request: HttpRequest, object_id: int, **kwargs: Any) -> HttpResponse:
            if not has_power(request.user, power):
                raise PermissionDenied
            tournament = self.get_object(request, str(object_id))
            if tournament is None:
                # Django's own answer for a missing object (private, so not in the stubs).
                return self._get_obj_does_not_exist_redirect(  # type: ignore[attr-defined]
                    request, self.opts, str(object_id)
                )
            return method(request, tournament, **kwargs)

        return wrapped


def _desk(tournament: Tournament, user: User | AnonymousUser) -> dict[str, Any]:
    """What the desk panel of the tournament's page shows: the next steps (the first is the one
    to take), the round at hand — the drafted round when there is one, else the latest published
    — with its tables, results and repeats, the ways back (withdraw the round while none of its
    tables has a result, cancel the tournament until it is finished; each asks for
    confirmation), and the entries, with their buttons until the tournament is finished or
    cancelled. While too few entries are present to seat a table, no step is offered: the desk
    says how many more to register. Each button and link is there only for a user with its power
    (``desk_may``): the others would answer 403."""
    may = {power.name.lower(): has_power(user, power) for power in Power}
    seated = selectors.round_seating(
        rounds=selectors.tournament_detail(tournament=tournament)["rounds"], number=None
    )
    drafted = selectors.draft_seating(tournament=tournament)
    ways_back = []
    # How to seat the round shown again, while it can be (repeats.html).
    reseat: tuple[str, str, str | None] | None = None
    if (
        may["seat"]
        and drafted is None
        and tournament.status == Tournament.Status.RUNNING
        and seated is not None
        and not any(table["recorded"] for table in seated["tables"])
    ):
        url = reverse(
            "admin:tournaments_tournament_round_withdraw", args=[tournament.pk, seated["number"]]
        )
        ways_back.append((url, gettext("Withdraw round %(number)s") % {"number": seated["number"]}))
        reseat = (url, gettext("Withdraw it to seat it again"), None)
    still_open = tournament.status not in (Tournament.Status.FINISHED, Tournament.Status.CANCELLED)
    if still_open and may["cancel"]:
        url = reverse("admin:tournaments_tournament_cancel", args=[tournament.pk])
        ways_back.append((url, gettext("Cancel the tournament")))
    steps: list[tuple[str, str]] = []
    missing = 0
    entries = list(tournament.entries.order_by("name"))
    if drafted is not None:
        number = drafted["number"]
        steps = [
            ("publish", gettext("Publish round %(number)s as drafted") % {"number": number}),
            ("draft", gettext("Seat round %(number)s afresh") % {"number": number}),
        ]
        step_url = reverse("admin:tournaments_tournament_step", args=[tournament.pk])
        reseat = (step_url, steps[1][1], "draft") if may["seat"] else None
    elif tournament.status in (Tournament.Status.REGISTERING, Tournament.Status.ROUND_COMPLETE):
        missing = selectors.entries_missing(tournament=tournament)
        number = seated["number"] + 1 if seated else 1
        if not missing:
            steps = [
                (
                    "start" if number == 1 else "next_round",
                    gettext("Seat and publish round %(number)s") % {"number": number},
                ),
                ("draft", gettext("Seat round %(number)s as a draft") % {"number": number}),
            ]
    return {
        "desk_may": may,
        "desk_steps": steps if may["seat"] else [],
        "desk_draft": drafted,
        "desk_missing": missing,
        "desk_ways_back": ways_back,
        # Entries are registered, checked in and withdrawn only until the end.
        "desk_open": still_open,
        "desk_round": drafted or seated,
        "desk_reseat": reseat,
        "desk_entries": entries,
        "desk_present": sum(entry.present for entry in entries if entry.is_active),
        # The players' reports waiting for an opponent or for the desk, in the round shown.
        "desk_waiting": [
            table for table in (seated or {}).get("tables", []) if table["report_status"]
        ],
        "desk_guest_links": selectors.guests_have_links(tournament),
    }
