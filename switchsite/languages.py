"""The languages the service speaks (English, French): the browser's catalogue, and a page drawn in
a language of its own (a tournament's), whatever the request's.

The request's language is Django's (``switchsite.middleware.Locale``): the switcher's cookie, else
``Accept-Language``, else ``LANGUAGE_CODE``.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase
from django.utils import translation
from django.views.i18n import JavaScriptCatalog

from switchgame.words import quoted

_catalog = JavaScriptCatalog.as_view()


def javascript_catalog(request: HttpRequest, language: str) -> HttpResponseBase:
    """``gettext()``, ``interpolate()`` and the formats for the browser, in ``language``: its own
    URL for each language, so that a page in a language of its own loads the matching words."""
    if language not in dict(settings.LANGUAGES):
        raise Http404(f"No catalogue for {quoted(language)}.")
    with translation.override(language):
        response = _catalog(request)
    response["Content-Language"] = language
    return response


def chosen_language(request: HttpRequest) -> str | None:
    """The language the visitor chose with the switcher (its cookie), if any."""
    language = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME)
    return language if language in dict(settings.LANGUAGES) else None


def spoken(language: str, draw: Callable[[], HttpResponse]) -> HttpResponse:
    """The page ``draw`` makes, drawn in ``language``, its ``Content-Language`` saying so."""
    with translation.override(language):
        response = draw()
    response["Content-Language"] = language
    return response
