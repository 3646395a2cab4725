"""The public pages (HTML, no login): mounted at ``/tournaments/`` by the site's root URLs."""

from django.urls import path

from tournaments import views

urlpatterns = [
    path("", views.public_index, name="tournament-public-index"),
    path("series/<id:series_id>/", views.series_page, name="series-public"),
    path("series/<id:series_id>/live/", views.series_live_events, name="series-live"),
    path("<id:tournament_id>/", views.public_detail, name="tournament-public"),
    path("<id:tournament_id>/screen/", views.screen, name="tournament-screen"),
    path("<id:tournament_id>/live/", views.live_events, name="tournament-live"),
]
