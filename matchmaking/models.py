"""Ladders that seat their online bots every few minutes, and quick play's waiting players.

Models are thin: the seating is :mod:`switchgame.matchmaking`'s, writes are in ``services/``,
reads in ``selectors.py``.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games.models import Match


class Ladder(models.Model):
    """One per ruleset and table size: every ``interval_seconds`` it seats each of its online,
    active bots in a rated match of ``seats`` (``next_round_at`` says when)."""

    ruleset = models.CharField(max_length=40, verbose_name=_("ruleset"))
    game = models.CharField(max_length=10, choices=Match.Game.choices, verbose_name=_("game"))
    seats = models.PositiveSmallIntegerField(verbose_name=_("seats"))
    interval_seconds = models.PositiveIntegerField(verbose_name=_("interval in seconds"))
    turn_seconds = models.PositiveIntegerField(verbose_name=_("turn seconds"))
    # Whoever created it: the creator of its matches.
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("created by"),
    )
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))
    rounds = models.PositiveIntegerField(default=0, verbose_name=_("rounds"))
    next_round_at = models.DateTimeField(verbose_name=_("next round at"))

    class Meta:
        verbose_name = _("ladder")
        verbose_name_plural = _("ladders")
        ordering = ["ruleset", "seats"]
        constraints = [
            models.UniqueConstraint(fields=["ruleset", "seats"], name="ladder_once_per_table"),
        ]
        indexes = [models.Index(fields=["next_round_at"], name="ladder_next_round")]

    def __str__(self) -> str:
        return gettext("%(ruleset)s ladder for %(seats)s") % {
            "ruleset": self.ruleset,
            "seats": self.seats,
        }


class Membership(models.Model):
    """A bot account in a ladder (once: joining again makes it active again)."""

    ladder = models.ForeignKey(
        Ladder, on_delete=models.CASCADE, related_name="members", verbose_name=_("ladder")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="ladder_memberships",
        verbose_name=_("user"),
    )
    # False once it let its clock run out twice in one of the ladder's matches, until it joins
    # again; ``joined_at`` is then the new join (only matches seated since count against it).
    active = models.BooleanField(default=True, verbose_name=_("active"))
    joined_at = models.DateTimeField(verbose_name=_("joined at"))
    # The latest match the ladder seated it in (kept here: standings read it, not the seats).
    last_match = models.ForeignKey(
        Match,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("last match"),
    )

    class Meta:
        verbose_name = _("ladder membership")
        verbose_name_plural = _("ladder memberships")
        constraints = [
            models.UniqueConstraint(fields=["ladder", "user"], name="membership_once"),
        ]

    def __str__(self) -> str:
        return gettext("%(user)s in %(ladder)s") % {"user": self.user, "ladder": self.ladder}


class LadderTable(models.Model):
    """A table a ladder's round seated: who sits where, written before its match exists, so
    that a worker that dies between the two leaves work the sweep finishes (``match`` null)."""

    ladder = models.ForeignKey(
        Ladder, on_delete=models.CASCADE, related_name="tables", verbose_name=_("ladder")
    )
    round = models.PositiveIntegerField(verbose_name=_("round"))
    number = models.PositiveSmallIntegerField(verbose_name=_("number"))
    # In seat order: {"user": id} for a member, {"bot": strategy} for a gatekeeper.
    seating = models.JSONField(verbose_name=_("seating"))
    match = models.OneToOneField(
        Match,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="ladder_table",
        verbose_name=_("match"),
    )
    seated_at = models.DateTimeField(verbose_name=_("seated at"))

    class Meta:
        verbose_name = _("ladder table")
        verbose_name_plural = _("ladder tables")
        ordering = ["ladder", "round", "number"]
        constraints = [
            models.UniqueConstraint(fields=["ladder", "round", "number"], name="ladder_table_once"),
        ]
        indexes = [
            models.Index(fields=["ladder", "seated_at"], name="ladder_table_seated"),
            models.Index(
                fields=["seated_at"],
                condition=models.Q(match__isnull=True),
                name="ladder_table_unstarted",
            ),
        ]

    def __str__(self) -> str:
        return gettext("table %(number)s of round %(round)s of %(ladder)s") % {
            "number": self.number,
            "round": self.round,
            "ladder": self.ladder,
        }


class PoolEntry(models.Model):
    """A player waiting in quick play for a match of a ruleset and size (``match`` once found)."""

    class Status(models.TextChoices):
        WAITING = "waiting", _("Waiting")
        MATCHED = "matched", _("Matched")
        LEFT = "left", _("Left")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="pool_entries",
        verbose_name=_("user"),
    )
    ruleset = models.CharField(max_length=40, verbose_name=_("ruleset"))
    seats = models.PositiveSmallIntegerField(verbose_name=_("seats"))
    rated = models.BooleanField(default=False, verbose_name=_("rated"))
    bots_ok = models.BooleanField(default=False, verbose_name=_("bots ok"))
    wait_seconds = models.PositiveIntegerField(verbose_name=_("wait seconds"))
    status = models.CharField(
        max_length=10, choices=Status.choices, default=Status.WAITING, verbose_name=_("status")
    )
    match = models.ForeignKey(
        Match,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("match"),
    )
    created_at = models.DateTimeField(verbose_name=_("created at"))
    ended_at = models.DateTimeField(null=True, blank=True, verbose_name=_("ended at"))

    class Meta:
        verbose_name = _("quick play entry")
        verbose_name_plural = _("quick play entries")
        ordering = ["created_at", "pk"]
        constraints = [
            # One entry waiting per player: a second one is refused (409 already_waiting).
            models.UniqueConstraint(
                fields=["user"],
                condition=models.Q(status="waiting"),
                name="pool_entry_one_waiting",
            ),
        ]
        indexes = [
            models.Index(
                fields=["created_at"],
                condition=models.Q(status="waiting"),
                name="pool_entry_waiting",
            ),
            models.Index(
                fields=["ended_at"],
                condition=models.Q(ended_at__isnull=False),
                name="pool_entry_ended",
            ),
        ]

    def __str__(self) -> str:
        return gettext("%(user)s waiting for %(ruleset)s (%(status)s)") % {
            "user": self.user,
            "ruleset": self.ruleset,
            "status": self.get_status_display().lower(),
        }
