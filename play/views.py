"""The web client at ``/play/``: each page is the same small HTML shell and one JavaScript module.

The pages hold no data and check no one: the modules in ``static/play/`` do everything through the
public API (``/api/v1/``) with the player's token, or a seat link's secret, in the Authorization
header. So these views only pick the module; the site's Content-Security-Policy (the settings)
keeps every request of the page on this server (no CDN, no other origin), and the pages need no
more: no inline script or style.

The referrer policy sends no address to another site (``same-origin``) and, from a seat link's
page, none at all but the site's own origin (``strict-origin``: the secret is in the address, and
a proxy's access log may keep Referer headers). Either lets the browser send the page's real
``Origin`` with the language switcher's form: under ``no-referrer`` Chromium sends ``Origin: null``,
which Django's CSRF check refuses with a 403.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _


def _page(
    request: HttpRequest,
    *,
    module: str,
    root: str,
    title: str,
    secret_address: bool = False,
    **data: object,
) -> HttpResponse:
    response = render(
        request,
        "play/page.html",
        {
            "module": f"play/{module}.js",
            "root": root,
            "title": title,
            "data": data,
            # The address is not written into the page (the language switcher takes it from the
            # browser's location).
            "secret_address": secret_address,
        },
    )
    response["Referrer-Policy"] = "strict-origin" if secret_address else "same-origin"
    return response


def lobby(request: HttpRequest) -> HttpResponse:
    return _page(request, module="lobby", root="lobby", title="Switch")


def table(request: HttpRequest, match_id: int) -> HttpResponse:
    return _page(
        request,
        module="match",
        root="table",
        title=_("Match %(number)s") % {"number": match_id},
        match=match_id,
    )


def replay(request: HttpRequest, match_id: int) -> HttpResponse:
    return _page(
        request,
        module="replay",
        root="replay",
        title=_("Replay of match %(number)s") % {"number": match_id},
        match=match_id,
    )


def player(request: HttpRequest, username: str) -> HttpResponse:
    return _page(
        request,
        module="player",
        root="player",
        title=_("Player %(name)s") % {"name": username},
        player=username,
    )


def ladders(request: HttpRequest) -> HttpResponse:
    return _page(request, module="ladders", root="ladders", title=_("Ladders"))


def seat(request: HttpRequest, secret: str) -> HttpResponse:
    response = _page(
        request, module="seat", root="seat", title=_("Your table"), secret_address=True
    )
    response["Cache-Control"] = "no-store"
    return response


def my_table(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """A member's table in a tournament played with real cards: check in, report, confirm."""
    return _page(
        request, module="mytable", root="mytable", title=_("Your table"), tournament=tournament_id
    )
