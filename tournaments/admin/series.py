"""Series in the admin: monthly nights picked from the tournaments, their standings page linked."""

from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest
from django.urls import reverse

from tournaments.models import Series


@admin.register(Series)
class SeriesAdmin(admin.ModelAdmin):
    list_display = ("name", "public", "created_at")
    fields = ("name", "tournaments", "public")
    filter_horizontal = ("tournaments",)

    def save_model(self, request: HttpRequest, obj: Series, form: object, change: bool) -> None:
        if not change:
            obj.created_by = request.user  # type: ignore[assignment]  # the admin is staff only
        super().save_model(request, obj, form, change)

    def get_view_on_site_url(self, obj: Series | None = None) -> str | None:
        """The standings page (staff see it even when the series is not public)."""
        return reverse("series-public", args=[obj.pk]) if obj is not None else None
