"""The web client's pages: mounted at ``/play/`` by the site's root URLs."""

from django.urls import path

from play import views

urlpatterns = [
    path("", views.lobby, name="play-lobby"),
    path("matches/<id:match_id>/", views.table, name="play-table"),
    path("matches/<id:match_id>/replay/", views.replay, name="play-replay"),
    path("players/<str:username>/", views.player, name="play-player"),
    path("ladders/", views.ladders, name="play-ladders"),
    path("seat/<str:secret>/", views.seat, name="play-seat"),
    path("tournaments/<id:tournament_id>/", views.my_table, name="play-my-table"),
]
