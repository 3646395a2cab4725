from django.urls import path

from tournaments.api import views

urlpatterns = [
    path("tournaments/", views.TournamentListView.as_view(), name="tournament-list"),
    path(
        "tournaments/<int:tournament_id>/",
        views.TournamentDetailView.as_view(),
        name="tournament-detail",
    ),
    path(
        "tournaments/<int:tournament_id>/register/",
        views.TournamentRegisterView.as_view(),
        name="tournament-register",
    ),
    path(
        "tournaments/<int:tournament_id>/withdraw/",
        views.TournamentWithdrawView.as_view(),
        name="tournament-withdraw",
    ),
    path(
        "tournaments/<int:tournament_id>/start/",
        views.TournamentStartView.as_view(),
        name="tournament-start",
    ),
    path(
        "tournaments/<int:tournament_id>/next-round/",
        views.TournamentNextRoundView.as_view(),
        name="tournament-next-round",
    ),
    path(
        "tournaments/<int:tournament_id>/rounds/<int:round_number>/tables/<int:table_number>/result/",
        views.TableResultView.as_view(),
        name="tournament-table-result",
    ),
    path(
        "tournaments/<int:tournament_id>/standings/",
        views.TournamentStandingsView.as_view(),
        name="tournament-standings",
    ),
]
