from django.urls import path

from games.api import records, tokens, views

urlpatterns = [
    path("players/", views.PlayerRegisterView.as_view(), name="player-register"),
    path("players/me/", views.PlayerMeView.as_view(), name="player-me"),
    path("players/me/events/", views.FeedEventsView.as_view(), name="player-feed"),
    path("players/me/stream/", views.FeedStreamView.as_view(), name="player-feed-stream"),
    path("players/online/", views.PlayersOnlineView.as_view(), name="players-online"),
    path("players/<str:username>/", views.PlayerPageView.as_view(), name="player-page"),
    path(
        "players/<str:username>/matches/",
        views.PlayerMatchesView.as_view(),
        name="player-matches",
    ),
    path(
        "players/<str:username>/matches/export/",
        records.PlayerExportView.as_view(),
        name="player-export",
    ),
    path("leaderboard/", views.LeaderboardView.as_view(), name="leaderboard"),
    path("auth/token/", views.TokenView.as_view(), name="auth-token"),
    path("auth/tokens/", tokens.TokenListView.as_view(), name="auth-tokens"),
    path("auth/tokens/<id:token_id>/", tokens.TokenDetailView.as_view(), name="auth-token-detail"),
    path("rulesets/", views.RulesetListView.as_view(), name="ruleset-list"),
    path("matches/", views.MatchListView.as_view(), name="match-list"),
    path("matches/<id:match_id>/", views.MatchDetailView.as_view(), name="match-detail"),
    path("matches/<id:match_id>/record/", records.MatchRecordView.as_view(), name="match-record"),
    path("matches/<id:match_id>/join/", views.MatchJoinView.as_view(), name="match-join"),
    path("matches/<id:match_id>/start/", views.MatchStartView.as_view(), name="match-start"),
    path("matches/<id:match_id>/moves/", views.MatchMovesView.as_view(), name="match-moves"),
    path("matches/<id:match_id>/events/", views.MatchEventsView.as_view(), name="match-events"),
    path("matches/<id:match_id>/stream/", views.MatchStreamView.as_view(), name="match-stream"),
    path("matches/<id:match_id>/resign/", views.MatchResignView.as_view(), name="match-resign"),
    path("lobby/stream/", views.LobbyStreamView.as_view(), name="lobby-stream"),
    path("challenges/", views.ChallengeListView.as_view(), name="challenge-list"),
    path(
        "challenges/<id:challenge_id>/",
        views.ChallengeDetailView.as_view(),
        name="challenge-detail",
    ),
    path(
        "challenges/<id:challenge_id>/accept/",
        views.ChallengeAcceptView.as_view(),
        name="challenge-accept",
    ),
    path(
        "challenges/<id:challenge_id>/decline/",
        views.ChallengeDeclineView.as_view(),
        name="challenge-decline",
    ),
    path(
        "challenges/<id:challenge_id>/cancel/",
        views.ChallengeCancelView.as_view(),
        name="challenge-cancel",
    ),
]
