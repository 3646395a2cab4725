"""Persistence for club tournaments: the event, its entries, rounds, tables, byes and score lines.

Models are thin (constraints in ``Meta``, no logic in ``save()``): the rules live in the pure
core (``switchgame/tournament/``), writes in ``services/``, reads in ``selectors.py``. Standings are not stored: they are computed from the score lines, so a corrected
line changes them at once; what is stored is only what cannot be recomputed (who sat where, the
seeds of the draws). Ratings are the games app's (``games.models.Rating``): a table's results are
rated there, each entry as its :attr:`Entry.rating_holder`.
"""

from __future__ import annotations

from enum import StrEnum

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.db.models.functions import Lower

from switchgame import ratings
from switchgame.tournament.meetings import RepeatVerdict
from switchgame.tournament.scoring import ByePolicy, Ranking, Scoring
from switchgame.tournament.seating import SeatingMode


def _choices(values: type[StrEnum]) -> list[tuple[str, str]]:
    """Model choices from an enum of the pure modules, which own the concept."""
    return [(value.value, value.value.replace("_", " ").capitalize()) for value in values]


def service_language() -> str:
    """The service's own language (``LANGUAGE_CODE``): a new tournament's, unless told."""
    return settings.LANGUAGE_CODE


class Tournament(models.Model):
    class Play(models.TextChoices):
        """``online``: every table is a server match. ``offline``: real cards; the desk enters
        each table's result."""

        ONLINE = "online"
        OFFLINE = "offline"

    class Status(models.TextChoices):
        REGISTERING = "registering"
        RUNNING = "running"
        ROUND_COMPLETE = "round_complete"
        FINISHED = "finished"
        CANCELLED = "cancelled"

    name = models.CharField(max_length=120)
    ruleset = models.CharField(max_length=40)
    options = models.JSONField(default=dict, blank=True)
    scoring = models.CharField(max_length=10, choices=_choices(Scoring))
    planned_rounds = models.PositiveSmallIntegerField()
    table_size = models.PositiveSmallIntegerField()
    deals_per_round = models.PositiveSmallIntegerField(null=True, blank=True)
    target = models.PositiveIntegerField(null=True, blank=True)
    seating = models.CharField(
        max_length=10, choices=_choices(SeatingMode), default=SeatingMode.BALANCED
    )
    bye_policy = models.CharField(
        max_length=10, choices=_choices(ByePolicy), default=ByePolicy.ZERO
    )
    play = models.CharField(max_length=10, choices=Play.choices, default=Play.ONLINE)
    # Online only: the bot strategy that fills the seats the numbers leave empty (blank: none).
    fill_with_bots = models.CharField(max_length=20, blank=True)
    ranking = models.CharField(max_length=10, choices=_choices(Ranking), default=Ranking.TOTAL)
    # A public tournament has pages anyone may read (tables, standings), without logging in.
    public = models.BooleanField(default=False)
    # The language of its public pages, projector screen, seat cards and printed sheets, whatever
    # a visitor's browser asks for (docs/operations.md, "Languages").
    language = models.CharField(max_length=5, choices=settings.LANGUAGES, default=service_language)
    status = models.CharField(max_length=15, choices=Status.choices, default=Status.REGISTERING)
    # Decides the standings' lots; drawn once, so lots never change during the event.
    seed = models.BigIntegerField()
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    # Counts the writes that changed what the pages show: the live pages' cursor (tournaments.live).
    revision = models.PositiveBigIntegerField(default=0)

    class Meta:
        ordering = ("-created_at", "-pk")
        # The director's powers besides Django's own add/change/delete/view (tournaments.powers).
        permissions = (
            ("register_entries", "Can register, check in and withdraw others' entries"),
            ("seat_rounds", "Can seat, publish and withdraw rounds"),
            ("enter_results", "Can enter and correct table results"),
            ("run_clock", "Can run the round clock"),
            ("cancel_tournament", "Can cancel a tournament"),
            ("print_seat_links", "Can see and print the guests' seat links"),
        )
        constraints = (
            models.CheckConstraint(
                condition=Q(planned_rounds__gte=1),
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
    """A player (a user), a guest (a display name only, no account) or a bot entrant with a
    strategy, in one tournament. Everything shown — tables, results, standings — uses ``name``,
    unique in the tournament whatever its letter case.

    ``joined_round`` is the first round the entry may be seated in (a late entry joins the round
    after the one being played); ``withdrawn_after`` the number of rounds seated before it left.
    A player's rating is theirs in every game; a guest or a bot entrant has one of its own.
    """

    class Kind(models.TextChoices):
        PLAYER = "player"
        GUEST = "guest"
        BOT = "bot"

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
    # A guest of an online tournament holds its seats through a user of its own, with no password,
    # reached only by the entry's seat link (tournaments.services.seat_links).
    guest_user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="guest_entry",
    )
    # Checked in at the desk: only present entries are seated.
    present = models.BooleanField(default=True)
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
            models.UniqueConstraint(
                "tournament",
                Lower("name"),
                name="entry_unique_name",
                violation_error_message="Another entry of this tournament has this name.",
            ),
            models.CheckConstraint(
                condition=Q(player__isnull=True) | Q(bot_strategy=""),
                name="entry_player_guest_or_bot",
            ),
        )

    def __str__(self) -> str:
        return self.name

    @property
    def is_active(self) -> bool:
        return self.withdrawn_after is None

    @property
    def rating_holder(self) -> str:
        """Whose rating this entry plays for: the player's own, else one of the entry's."""
        return ratings.user_holder(self.player_id) if self.player_id else f"entry:{self.pk}"

    @property
    def kind(self) -> Entry.Kind:
        if self.player_id is not None:
            return Entry.Kind.PLAYER
        return Entry.Kind.BOT if self.bot_strategy else Entry.Kind.GUEST


class Round(models.Model):
    """One round. A ``draft`` may be edited by the organiser; publishing it starts the tables."""

    class Status(models.TextChoices):
        DRAFT = "draft"
        PUBLISHED = "published"
        COMPLETE = "complete"

    PLAYED = (Status.PUBLISHED, Status.COMPLETE)  # published: seated, being or been played

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.DRAFT)
    # The draw's seed: with the entries and the earlier rounds it reproduces the seating.
    seed = models.BigIntegerField()
    repeats = models.PositiveIntegerField(default=0)
    repeat_lower_bound = models.PositiveIntegerField(default=0)
    # What the repeats say to the organiser (switchgame.tournament.meetings.RepeatVerdict).
    repeat_verdict = models.CharField(
        max_length=10, choices=_choices(RepeatVerdict), default=RepeatVerdict.FEWEST
    )
    created_at = models.DateTimeField(auto_now_add=True)
    published_at = models.DateTimeField(null=True, blank=True)
    # The round clock: running, it ends at ``clock_ends_at``; paused, ``clock_paused_remaining``
    # is what is left; never started, both are empty.
    clock_ends_at = models.DateTimeField(null=True, blank=True)
    clock_paused_remaining = models.DurationField(null=True, blank=True)

    class Meta:
        ordering = ("tournament", "number")
        constraints = (
            models.UniqueConstraint(fields=["tournament", "number"], name="round_unique_number"),
            models.CheckConstraint(condition=Q(number__gte=1), name="round_number_from_one"),
        )

    def __str__(self) -> str:
        return f"{self.tournament} · round {self.number}"


class Table(models.Model):
    """One table of a round. Online, its match is played on the server; offline (real cards) it
    has no match and waits for the desk's result. ``outcome`` says where its score lines came
    from; ``recorded_at`` is set once it has them (or was forfeited), and the round is complete
    when every table is recorded."""

    class Outcome(models.TextChoices):
        NONE = "", "no result yet"
        PLAYED = "played", "played on the server"
        ENTERED = "entered", "entered at the desk"
        FORFEITED = "forfeited", "forfeited: abandoned with no result"

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()
    match = models.OneToOneField(
        "games.Match",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="tournament_table",
    )
    outcome = models.CharField(max_length=10, choices=Outcome.choices, blank=True)
    # Server bots filling the seats after the entries' (``fill_with_bots``), and the points each
    # of them scored: they are nobody's entry, but the entries at the table played against them.
    fill_bots = models.PositiveSmallIntegerField(default=0)
    fill_points = models.JSONField(default=list, blank=True)
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


class ResultEntry(models.Model):
    """A table result as the desk entered it (the body of the result endpoint), with who and
    when. Append-only: a correction adds a row, so every earlier version stays on record."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="result_entries")
    result = models.JSONField()
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    entered_at = models.DateTimeField(auto_now_add=True)
    # Why a correction was made (the desk's words; blank for a first result).
    reason = models.CharField(max_length=200, blank=True)

    class Meta:
        ordering = ("table", "entered_at", "pk")
        verbose_name_plural = "result entries"

    def __str__(self) -> str:
        return f"result of {self.table} entered by {self.entered_by} at {self.entered_at:%H:%M}"


class ScoreLine(models.Model):
    """One entry's points in one deal (shedding) or hand (Abbott) at one table: written from the
    finished match, or from the desk's result (which replaces them whole)."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="score_lines")
    entry = models.ForeignKey(Entry, on_delete=models.PROTECT, related_name="score_lines")
    deal = models.PositiveSmallIntegerField()
    points = models.IntegerField()
    won = models.BooleanField(default=False)
    # French scoring: the tally the entry was left holding (0 for the deal's winner).
    conceded = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ("table", "deal", "entry")
        constraints = (
            models.UniqueConstraint(fields=["table", "entry", "deal"], name="score_line_unique"),
            models.CheckConstraint(condition=Q(deal__gte=1), name="score_line_deal_from_one"),
        )

    def __str__(self) -> str:
        return f"{self.entry}: {self.points} in deal {self.deal} of {self.table}"


class Series(models.Model):
    """Monthly nights (or any run of tournaments) ranked together: the standings add up each
    person's results in its tournaments (``tournaments.series``)."""

    name = models.CharField(max_length=120)
    tournaments = models.ManyToManyField(Tournament, related_name="series")
    public = models.BooleanField(default=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("-created_at", "-pk")
        verbose_name_plural = "series"

    def __str__(self) -> str:
        return self.name
