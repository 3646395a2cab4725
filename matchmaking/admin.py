"""The admin: ladders, their members and quick play's entries, for staff to look at. A ladder is
created through the API (which checks its ruleset and table size); here its interval and turn
clock may be changed, and a member made inactive or active again."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from matchmaking import services
from matchmaking.models import Ladder, Membership, PoolEntry


@admin.register(Ladder)
class LadderAdmin(admin.ModelAdmin):
    list_display = ("__str__", "interval_seconds", "turn_seconds", "rounds", "next_round_at")
    fields = (
        "ruleset",
        "game",
        "seats",
        "interval_seconds",
        "turn_seconds",
        "rounds",
        "next_round_at",
        "created_by",
        "created_at",
    )
    readonly_fields = (
        "ruleset",
        "game",
        "seats",
        "rounds",
        "next_round_at",
        "created_by",
        "created_at",
    )

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ("user", "ladder", "active", "joined_at", "last_match")
    list_filter = ("ladder", "active")
    search_fields = ("user__username",)
    fields = ("ladder", "user", "active", "joined_at", "last_match")
    readonly_fields = ("ladder", "user", "joined_at", "last_match")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def save_model(self, request: HttpRequest, obj: Membership, form: Any, change: bool) -> None:
        """Made active again as by joining again: only matches seated from now on count."""
        if obj.active and "active" in form.changed_data:
            services.ladder_join(ladder_id=obj.ladder_id, user=obj.user)
            return
        super().save_model(request, obj, form, change)


@admin.register(PoolEntry)
class PoolEntryAdmin(admin.ModelAdmin):
    list_display = ("user", "ruleset", "seats", "rated", "bots_ok", "status", "created_at", "match")
    list_filter = ("status", "ruleset")
    search_fields = ("user__username",)
    readonly_fields = [field.name for field in PoolEntry._meta.fields]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False
