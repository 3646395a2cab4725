"""Models of the API plumbing shared by every app."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class IdempotentRequest(models.Model):
    """The stored answer to a write made with an ``Idempotency-Key``, per key and caller."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    key = models.CharField(max_length=200)
    fingerprint = models.CharField(max_length=64)
    response_status = models.PositiveSmallIntegerField(null=True, blank=True)
    response_body = models.JSONField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        # Created by the games app before the shared API plumbing moved here; the table kept its name.
        db_table = "games_idempotentrequest"
        constraints = [
            models.UniqueConstraint(fields=["user", "key"], name="idempotency_unique_key")
        ]

    def __str__(self) -> str:
        return f"{self.key} ({self.response_status})"
