"""``manage.py publish_events``: the connection tier's publisher (games.publisher), until stopped."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import connection
from django.utils.translation import gettext

from games.publisher import Publisher


class Command(BaseCommand):
    help = "Publish every committed event to the connection tier (Pushpin), once per audience."

    def handle(self, *args: Any, **options: Any) -> None:
        if connection.vendor != "postgresql":
            raise CommandError(
                gettext("The publisher listens to PostgreSQL's commit notifications.")
            )
        Publisher(settings.TIER_PUBLISH_URLS).run()
