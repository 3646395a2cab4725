"""A table's record: its seats, score lines and every version of its result (read-only)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from tournaments.models import ResultEntry, Table


class ResultEntryInline(admin.TabularInline):
    model = ResultEntry
    extra = 0
    fields = ("entered_at", "entered_by", "result")
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    """A table's record: its seats, score lines and every version of its result (read-only;
    results are entered with the result form of the tournament's page)."""

    list_display = ("__str__", "outcome", "recorded_at")
    list_filter = ("outcome", "round__tournament")
    fields = ("round", "number", "outcome", "recorded_at", "score_lines")
    readonly_fields = fields
    inlines = (ResultEntryInline,)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    @admin.display(description=_("score lines"))
    def score_lines(self, table: Table) -> SafeString:
        lines = table.score_lines.select_related("entry").order_by("deal", "entry__name")
        return format_html(
            "<table><tr><th>{}</th><th>{}</th><th>{}</th><th>{}</th></tr>{}</table>",
            gettext("deal"),
            gettext("player"),
            gettext("points"),
            gettext("won"),
            format_html_join(
                "",
                "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                ((ln.deal, ln.entry.name, ln.points, "✓" if ln.won else "") for ln in lines),
            ),
        )
