from django.urls import path

from tournaments.api import series_views, views

urlpatterns = [
    path("tournaments/", views.TournamentListView.as_view(), name="tournament-list"),
    path("tournaments/mine/", views.OwnEntriesView.as_view(), name="tournament-mine"),
    path(
        "tournaments/<id:tournament_id>/",
        views.TournamentDetailView.as_view(),
        name="tournament-detail",
    ),
    path(
        "tournaments/<id:tournament_id>/register/",
        views.TournamentRegisterView.as_view(),
        name="tournament-register",
    ),
    path(
        "tournaments/<id:tournament_id>/withdraw/",
        views.TournamentWithdrawView.as_view(),
        name="tournament-withdraw",
    ),
    path(
        "tournaments/<id:tournament_id>/start/",
        views.TournamentStartView.as_view(),
        name="tournament-start",
    ),
    path(
        "tournaments/<id:tournament_id>/next-round/",
        views.TournamentNextRoundView.as_view(),
        name="tournament-next-round",
    ),
    path(
        "tournaments/<id:tournament_id>/checkin/",
        views.TournamentCheckinView.as_view(),
        name="tournament-checkin",
    ),
    path(
        "tournaments/<id:tournament_id>/checkin/self/",
        views.SelfCheckinView.as_view(),
        name="tournament-checkin-self",
    ),
    path(
        "tournaments/<id:tournament_id>/cancel/",
        views.TournamentCancelView.as_view(),
        name="tournament-cancel",
    ),
    path(
        "tournaments/<id:tournament_id>/rounds/<id:round_number>/unpublish/",
        views.RoundUnpublishView.as_view(),
        name="tournament-round-unpublish",
    ),
    path(
        "tournaments/<id:tournament_id>/rounds/<id:round_number>/tables/<id:table_number>/result/",
        views.TableResultView.as_view(),
        name="tournament-table-result",
    ),
    path(
        "tournaments/<id:tournament_id>/rounds/<id:round_number>/tables/<id:table_number>/reports/",
        views.TableReportsView.as_view(),
        name="tournament-table-reports",
    ),
    path(
        "tournaments/<id:tournament_id>/rounds/<id:round_number>/tables/<id:table_number>/reports/"
        "<id:report_id>/confirm/",
        views.ReportConfirmView.as_view(),
        name="tournament-report-confirm",
    ),
    path(
        "tournaments/<id:tournament_id>/rounds/<id:round_number>/tables/<id:table_number>/reports/"
        "<id:report_id>/dispute/",
        views.ReportDisputeView.as_view(),
        name="tournament-report-dispute",
    ),
    path(
        "tournaments/<id:tournament_id>/rounds/<id:round_number>/clock/",
        views.RoundClockView.as_view(),
        name="tournament-round-clock",
    ),
    path(
        "tournaments/<id:tournament_id>/standings/",
        views.TournamentStandingsView.as_view(),
        name="tournament-standings",
    ),
    path("series/", series_views.SeriesListView.as_view(), name="series-list"),
    path("series/<id:series_id>/", series_views.SeriesDetailView.as_view(), name="series-detail"),
    path(
        "series/<id:series_id>/standings/",
        series_views.SeriesStandingsView.as_view(),
        name="series-standings",
    ),
]
