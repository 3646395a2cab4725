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
        # The retention sweep removes keys by age (they are kept IDEMPOTENCY_KEY_HOURS).
        indexes = [models.Index(fields=["created_at"], name="idempotency_created")]

    def __str__(self) -> str:
        return f"{self.key} ({self.response_status})"


class ApiToken(models.Model):
    """An API token: the account's own (``account``: every scope, and it manages the others) or a
    named one with scopes.

    ``read`` allows reads, ``play`` every write of a player; ``seat`` is a guest's seat link: the
    matches where its user holds a seat and that user's feed, nothing else. Only the SHA-256 of the
    secret is kept (``key_hash``): a database or a backup holds no working credential. The
    account's token is given again by ``POST /auth/token/``, so its secret is derived from a random
    ``nonce`` and the service's ``SECRET_KEY`` (which is not in the database), never stored; an
    account token from before hashing has no nonce and works until it is rotated. A seat link's
    secret is derived the same way, so that the desk can print it again; one printed before that
    (migration 0007) has no nonce and works until its tournament is deleted.
    """

    class Scope(models.TextChoices):
        READ = "read"
        PLAY = "play"
        SEAT = "seat"

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens"
    )
    name = models.CharField(max_length=100)
    scopes = models.JSONField()
    key_hash = models.CharField(max_length=64, unique=True)
    account = models.BooleanField(default=False)
    nonce = models.CharField(max_length=32, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["user", "created_at", "pk"]

    def __str__(self) -> str:
        return f"{self.name} ({', '.join(self.scopes)})"
