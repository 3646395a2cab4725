"""Public pages of public tournaments: no login, readable on a phone, clean on paper.

They show the current round's tables (by table, and alphabetically by name so players find their
seat), the standings and the finished rounds' results — names and points only, never a card.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from tournaments import selectors
from tournaments.models import Round, Tournament


def public_index(request: HttpRequest) -> HttpResponse:
    """Every public tournament, newest first."""
    return render(
        request,
        "tournaments/public/index.html",
        {"tournaments": selectors.tournament_list(public_only=True)},
    )


def public_detail(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = get_object_or_404(Tournament, pk=tournament_id, public=True)
    detail = selectors.tournament_detail(tournament=tournament)
    current = selectors.round_seating(rounds=detail["rounds"], number=None)
    finished = [r for r in reversed(detail["rounds"]) if r["status"] == Round.Status.COMPLETE]
    return render(
        request,
        "tournaments/public/detail.html",
        {
            "tournament": tournament,
            "current": current if current and current["status"] != Round.Status.COMPLETE else None,
            "finished": finished,
            "standings": selectors.standings_table(tournament=tournament).rows,
        },
    )
