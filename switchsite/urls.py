"""Root URLs: the health check, the admin, the versioned API with its schema and docs, the
tournaments' public pages, the web client, and the language switcher and browser catalogue."""

from django.contrib import admin
from django.urls import include, path
from django.views.i18n import set_language
from drf_spectacular.views import (
    SpectacularAPIView,
    SpectacularRedocView,
    SpectacularSwaggerView,
)

from switchsite.health import healthz
from switchsite.languages import javascript_catalog

# The admin's "View site" leads to the public tournament pages (the service has no home page).
admin.site.site_url = "/tournaments/"

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("api/v1/", include("games.api.urls")),
    path("api/v1/", include("tournaments.api.urls")),
    path("api/v1/", include("matchmaking.api.urls")),
    path("api/v1/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/v1/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="docs"),
    path(
        "api/v1/redoc/",
        # Its own template: drf-spectacular's links Google Fonts, and the docs work offline.
        SpectacularRedocView.as_view(url_name="schema", template_name="api/redoc.html"),
        name="redoc",
    ),
    path("tournaments/", include("tournaments.urls")),
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
