from typing import Any

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = _("Tournaments")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from games.signals import match_finished

        match_finished.connect(score_tournament_table, dispatch_uid="tournaments.score_table")


def score_tournament_table(sender: Any, match_id: int, **kwargs: Any) -> None:
    """When a match ends, score it if it is a tournament table (casual matches cost one query)."""
    from switchsite.tasks import publish_after_commit
    from tournaments.models import Table

    if Table.objects.filter(match_id=match_id).exists():
        publish_after_commit("tournaments.tasks.record_table_result", match_id)
