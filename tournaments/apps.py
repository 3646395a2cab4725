from typing import Any

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = _("Tournaments")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from django.db.models.signals import m2m_changed, post_delete, post_save

        from games.signals import match_finished
        from tournaments.models import Series

        match_finished.connect(score_tournament_table, dispatch_uid="tournaments.score_table")
        # However a series is edited (the admin, a shell), its pages' open streams must end.
        post_save.connect(series_saved_or_deleted, Series, dispatch_uid="tournaments.series_saved")
        post_delete.connect(
            series_saved_or_deleted, Series, dispatch_uid="tournaments.series_deleted"
        )
        m2m_changed.connect(
            series_tournaments_changed,
            Series.tournaments.through,
            dispatch_uid="tournaments.series_tournaments",
        )


def score_tournament_table(sender: Any, match_id: int, **kwargs: Any) -> None:
    """When a match ends, score it if it is a tournament table (casual matches cost one query)."""
    from switchsite.tasks import publish_after_commit
    from tournaments.models import Table

    if Table.objects.filter(match_id=match_id).exists():
        publish_after_commit("tournaments.tasks.record_table_result", match_id)


def series_saved_or_deleted(sender: Any, instance: Any, **kwargs: Any) -> None:
    from tournaments import live

    live.series_edited([instance.pk])


def series_tournaments_changed(
    sender: Any, instance: Any, action: str, reverse: bool, pk_set: set[int] | None, **kwargs: Any
) -> None:
    """A series' tournaments changed — from the series' side, or (``reverse``) a tournament's:
    then ``pk_set`` names the series, or for a clear they are read before it."""
    from tournaments import live

    if not reverse and action.startswith("post_"):
        live.series_edited([instance.pk])
    elif reverse and action in ("post_add", "post_remove"):
        live.series_edited(pk_set or ())
    elif reverse and action == "pre_clear":
        live.series_edited(list(instance.series.values_list("pk", flat=True)))
