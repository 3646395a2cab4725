"""Root URLs: the health check, the admin, the versioned API with its schema and docs, the
tournaments' public pages, the web client, and the language switcher and browser catalogue."""

from csp.constants import SELF, UNSAFE_INLINE
from csp.decorators import csp_replace
from django.contrib import admin
from django.urls import include, path
from django.views.i18n import set_language
from drf_spectacular.views import (
    SpectacularAPIView,
    SpectacularRedocView,
    SpectacularSwaggerSplitView,
)

from switchsite.health import healthz
from switchsite.languages import javascript_catalog

# The Redoc page's policy, beyond the site's (settings): Redoc writes its styles into the page as
# its bundle loads, before any option could hand them the request's nonce, so on this page styles
# may be inline (scripts still may not); and it searches in a worker it makes from a blob. Its
# badge's logo, from Redocly's site, stays refused: the docs send nothing elsewhere.
REDOC_POLICY = {"style-src": [SELF, UNSAFE_INLINE], "worker-src": [SELF, "blob:"]}

# The admin's "View site" leads to the public tournament pages (the service has no home page).
admin.site.site_url = "/tournaments/"

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("api/v1/", include("games.api.urls")),
    path("api/v1/", include("tournaments.api.urls")),
    path("api/v1/", include("matchmaking.api.urls")),
    path("api/v1/schema/", SpectacularAPIView.as_view(), name="schema"),
    path(
        "api/v1/docs/",
        # Its script from its own address (?script), not inline: the Content-Security-Policy.
        SpectacularSwaggerSplitView.as_view(url_name="schema", template_name="api/swagger.html"),
        name="docs",
    ),
    path(
        "api/v1/redoc/",
        # Its own template: drf-spectacular's links Google Fonts, and the docs work offline.
        csp_replace(REDOC_POLICY)(
            SpectacularRedocView.as_view(url_name="schema", template_name="api/redoc.html")
        ),
        name="redoc",
    ),
    path("tournaments/", include("tournaments.urls")),
    path("ladders/", include("matchmaking.urls")),
    path("play/", include("play.urls")),
    # The switcher's form posts here; the choice is kept in the language cookie.
    path("i18n/setlang/", set_language, name="set_language"),
    # The browser's catalogue (gettext(), interpolate(), the formats), served by the service
    # itself: no CDN. A page loads the one of the language it is drawn in.
    path("i18n/<str:language>/catalog.js", javascript_catalog, name="javascript-catalog"),
]

handler400 = "switchsite.errors.bad_request"
handler403 = "switchsite.errors.permission_denied"
handler404 = "switchsite.errors.not_found"
handler500 = "switchsite.errors.server_error"
