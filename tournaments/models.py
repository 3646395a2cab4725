"""Persistence for club tournaments: the event, its entries, rounds, tables, byes and score lines.

Models are thin (constraints in ``Meta``, no logic in ``save()``): the rules live in the pure
modules ``seating.py``, ``scoring.py`` and ``ratings.py``, writes in ``services.py``, reads in
``selectors.py``. Standings are not stored: they are computed from the score lines, so a corrected
line changes them at once; what is stored is only what cannot be recomputed (who sat where, the
seeds of the draws) or what is expensive and history-dependent (ratings, via ``RatedGame``).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q


class Tournament(models.Model):
    class Scoring(models.TextChoices):
        FRENCH = "french"
        ABBOTT = "abbott"
        PLACEMENT = "placement"

    class Seating(models.TextChoices):
        RANDOM = "random"
        BALANCED = "balanced"
        SWISS = "swiss"

    class ByePolicy(models.TextChoices):
        ZERO = "zero"
        AVERAGE = "average"
        MAXIMUM = "maximum"

    class Status(models.TextChoices):
        REGISTERING = "registering"
        RUNNING = "running"
        ROUND_COMPLETE = "round_complete"
        FINISHED = "finished"

    name = models.CharField(max_length=120)
    ruleset = models.CharField(max_length=40)
    options = models.JSONField(default=dict, blank=True)
    scoring = models.CharField(max_length=10, choices=Scoring.choices)
    rounds = models.PositiveSmallIntegerField()
    table_size = models.PositiveSmallIntegerField()
    deals_per_round = models.PositiveSmallIntegerField(null=True, blank=True)
    target = models.PositiveIntegerField(null=True, blank=True)
    seating = models.CharField(max_length=10, choices=Seating.choices, default=Seating.BALANCED)
    bye_policy = models.CharField(max_length=10, choices=ByePolicy.choices, default=ByePolicy.ZERO)
    status = models.CharField(max_length=15, choices=Status.choices, default=Status.REGISTERING)
    # Decides the standings' lots; drawn once, so lots never change during the event.
    seed = models.BigIntegerField()
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("-created_at", "-pk")
        constraints = (
            models.CheckConstraint(
                condition=Q(rounds__gte=1),
                name="tournament_one_or_more_rounds",
                violation_error_message="A tournament has at least one round.",
            ),
            models.CheckConstraint(
                condition=Q(table_size__gte=2),
                name="tournament_tables_of_two_or_more",
                violation_error_message="Tables seat two or more.",
            ),
            models.CheckConstraint(
                condition=Q(deals_per_round__isnull=True) | Q(target__isnull=True),
                name="tournament_deals_or_target",
                violation_error_message="Give deals_per_round or target, not both.",
            ),
        )

    def __str__(self) -> str:
        return self.name


class Entry(models.Model):
    """A player, or a bot entrant with a strategy, in one tournament.

    ``joined_round`` is the first round the entry may be seated in (a late entry joins the round
    after the one being played); ``withdrawn_after`` the number of rounds seated before it left.
    Bot entrants carry their own rating (humans' live on their game profile).
    """

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="tournament_entries",
    )
    bot_strategy = models.CharField(max_length=20, blank=True)
    name = models.CharField(max_length=150)
    joined_round = models.PositiveSmallIntegerField(default=1)
    withdrawn_after = models.PositiveSmallIntegerField(null=True, blank=True)
    rating_mu = models.FloatField(null=True, blank=True)
    rating_sigma = models.FloatField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("tournament", "pk")
        verbose_name_plural = "entries"
        constraints = (
            models.UniqueConstraint(
                fields=["tournament", "player"],
                condition=Q(player__isnull=False),
                name="entry_one_per_player",
            ),
            models.UniqueConstraint(fields=["tournament", "name"], name="entry_unique_name"),
            models.CheckConstraint(
                condition=(Q(player__isnull=False) & Q(bot_strategy=""))
                | (Q(player__isnull=True) & ~Q(bot_strategy="")),
                name="entry_player_or_bot",
            ),
        )

    def __str__(self) -> str:
        return self.name

    @property
    def is_active(self) -> bool:
        return self.withdrawn_after is None


class Round(models.Model):
    """One round. A ``draft`` may be edited by the organiser; publishing it starts the tables."""

    class Status(models.TextChoices):
        DRAFT = "draft"
        PUBLISHED = "published"
        COMPLETE = "complete"

    # The reverse accessor stays ``round_set``: ``rounds`` is the planned number of rounds.
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE)
    number = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.DRAFT)
    # The draw's seed: with the entries and the earlier rounds it reproduces the seating.
    seed = models.BigIntegerField()
    repeats = models.PositiveIntegerField(default=0)
    repeat_lower_bound = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    published_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("tournament", "number")
        constraints = (
            models.UniqueConstraint(fields=["tournament", "number"], name="round_unique_number"),
            models.CheckConstraint(condition=Q(number__gte=1), name="round_number_from_one"),
        )

    def __str__(self) -> str:
        return f"{self.tournament} · round {self.number}"


class Table(models.Model):
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()
    match = models.OneToOneField(
        "games.Match",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="tournament_table",
    )
    # Set when the finished match's score lines are written; the round is complete when all are.
    recorded_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("round", "number")
        constraints = (
            models.UniqueConstraint(fields=["round", "number"], name="table_unique_number"),
        )

    def __str__(self) -> str:
        return f"{self.round} · table {self.number}"


class TableSeat(models.Model):
    """Who sits where. ``round`` repeats the table's round so that one seat per round is a constraint."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="seats")
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    seat = models.PositiveSmallIntegerField()
    entry = models.ForeignKey(Entry, on_delete=models.PROTECT, related_name="seats")

    class Meta:
        ordering = ("table", "seat")
        constraints = (
            models.UniqueConstraint(fields=["table", "seat"], name="table_seat_unique_seat"),
            models.UniqueConstraint(fields=["round", "entry"], name="table_seat_once_per_round"),
        )

    def __str__(self) -> str:
        return f"{self.entry} at seat {self.seat}"


class Bye(models.Model):
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="byes")
    entry = models.ForeignKey(Entry, on_delete=models.PROTECT, related_name="byes")

    class Meta:
        ordering = ("round", "entry")
        constraints = (
            models.UniqueConstraint(fields=["round", "entry"], name="bye_once_per_round"),
        )

    def __str__(self) -> str:
        return f"bye for {self.entry} in round {self.round.number}"


class ScoreLine(models.Model):
    """One entry's points in one deal (shedding) or hand (Abbott) at one table.

    Written from the finished match; a rerun overwrites the same line. ``corrected`` marks a line
    the organiser edited: reruns leave it alone.
    """

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="score_lines")
    entry = models.ForeignKey(Entry, on_delete=models.PROTECT, related_name="score_lines")
    deal = models.PositiveSmallIntegerField()
    points = models.IntegerField()
    won = models.BooleanField(default=False)
    corrected = models.BooleanField(default=False)

    class Meta:
        ordering = ("table", "deal", "entry")
        constraints = (
            models.UniqueConstraint(fields=["table", "entry", "deal"], name="score_line_unique"),
            models.CheckConstraint(condition=Q(deal__gte=1), name="score_line_deal_from_one"),
        )

    def __str__(self) -> str:
        return f"{self.entry}: {self.points} in deal {self.deal} of {self.table}"


class RatedGame(models.Model):
    """One rating update: a whole match (``hand`` 0), or for Abbott one hand, whose alliance makes
    the teams. Unique per match and hand, so a rating is updated once; the rows are replayed in
    date order when a correction changes a result.

    ``teams`` lists entry ids per team; ``ranks`` each team's place (1 best, ties share).
    """

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="rated_games")
    match = models.ForeignKey("games.Match", on_delete=models.PROTECT, related_name="+")
    hand = models.PositiveSmallIntegerField(default=0)
    teams = models.JSONField()
    ranks = models.JSONField()
    played_at = models.DateTimeField()

    class Meta:
        ordering = ("played_at", "match", "hand")
        constraints = (models.UniqueConstraint(fields=["match", "hand"], name="rated_game_once"),)

    def __str__(self) -> str:
        return f"rating update for match {self.match_id} hand {self.hand}"
