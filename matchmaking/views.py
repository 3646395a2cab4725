"""The ladders' public pages: no login, readable on a phone — every ladder, and one ladder's
standings (bot accounts by name, server bots in words), in the visitor's language."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import pgettext_lazy

from matchmaking import errors, selectors

# Server bots in words, as the tables show them (never "bot:heuristic").
STRATEGY_WORDS = {
    "heuristic": pgettext_lazy("server bot", "Heuristic bot"),
    "montecarlo": pgettext_lazy("server bot", "Monte Carlo bot"),
    "search": pgettext_lazy("server bot", "Search bot"),
}


def public_index(request: HttpRequest) -> HttpResponse:
    ladders = list(selectors.ladder_list())
    for ladder in ladders:
        ladder.interval_minutes = round(ladder.interval_seconds / 60)  # type: ignore[attr-defined]
    return render(request, "matchmaking/public/index.html", {"ladders": ladders})


def public_ladder(request: HttpRequest, ladder_id: int) -> HttpResponse:
    try:
        ladder = selectors.ladder_get(ladder_id=ladder_id)
    except errors.LadderNotFound as missing:
        raise Http404(missing.detail) from None
    standings = [
        {**row, "name": _shown(row["player"])} for row in selectors.ladder_standings(ladder=ladder)
    ]
    return render(
        request,
        "matchmaking/public/ladder.html",
        {
            "ladder": ladder,
            "interval_minutes": round(ladder.interval_seconds / 60),
            "standings": standings,
        },
    )


def _shown(player: str) -> str:
    if not player.startswith("bot:"):
        return player
    strategy = player.removeprefix("bot:")
    return str(STRATEGY_WORDS.get(strategy, strategy))
