"""The desk's own pages and buttons: the next step, withdraw, register, a table's result,
standings and the printable sheets. Every button calls the same service as the API, so the
rules hold whichever door is used."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils import timezone
from django.utils.functional import Promise
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from switchgame import catalog
from switchgame.tournament import charts, results
from switchgame.tournament.scoring import Scoring
from switchsite.api.parsing import whole_number
from switchsite.languages import spoken
from switchsite.problems import problem_classes, said
from switchsite.requests import AuthenticatedHttpRequest
from tournaments import errors, selectors, services
from tournaments.forms import RegisterForm, TableResultForm
from tournaments.models import Tournament
from tournaments.powers import Power, has_power
from tournaments.qr import qr_svg

PRINT_CSS = {"all": ("tournaments/print.css",)}
# The rows a result form shows when the number of deals (hands) is not fixed.
OPEN_ENDED_ROWS = {Scoring.ABBOTT: 6, Scoring.FRENCH: 4, Scoring.PLACEMENT: 4}


# What each button of the desk does: the service, and the message when it is done.
STEPS: dict[str, tuple[Callable[..., Any], Promise]] = {
    "start": (services.tournament_start, _("Round 1 is seated and published.")),
    "draft": (
        services.round_draft,
        _("The next round is drafted: check its tables, then publish."),
    ),
    "publish": (services.round_publish, _("The drafted round is published.")),
    "next_round": (services.round_next, _("The next round is seated and published.")),
}


# What the desk says once the round clock's button is done.
CLOCK_DONE = {
    "start": _("The round clock is running."),
    "pause": _("The round clock is paused."),
    "resume": _("The round clock is running again."),
}

# The printable sheets, and each one's title.
# The check-in poster's code: 3 mm modules, read by a phone from a couple of metres.
POSTER_MODULE_PX = 12
SHEET_TITLES = {
    "pairings": _("%(tournament)s: tables"),
    "slips": _("%(tournament)s: result slips"),
    "standings": _("%(tournament)s: standings"),
    "seat_links": _("%(tournament)s: seat links"),
    "checkin": _("%(tournament)s: check-in poster"),
}

# Where a problem of a result is, for a person: the deal or hand it is in.
PLACES = {"deals": _("Deal %(number)s"), "hands": _("Hand %(number)s")}


class DeskViews(admin.ModelAdmin):
    """The views behind the desk's buttons and links (``TournamentAdmin`` mounts them)."""

    def _back(self, tournament: Tournament) -> HttpResponse:
        return redirect("admin:tournaments_tournament_change", tournament.pk)

    def _refused(
        self,
        request: HttpRequest,
        tournament: Tournament,
        refusal: Exception | str,
        code: str | None = None,
    ) -> None:
        """Say why the desk refused, with the way forward: a link to where the director can act
        on it (a refusal always offers one). ``code``: the problem's, unless ``refusal`` is one."""
        url, label = way_forward(tournament, code or getattr(refusal, "code", None))
        self.message_user(
            request,
            format_html('{} <a href="{}">{}</a>', said(refusal), url, label),
            messages.ERROR,
        )

    def step_view(self, request: AuthenticatedHttpRequest, tournament: Tournament) -> HttpResponse:
        """One of the desk's buttons: the next step of the evening (POST only)."""
        step = STEPS.get(request.POST.get("step", "")) if request.method == "POST" else None
        if step is None:
            raise Http404(gettext("No such step."))
        service, done = step
        try:
            service(tournament_id=tournament.pk, user=request.user)
        except problem_classes() as error:
            self._refused(request, tournament, error)
        else:
            self.message_user(request, str(done), messages.SUCCESS)
        return self._back(tournament)

    def withdraw_view(
        self, request: AuthenticatedHttpRequest, tournament: Tournament, entry_id: int
    ) -> HttpResponse:
        """Drop an entry (``services.entry_withdraw``) after a confirmation page naming it: it
        keeps its results and is not seated again."""
        entry = tournament.entries.filter(pk=entry_id).first()
        if entry is None:
            raise Http404(gettext("No such entry in this tournament."))
        names = {"name": entry.name, "tournament": tournament.name}
        return self._confirmed(
            request,
            tournament,
            question=gettext("Withdraw %(name)s from %(tournament)s?") % names,
            consequences=[
                gettext("%(name)s's results stay, with their place in the standings.") % names,
                gettext("%(name)s is not seated in any later round.") % names,
            ],
            button=gettext("Yes, withdraw %(name)s") % names,
            act=lambda: services.entry_withdraw(
                tournament_id=tournament.pk, user=request.user, name=entry.name
            ),
            done=gettext("%(name)s is withdrawn (results kept).") % names,
        )

    def round_withdraw_view(
        self, request: AuthenticatedHttpRequest, tournament: Tournament, round_number: int
    ) -> HttpResponse:
        """Withdraw the round being played back to a draft (``services.round_unpublish``), after
        a confirmation page; refused once a table of it has a result."""
        online = tournament.play == Tournament.Play.ONLINE
        named = {"number": round_number, "tournament": tournament.name}
        return self._confirmed(
            request,
            tournament,
            question=gettext("Withdraw round %(number)s of %(tournament)s?") % named,
            consequences=[
                gettext("Its tables leave the public page and the projector."),
                *([gettext("Its matches are abandoned (round withdrawn).")] if online else []),
                gettext(
                    "Round %(number)s becomes a draft again: edit its tables and publish it, "
                    "or seat it afresh."
                )
                % named,
            ],
            button=gettext("Yes, withdraw round %(number)s") % named,
            act=lambda: services.round_unpublish(
                tournament_id=tournament.pk, user=request.user, round_number=round_number
            ),
            done=gettext("Round %(number)s is withdrawn: it is a draft again.") % named,
        )

    def cancel_view(
        self, request: AuthenticatedHttpRequest, tournament: Tournament
    ) -> HttpResponse:
        """Cancel the tournament (``services.tournament_cancel``) after a confirmation page."""
        online = tournament.play == Tournament.Play.ONLINE
        named = {"tournament": tournament.name}
        return self._confirmed(
            request,
            tournament,
            question=gettext("Cancel %(tournament)s?") % named,
            consequences=[
                gettext("No round is seated again; the results so far stay on record."),
                *([gettext("The matches still playing are abandoned.")] if online else []),
                gettext("It leaves the public list of tournaments."),
                gettext("A cancelled tournament cannot be resumed."),
            ],
            button=gettext("Yes, cancel %(tournament)s") % named,
            act=lambda: services.tournament_cancel(tournament_id=tournament.pk, user=request.user),
            done=gettext("%(tournament)s is cancelled; its results stay on record.") % named,
        )

    def _confirmed(
        self,
        request: AuthenticatedHttpRequest,
        tournament: Tournament,
        *,
        question: str,
        consequences: list[str],
        button: str,
        act: Callable[[], object],
        done: str,
    ) -> HttpResponse:
        """A desk action that asks first (withdraw an entry or a round, cancel): what it will do,
        on a confirmation page (GET), then the service (POST), back to the desk with what was
        done or why it was refused."""
        if request.method != "POST":
            return self._page(
                request,
                "confirm.html",
                title=question,
                parent=tournament,
                consequences=consequences,
                button=button,
            )
        try:
            act()
        except problem_classes() as error:
            self._refused(request, tournament, error)
        else:
            self.message_user(request, done, messages.SUCCESS)
        return self._back(tournament)

    def clock_view(self, request: AuthenticatedHttpRequest, tournament: Tournament) -> HttpResponse:
        """The round clock's buttons (POST ``round`` and ``minutes``, or ``pause`` / ``resume``):
        every screen counts down to the same end (``services.round_clock``)."""
        if request.method != "POST":
            raise Http404(gettext("Run the clock with the desk's buttons."))
        action = request.POST.get("clock", "")
        minutes = whole_number(request.POST.get("minutes")) if action == "start" else None
        if action not in ("start", "pause", "resume") or (action == "start" and minutes is None):
            asked = gettext("Give the clock's minutes (1 to 600).")
            self._refused(request, tournament, asked, code="clock")
            return self._back(tournament)
        try:
            services.round_clock(
                tournament_id=tournament.pk,
                round_number=whole_number(request.POST.get("round")) or 0,
                user=request.user,
                minutes=minutes,
                pause=action == "pause",
                resume=action == "resume",
            )
        except problem_classes() as error:
            self._refused(request, tournament, error)
        else:
            self.message_user(request, CLOCK_DONE[action], messages.SUCCESS)
        return self._back(tournament)

    def checkin_view(
        self, request: AuthenticatedHttpRequest, tournament: Tournament
    ) -> HttpResponse:
        """Mark an entry present or absent (POST ``name``, ``present``): only present entries
        are seated."""
        if request.method != "POST":
            raise Http404(gettext("Check in with the buttons on the tournament's page."))
        present = request.POST.get("present") == "true"
        try:
            entry = services.entry_checkin(
                tournament_id=tournament.pk,
                user=request.user,
                name=request.POST.get("name", ""),
                present=present,
            )
        except problem_classes() as error:
            self._refused(request, tournament, error)
        else:
            done = (
                gettext("%(name)s is present.")
                if present
                else gettext("%(name)s is absent: not seated until marked present.")
            )
            self.message_user(request, done % {"name": entry.name}, messages.SUCCESS)
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
                form.add_error(None, said(error))
                for where, problems in (getattr(error, "errors", None) or {}).items():
                    index = int(where.removeprefix("entries[").rstrip("]"))
                    who = entrants[index].guest or entrants[index].player or entrants[index].bot
                    form.add_error(
                        None,
                        gettext("%(who)s: %(problems)s")
                        % {"who": who, "problems": " ".join(problems)},
                    )
            else:
                joined = {entry.joined_round for entry in entries}
                registered = ngettext(
                    "%(count)s registered (playing from round %(number)s).",
                    "%(count)s registered (playing from round %(number)s).",
                    len(entries),
                )
                self.message_user(
                    request,
                    registered % {"count": len(entries), "number": min(joined)},
                    messages.SUCCESS,
                )
                return self._back(tournament)
        return self._page(
            request,
            "form.html",
            title=gettext("Register for %(tournament)s") % {"tournament": tournament.name},
            form=form,
            submit=gettext("Register"),
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
        when the table has one already: the earlier versions stay on record). A cancelled
        tournament takes none: back to the desk, saying so."""
        if tournament.status == Tournament.Status.CANCELLED:
            self._refused(
                request, tournament, errors.TournamentCancelled.results_closed(tournament.name)
            )
            return self._back(tournament)
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
        wanted = whole_number(request.GET.get("rows")) or 0
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
                        confirm=form.cleaned_data["confirm"],
                        reason=form.cleaned_data["reason"],
                        submission=form.cleaned_data["submission"],
                    )
                    saved = gettext("Table %(number)s's result is saved.")
                    self.message_user(request, saved % {"number": table_number}, messages.SUCCESS)
                    return self._back(tournament)
            except results.ResultInvalid as error:
                problems = _readable(error.errors)
            except problem_classes() as error:
                problems = [said(error), *_readable(getattr(error, "errors", None) or {})]
        return self._page(
            request,
            "result.html",
            title=gettext("Result of table %(table)s, round %(round)s")
            % {"table": table_number, "round": round_number},
            parent=tournament,
            table=table,
            names=names,
            form=form,
            grid=form.grid(),
            scoring=tournament.scoring,
            preview=preview,
            problems=problems,
            entered=entered,
            history=table.result_entries.select_related(
                "entered_by", "report__reporter", "report__answerer"
            ).order_by("entered_at"),
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
            title=gettext("Standings — %(tournament)s") % {"tournament": tournament.name},
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
        slip per table), ``standings``, ``seat_links`` (a card per guest who has a seat link, to
        hand out) or ``checkin`` (the poster of the players' check-in page, for the door). The round is ``?round=N``, by default the latest. In the
        tournament's language, whatever the desk's."""
        return spoken(tournament.language, lambda: self._sheet(request, tournament, sheet).render())

    def _sheet(
        self, request: AuthenticatedHttpRequest, tournament: Tournament, sheet: str
    ) -> TemplateResponse:
        if sheet not in SHEET_TITLES:
            raise Http404(gettext("No such sheet."))
        context: dict[str, Any] = {
            "tournament": tournament,
            "sheet": sheet,
            "printed_at": timezone.now(),
        }
        if sheet == "seat_links":
            if not has_power(request.user, Power.SEAT_LINKS):
                raise PermissionDenied
            services.seat_links_renew(tournament=tournament, user=request.user)
            context["seat_links"] = _seat_link_cards(request, tournament)
            return self._page(
                request,
                "print_seat_links.html",
                title=SHEET_TITLES[sheet] % {"tournament": tournament.name},
                parent=tournament,
                **context,
            )
        if sheet == "checkin":
            url = request.build_absolute_uri(reverse("play-my-table", args=[tournament.pk]))
            context["checkin_url"] = url
            context["checkin_qr"] = qr_svg(
                url,
                title=gettext("%(tournament)s: check in") % {"tournament": tournament.name},
                scale=POSTER_MODULE_PX,
            )
            return self._page(
                request,
                "print_checkin.html",
                title=SHEET_TITLES[sheet] % {"tournament": tournament.name},
                parent=tournament,
                **context,
            )
        if tournament.public:
            url = request.build_absolute_uri(reverse("tournament-public", args=[tournament.pk]))
            context["public_url"] = url
            context["public_qr"] = qr_svg(
                url,
                title=gettext("%(tournament)s: tables and standings")
                % {"tournament": tournament.name},
            )
        if sheet == "standings":
            context["standings"] = selectors.standings_table(tournament=tournament)
        else:
            seated = selectors.round_seating(
                rounds=selectors.tournament_detail(tournament=tournament)["rounds"],
                number=whole_number(request.GET.get("round")),
            )
            if seated is None:
                raise Http404(gettext("No round is seated yet."))
            context["round"] = seated
            context["deal_boxes"] = range(1, selectors.slip_columns(tournament=tournament) + 1)
        return self._page(
            request,
            f"print_{sheet}.html",
            title=SHEET_TITLES[sheet] % {"tournament": tournament.name},
            parent=tournament,
            **context,
        )

    def _page(self, request: HttpRequest, template: str, **context: Any) -> TemplateResponse:
        return TemplateResponse(
            request,
            f"admin/tournaments/tournament/{template}",
            {**self.admin_site.each_context(request), "opts": self.opts, **context},
        )


def way_forward(tournament: Tournament, code: str | None) -> tuple[str, str]:
    """Where the director goes after a refusal of this ``code`` (a problem's), and its link's
    words: the page or the part of the desk where the thing refused can be put right."""
    desk = reverse("admin:tournaments_tournament_change", args=[tournament.pk])
    if code == "not_enough_entries":
        url = reverse("admin:tournaments_tournament_register", args=[tournament.pk])
        return url, gettext("Register entries")
    if code in ("round_in_progress", "round_has_results"):
        seated = selectors.round_seating(
            rounds=selectors.tournament_detail(tournament=tournament)["rounds"], number=None
        )
        recorded = code == "round_has_results"
        table = next(
            (t for t in (seated or {}).get("tables", ()) if t["recorded"] == recorded), None
        )
        if seated is not None and table is not None:
            url = reverse(
                "admin:tournaments_tournament_result",
                args=[tournament.pk, seated["number"], table["number"]],
            )
            words = (
                gettext("Correct table %(number)s's result")
                if recorded
                else gettext("Enter table %(number)s's result")
            )
            return url, words % {"number": table["number"]}
    if code == "invalid_seating":
        drafted = selectors.draft_seating(tournament=tournament)
        if drafted is not None:
            url = reverse("admin:tournaments_round_seating", args=[drafted["id"]])
            return url, gettext("Edit round %(number)s's tables") % {"number": drafted["number"]}
    if code in ("tournament_cancelled", "tournament_finished"):
        url = reverse("admin:tournaments_tournament_standings", args=[tournament.pk])
        return url, gettext("See the standings")
    if code in ("clock", "clock_not_running", "clock_not_paused"):
        return f"{desk}#desk-clock", gettext("The round clock")
    if code in ("not_registered", "name_taken", "not_registering"):
        return f"{desk}#desk-entries", gettext("The entries")
    return f"{desk}#desk-steps", gettext("The desk's next step")


def _seat_link_cards(request: HttpRequest, tournament: Tournament) -> list[dict[str, Any]]:
    """Each active guest's name, seat link and its QR code (a guest's secret: one card each,
    handed to that guest, never posted on the wall)."""
    detail = selectors.tournament_detail(
        tournament=tournament, absolute=request.build_absolute_uri, seat_links=True
    )
    return [
        {
            "name": entry["name"],
            "url": entry["play_url"],
            "qr": qr_svg(
                entry["play_url"], title=gettext("Seat link of %(name)s") % {"name": entry["name"]}
            ),
        }
        for entry in detail["entries"]
        if entry["play_url"] and not entry["withdrawn"]
    ]


def _chart(standings: selectors.Standings) -> SafeString:
    """The ranking score by round, on a scale up to the highest score so far (at least 1: an
    average's whole scale)."""
    scores = [score for line in standings.score_history.values() for score in line if score]
    top = max(1, math.ceil(max(scores, default=1)))
    return mark_safe(  # built from escaped names and numbers only
        charts.score_chart_svg(
            standings.score_history,
            standings.round_numbers,
            top,
            title=gettext("Ranking score by round"),
            round_label=gettext("round {number}"),
        )
    )


def _readable(errors: dict[str, list[str]]) -> list[str]:
    """``deals[1].points_left: No tally for Bob.`` as ``Deal 2: No tally for Bob.``, in the
    request's language."""
    lines = []
    for where, problems in errors.items():
        head = where.split(".")[0]
        if "[" in head:
            kind, index = head.rstrip("]").split("[")
            place = PLACES.get(kind)
            head = place % {"number": int(index) + 1} if place else head
        else:
            head = head.capitalize()
        lines += [
            gettext("%(where)s: %(problem)s") % {"where": head, "problem": said(problem)}
            for problem in problems
        ]
    return lines
