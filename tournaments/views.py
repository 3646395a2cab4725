"""Public pages of public tournaments and series: no login, readable on a phone, clean on paper.

They show the current round's tables (by table, and alphabetically by name so players find their
seat), the standings and the finished rounds' results — names and points only, never a card. The
projector screen shows the same for the room, in large type, with the round clock. A series' page
adds up its tournaments. All three update themselves (``tournaments.live``); those who may see
tournaments that are not public (``Power.VIEW``) see them when they are not public.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import BadRequest
from django.db.models import Min
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseBase,
    StreamingHttpResponse,
)
from django.shortcuts import render
from django.utils import timezone
from django.utils.translation import gettext

from switchsite.api.parsing import whole_number
from switchsite.asyncdb import run_sync
from switchsite.languages import chosen_language, spoken
from switchsite.middleware import problem_response_json
from switchsite.problems import TooManyStreams
from switchsite.serving import streamcaps
from tournaments import errors, live, selectors, series
from tournaments.models import Round, Series, Tournament
from tournaments.powers import Power, has_power


def public_index(request: HttpRequest) -> HttpResponse:
    """Every public tournament, newest first."""
    return render(
        request,
        "tournaments/public/index.html",
        {
            "tournaments": selectors.tournament_list(public_only=True).annotate(
                started_at=Min("rounds__published_at")
            )
        },
    )


def public_detail(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """In the tournament's language, unless the visitor chose the other with the switcher."""
    tournament = _shown(tournament_id, viewer=request.user)
    context = _room(tournament)
    finished = [r for r in reversed(context["rounds"]) if r["status"] == Round.Status.COMPLETE]
    return spoken(
        chosen_language(request) or tournament.language,
        lambda: render(
            request, "tournaments/public/detail.html", {**context, "finished": finished}
        ),
    )


def screen(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The projector page: the current round's tables, its clock and the standings, in the
    tournament's language."""
    tournament = _shown(tournament_id, viewer=request.user)
    return spoken(
        tournament.language,
        lambda: render(request, "tournaments/public/screen.html", _room(tournament)),
    )


def series_page(request: HttpRequest, series_id: int) -> HttpResponse:
    """A series' standings: the results of its tournaments added up per person."""
    shown = _series_shown(series_id, viewer=request.user)
    revision = live.series_revision(shown.pk)  # first: never newer than what the page shows
    detail = series.series_detail(series=shown)
    rows = series.series_standings_rows(series=shown)
    nights = series.series_nights(series=shown)
    for night in detail["tournaments"]:
        night.update(nights[night["id"]])
    for row in rows:  # the place in each tournament, in the columns' order
        row["places"] = [row["ranks"].get(str(t["id"])) for t in detail["tournaments"]]
    return render(
        request,
        "tournaments/public/series.html",
        {"series": detail, "rows": rows, "revision": revision},
    )


async def live_events(request: HttpRequest, tournament_id: int) -> HttpResponseBase:
    """The pages' ``changed`` events (Server-Sent Events) after the revision they were drawn at."""
    user = await request.auser()
    await run_sync(_shown, tournament_id, viewer=user)
    return await _event_stream(request, user, live.stream(tournament_id, _after(request)))


async def series_live_events(request: HttpRequest, series_id: int) -> HttpResponseBase:
    """The series page's ``changed`` events: a write to any of its tournaments."""
    user = await request.auser()
    tournament_ids = await run_sync(_series_tournament_ids, series_id, viewer=user)
    return await _event_stream(
        request, user, live.series_stream(series_id, tournament_ids, _after(request))
    )


def _after(request: HttpRequest) -> int:
    """The revision a page was drawn at: ``Last-Event-ID`` when the stream reconnects; 400 for
    one that is not a whole number."""
    after = whole_number(request.headers.get("Last-Event-ID") or request.GET.get("after", "0"))
    if after is None:
        raise BadRequest("Last-Event-ID and after are whole numbers, 0 or more.")
    return after


async def _event_stream(
    request: HttpRequest, viewer: User | AnonymousUser, events: AsyncIterator[str]
) -> HttpResponseBase:
    """The stream, counted against the viewer's ``STREAMS_PER_ADDRESS`` (an anonymous viewer's
    address, a signed-in one's account) while open; beyond it, 429."""
    holder = f"user:{viewer.pk}" if viewer.is_authenticated else streamcaps.address_holder(request)
    try:
        end = await streamcaps.open_streams.hold(
            holder, settings.STREAMS_PER_ADDRESS, "STREAMS_PER_ADDRESS"
        )
    except TooManyStreams as refused:
        return problem_response_json(refused)
    response = streamcaps.counted(
        StreamingHttpResponse(events, content_type="text/event-stream"), end
    )
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # nginx: pass each event on at once
    return response


def _series_shown(series_id: int, *, viewer: User | AnonymousUser) -> Series:
    """A public series, or any for a viewer who may see tournaments that are not public."""
    try:
        return series.series_get(series_id=series_id, staff=has_power(viewer, Power.VIEW))
    except errors.TournamentNotFound:
        raise Http404(gettext("No such public series.")) from None


def _series_tournament_ids(series_id: int, *, viewer: User | AnonymousUser) -> list[int]:
    return list(_series_shown(series_id, viewer=viewer).tournaments.values_list("pk", flat=True))


def _shown(tournament_id: int, *, viewer: User | AnonymousUser) -> Tournament:
    """A public tournament, or any for a viewer who may see tournaments that are not public; read
    first, so its revision is never newer than what the page shows (a write in between only costs
    the page one more refresh)."""
    staff = has_power(viewer, Power.VIEW)
    shown = Tournament.objects.all() if staff else Tournament.objects.filter(public=True)
    tournament = shown.filter(pk=tournament_id).first()
    if tournament is None:
        raise Http404(gettext("No such public tournament."))
    return tournament


def _room(tournament: Tournament) -> dict[str, Any]:
    """What both pages show: the round being played (``current``; none once it is complete or
    the tournament cancelled), the latest round, its clock, the standings, and the server's time
    for the clock's countdown."""
    detail = selectors.tournament_detail(tournament=tournament)
    current = selectors.round_seating(rounds=detail["rounds"], number=None)
    cancelled = tournament.status == Tournament.Status.CANCELLED
    if current and (current["status"] == Round.Status.COMPLETE or cancelled):
        current, latest = None, current
    else:
        latest = current
    clock = current["clock"] if current else None
    return {
        "tournament": tournament,
        "rounds": detail["rounds"],
        "latest": latest,
        "current": current,
        # The round clock once started (running or paused), for the round being played.
        "clock": clock
        if clock and (clock["ends_at"] or clock["paused_remaining"] is not None)
        else None,
        "standings": selectors.standings_table(tournament=tournament).rows,
        "now": timezone.now().isoformat(),
    }
