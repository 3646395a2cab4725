"""The public pages (HTML, no login): mounted at ``/ladders/`` by the site's root URLs."""

from django.urls import path

from matchmaking import views

urlpatterns = [
    path("", views.public_index, name="ladder-public-index"),
    path("<id:ladder_id>/", views.public_ladder, name="ladder-public"),
]
