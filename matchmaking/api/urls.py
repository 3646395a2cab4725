from django.urls import path

from matchmaking.api import views

urlpatterns = [
    path("ladders/", views.LadderListView.as_view(), name="ladder-list"),
    path("ladders/<id:ladder_id>/", views.LadderDetailView.as_view(), name="ladder-detail"),
    path("ladders/<id:ladder_id>/join/", views.LadderJoinView.as_view(), name="ladder-join"),
    path("ladders/<id:ladder_id>/leave/", views.LadderLeaveView.as_view(), name="ladder-leave"),
    path(
        "ladders/<id:ladder_id>/standings/",
        views.LadderStandingsView.as_view(),
        name="ladder-standings",
    ),
    path("pool/", views.PoolView.as_view(), name="pool"),
    path("pool/<id:entry_id>/", views.PoolEntryView.as_view(), name="pool-entry"),
]
