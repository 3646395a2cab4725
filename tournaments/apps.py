from typing import Any

from django.apps import AppConfig
from django.db import transaction


class TournamentsConfig(AppConfig):
    name = "tournaments"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from games.signals import match_finished

        match_finished.connect(score_tournament_table, dispatch_uid="tournaments.score_table")


def score_tournament_table(sender: Any, match_id: int, **kwargs: Any) -> None:
    """When a match ends, score it if it is a tournament table (casual matches cost one query)."""
    from tournaments import tasks
    from tournaments.models import Table

    if Table.objects.filter(match_id=match_id).exists():
        transaction.on_commit(lambda: tasks.record_table_result.delay(match_id))
