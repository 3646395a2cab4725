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
from django.utils.functional import Promise
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from switchgame import ratings
from switchgame.tournament.meetings import RepeatVerdict
from switchgame.tournament.scoring import ByePolicy, Ranking, Scoring
from switchgame.tournament.seating import SeatingMode


def _choices(values: type[StrEnum]) -> list[tuple[str, Promise]]:
    """Model choices from an enum of the pure modules, which own the concept, labelled in words
    the catalogue translates."""
    return [(value.value, LABELS[value]) for value in values]


# The words for the pure modules' values (the API keeps the values themselves).
LABELS: dict[StrEnum, Promise] = {
    Scoring.FRENCH: _("French"),
    Scoring.PLACEMENT: _("Placement"),
    Scoring.ABBOTT: _("Abbott"),
    SeatingMode.RANDOM: _("Random"),
    SeatingMode.BALANCED: _("Balanced"),
    SeatingMode.SWISS: _("Swiss"),
    ByePolicy.ZERO: _("Zero"),
    ByePolicy.AVERAGE: _("Average"),
    ByePolicy.MAXIMUM: _("Maximum"),
    Ranking.TOTAL: _("Total"),
    Ranking.AVERAGE: _("Average"),
    RepeatVerdict.FEWEST: _("Fewest"),
    RepeatVerdict.SPREAD: _("Spread"),
    RepeatVerdict.IMPROVABLE: _("Improvable"),
    RepeatVerdict.UNPROVEN: _("Unproven"),
}


def service_language() -> str:
    """The service's own language (``LANGUAGE_CODE``): a new tournament's, unless told."""
    return settings.LANGUAGE_CODE


class Tournament(models.Model):
    class Play(models.TextChoices):
        """``online``: every table is a server match. ``offline``: real cards; the desk enters
        each table's result."""

        ONLINE = "online", _("Online")
        OFFLINE = "offline", _("Offline")

    class Status(models.TextChoices):
        REGISTERING = "registering", _("Registering")
        RUNNING = "running", _("Running")
        ROUND_COMPLETE = "round_complete", _("Round complete")
        FINISHED = "finished", pgettext_lazy("tournament", "Finished")
        CANCELLED = "cancelled", pgettext_lazy("tournament", "Cancelled")

    class SelfReport(models.TextChoices):
        """Who reports an offline table's result: the desk alone (``off``), a player at the table
        with an opponent confirming it (``confirm``), or a player alone (``trust``)."""

        OFF = "off", _("Off: the desk enters every result")
        CONFIRM = "confirm", _("Confirmed: a player reports, an opponent confirms")
        TRUST = "trust", _("Trusted: a player's report is recorded at once")

    name = models.CharField(max_length=120, verbose_name=_("name"))
    ruleset = models.CharField(max_length=40, verbose_name=_("ruleset"))
    options = models.JSONField(default=dict, blank=True, verbose_name=_("options"))
    scoring = models.CharField(max_length=10, choices=_choices(Scoring), verbose_name=_("scoring"))
    planned_rounds = models.PositiveSmallIntegerField(verbose_name=_("planned rounds"))
    table_size = models.PositiveSmallIntegerField(verbose_name=_("table size"))
    deals_per_round = models.PositiveSmallIntegerField(
        null=True, blank=True, verbose_name=_("deals per round")
    )
    target = models.PositiveIntegerField(null=True, blank=True, verbose_name=_("target"))
    seating = models.CharField(
        max_length=10,
        choices=_choices(SeatingMode),
        default=SeatingMode.BALANCED,
        verbose_name=_("seating"),
    )
    bye_policy = models.CharField(
        max_length=10,
        choices=_choices(ByePolicy),
        default=ByePolicy.ZERO,
        verbose_name=_("bye policy"),
    )
    play = models.CharField(
        max_length=10, choices=Play.choices, default=Play.ONLINE, verbose_name=_("play")
    )
    # Online only: the bot strategy that fills the seats the numbers leave empty (blank: none).
    fill_with_bots = models.CharField(max_length=20, blank=True, verbose_name=_("fill with bots"))
    ranking = models.CharField(
        max_length=10, choices=_choices(Ranking), default=Ranking.TOTAL, verbose_name=_("ranking")
    )
    # A public tournament has pages anyone may read (tables, standings), without logging in.
    public = models.BooleanField(default=False, verbose_name=_("public"))
    # The language of its public pages, projector screen, seat cards and printed sheets, whatever
    # a visitor's browser asks for (docs/operations.md, "Languages").
    language = models.CharField(
        max_length=5,
        choices=settings.LANGUAGES,
        default=service_language,
        verbose_name=_("language"),
    )
    status = models.CharField(
        max_length=15, choices=Status.choices, default=Status.REGISTERING, verbose_name=_("status")
    )
    # Offline: results reported from the players' phones (ResultReport), and check-in by the
    # players themselves through their own page or seat link.
    self_report = models.CharField(
        max_length=10,
        choices=SelfReport.choices,
        default=SelfReport.OFF,
        verbose_name=_("results from the players' phones"),
    )
    self_checkin = models.BooleanField(default=False, verbose_name=_("self check-in"))
    # Decides the standings' lots; drawn once, so lots never change during the event.
    seed = models.BigIntegerField(verbose_name=_("seed"))
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("created by"),
    )
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))
    # Counts the writes that changed what the pages show: the live pages' cursor (tournaments.live).
    revision = models.PositiveBigIntegerField(default=0, verbose_name=_("revision"))

    class Meta:
        ordering = ("-created_at", "-pk")
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
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
                violation_error_message=_("A tournament has at least one round."),
            ),
            models.CheckConstraint(
                condition=Q(table_size__gte=2),
                name="tournament_tables_of_two_or_more",
                violation_error_message=_("Tables seat two or more."),
            ),
            models.CheckConstraint(
                condition=Q(deals_per_round__isnull=True) | Q(target__isnull=True),
                name="tournament_deals_or_target",
                violation_error_message=_("Give deals_per_round or target, not both."),
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
        PLAYER = "player", _("Player")
        GUEST = "guest", _("Guest")
        BOT = "bot", _("Bot")

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="entries", verbose_name=_("tournament")
    )
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="tournament_entries",
        verbose_name=_("player"),
    )
    bot_strategy = models.CharField(max_length=20, blank=True, verbose_name=_("bot strategy"))
    name = models.CharField(max_length=150, verbose_name=_("name"))
    joined_round = models.PositiveSmallIntegerField(default=1, verbose_name=_("joined round"))
    withdrawn_after = models.PositiveSmallIntegerField(
        null=True, blank=True, verbose_name=_("withdrawn after")
    )
    # A guest of an online tournament holds its seats through a user of its own, with no password,
    # reached only by the entry's seat link (tournaments.services.seat_links).
    guest_user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="guest_entry",
        verbose_name=_("guest user"),
    )
    # Checked in at the desk: only present entries are seated.
    present = models.BooleanField(default=True, verbose_name=_("present"))
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))

    class Meta:
        ordering = ("tournament", "pk")
        verbose_name = _("entry")
        verbose_name_plural = _("entries")
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
                violation_error_message=_("Another entry of this tournament has this name."),
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
        DRAFT = "draft", _("Draft")
        PUBLISHED = "published", _("Published")
        COMPLETE = "complete", _("Complete")

    PLAYED = (Status.PUBLISHED, Status.COMPLETE)  # published: seated, being or been played

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="rounds", verbose_name=_("tournament")
    )
    number = models.PositiveSmallIntegerField(verbose_name=_("number"))
    status = models.CharField(
        max_length=10, choices=Status.choices, default=Status.DRAFT, verbose_name=_("status")
    )
    # The draw's seed: with the entries and the earlier rounds it reproduces the seating.
    seed = models.BigIntegerField(verbose_name=_("seed"))
    repeats = models.PositiveIntegerField(default=0, verbose_name=_("repeats"))
    repeat_lower_bound = models.PositiveIntegerField(
        default=0, verbose_name=_("repeat lower bound")
    )
    # What the repeats say to the organiser (switchgame.tournament.meetings.RepeatVerdict).
    repeat_verdict = models.CharField(
        max_length=10,
        choices=_choices(RepeatVerdict),
        default=RepeatVerdict.FEWEST,
        verbose_name=_("repeat verdict"),
    )
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))
    published_at = models.DateTimeField(null=True, blank=True, verbose_name=_("published at"))
    # The round clock: running, it ends at ``clock_ends_at``; paused, ``clock_paused_remaining``
    # is what is left; never started, both are empty.
    clock_ends_at = models.DateTimeField(null=True, blank=True, verbose_name=_("clock ends at"))
    clock_paused_remaining = models.DurationField(
        null=True, blank=True, verbose_name=_("clock paused remaining")
    )

    class Meta:
        ordering = ("tournament", "number")
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        constraints = (
            models.UniqueConstraint(fields=["tournament", "number"], name="round_unique_number"),
            models.CheckConstraint(condition=Q(number__gte=1), name="round_number_from_one"),
        )

    def __str__(self) -> str:
        return gettext("%(tournament)s · round %(number)s") % {
            "tournament": self.tournament,
            "number": self.number,
        }


class Table(models.Model):
    """One table of a round. Online, its match is played on the server; offline (real cards) it
    has no match and waits for the desk's result. ``outcome`` says where its score lines came
    from; ``recorded_at`` is set once it has them (or was forfeited), and the round is complete
    when every table is recorded."""

    class Outcome(models.TextChoices):
        NONE = "", _("no result yet")
        PLAYED = "played", _("played on the server")
        ENTERED = "entered", _("entered at the desk")
        FORFEITED = "forfeited", _("forfeited: abandoned with no result")

    round = models.ForeignKey(
        Round, on_delete=models.CASCADE, related_name="tables", verbose_name=_("round")
    )
    number = models.PositiveSmallIntegerField(verbose_name=_("number"))
    match = models.OneToOneField(
        "games.Match",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="tournament_table",
        verbose_name=_("match"),
    )
    outcome = models.CharField(
        max_length=10, choices=Outcome.choices, blank=True, verbose_name=_("outcome")
    )
    # Server bots filling the seats after the entries' (``fill_with_bots``), and the points each
    # of them scored: they are nobody's entry, but the entries at the table played against them.
    fill_bots = models.PositiveSmallIntegerField(default=0, verbose_name=_("fill bots"))
    fill_points = models.JSONField(default=list, blank=True, verbose_name=_("fill points"))
    recorded_at = models.DateTimeField(null=True, blank=True, verbose_name=_("recorded at"))

    class Meta:
        ordering = ("round", "number")
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        constraints = (
            models.UniqueConstraint(fields=["round", "number"], name="table_unique_number"),
        )

    def __str__(self) -> str:
        return gettext("%(round)s · table %(number)s") % {
            "round": self.round,
            "number": self.number,
        }


class TableSeat(models.Model):
    """Who sits where. ``round`` repeats the table's round so that one seat per round is a constraint."""

    round = models.ForeignKey(
        Round, on_delete=models.CASCADE, related_name="seats", verbose_name=_("round")
    )
    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, related_name="seats", verbose_name=_("table")
    )
    seat = models.PositiveSmallIntegerField(verbose_name=_("seat"))
    entry = models.ForeignKey(
        Entry, on_delete=models.PROTECT, related_name="seats", verbose_name=_("entry")
    )

    class Meta:
        ordering = ("table", "seat")
        verbose_name = _("table seat")
        verbose_name_plural = _("table seats")
        constraints = (
            models.UniqueConstraint(fields=["table", "seat"], name="table_seat_unique_seat"),
            models.UniqueConstraint(fields=["round", "entry"], name="table_seat_once_per_round"),
        )

    def __str__(self) -> str:
        return gettext("%(entry)s at seat %(seat)s") % {"entry": self.entry, "seat": self.seat}


class Bye(models.Model):
    round = models.ForeignKey(
        Round, on_delete=models.CASCADE, related_name="byes", verbose_name=_("round")
    )
    entry = models.ForeignKey(
        Entry, on_delete=models.PROTECT, related_name="byes", verbose_name=_("entry")
    )

    class Meta:
        ordering = ("round", "entry")
        verbose_name = _("bye")
        verbose_name_plural = _("byes")
        constraints = (
            models.UniqueConstraint(fields=["round", "entry"], name="bye_once_per_round"),
        )

    def __str__(self) -> str:
        return gettext("bye for %(entry)s in round %(number)s") % {
            "entry": self.entry,
            "number": self.round.number,
        }


class ResultEntry(models.Model):
    """A table result as the desk entered it (the body of the result endpoint), with who and
    when. Append-only: a correction adds a row, so every earlier version stays on record."""

    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, related_name="result_entries", verbose_name=_("table")
    )
    result = models.JSONField(verbose_name=_("result"))
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("entered by"),
    )
    entered_at = models.DateTimeField(auto_now_add=True, verbose_name=_("entered at"))
    # Why a correction was made (the desk's words; blank for a first result).
    reason = models.CharField(max_length=200, blank=True, verbose_name=_("reason"))
    # The players' report this result was recorded from (``entered_by`` then confirmed it, or
    # reported it in a trusted tournament); none when the desk entered it.
    report = models.OneToOneField(
        "ResultReport",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="recorded_as",
        verbose_name=_("report"),
    )
    # The desk form's own key (a page's one submission): a form kept in the browser while the
    # network was down and sent again when it came back is saved once.
    submission = models.CharField(max_length=64, blank=True, verbose_name=_("submission"))

    class Meta:
        ordering = ("table", "entered_at", "pk")
        verbose_name = _("result entry")
        verbose_name_plural = _("result entries")
        constraints = (
            models.UniqueConstraint(
                fields=["table", "submission"],
                condition=~Q(submission=""),
                name="result_entry_once_per_submission",
            ),
        )

    def __str__(self) -> str:
        return gettext("result of %(table)s entered by %(by)s at %(at)s") % {
            "table": self.table,
            "by": self.entered_by,
            "at": f"{self.entered_at:%H:%M}",
        }


class ResultReport(models.Model):
    """A table's result as a player at it reported it from their phone (the desk's body), and
    what became of it: confirmed by an opponent, disputed, recorded at once (trusted), or settled
    by the desk entering the result over it. Kept with its table, as the desk's entries are."""

    class Status(models.TextChoices):
        PENDING = "pending", _("awaiting confirmation")
        CONFIRMED = "confirmed", _("confirmed")
        DISPUTED = "disputed", _("disputed")
        RECORDED = "recorded", _("recorded")
        SETTLED = "settled", _("settled at the desk")

    OPEN = (Status.PENDING, Status.DISPUTED)  # the table waits: for an opponent, or for the desk

    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, related_name="reports", verbose_name=_("table")
    )
    result = models.JSONField(verbose_name=_("result"))
    status = models.CharField(
        max_length=10, choices=Status.choices, default=Status.PENDING, verbose_name=_("status")
    )
    # Who reported: the entry at the table (none when staff reported) and the user who acted (the
    # entry's player, a guest's seat link, or staff).
    reported_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("reported by"),
    )
    reporter = models.ForeignKey(
        Entry,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("reporter"),
    )
    reported_at = models.DateTimeField(auto_now_add=True, verbose_name=_("reported at"))
    # Who confirmed or disputed it, and when (empty while it is pending).
    answered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("answered by"),
    )
    answerer = models.ForeignKey(
        Entry,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("answerer"),
    )
    answered_at = models.DateTimeField(null=True, blank=True, verbose_name=_("answered at"))
    # A dispute's reason, in the disputing player's words.
    reason = models.CharField(max_length=200, blank=True, verbose_name=_("reason"))

    class Meta:
        ordering = ("table", "reported_at", "pk")
        verbose_name = _("result report")
        verbose_name_plural = _("result reports")
        indexes = (
            # The desk's list of tables waiting: the open reports of a tournament's tables.
            models.Index(
                fields=["table"],
                condition=Q(status__in=("pending", "disputed")),
                name="result_report_open",
            ),
        )

    def __str__(self) -> str:
        return gettext("report of %(table)s by %(by)s at %(at)s") % {
            "table": self.table,
            "by": self.reporter or self.reported_by,
            "at": f"{self.reported_at:%H:%M}",
        }


class ScoreLine(models.Model):
    """One entry's points in one deal (shedding) or hand (Abbott) at one table: written from the
    finished match, or from the desk's result (which replaces them whole)."""

    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, related_name="score_lines", verbose_name=_("table")
    )
    entry = models.ForeignKey(
        Entry, on_delete=models.PROTECT, related_name="score_lines", verbose_name=_("entry")
    )
    deal = models.PositiveSmallIntegerField(verbose_name=_("deal"))
    points = models.IntegerField(verbose_name=_("points"))
    won = models.BooleanField(default=False, verbose_name=_("won"))
    # French scoring: the tally the entry was left holding (0 for the deal's winner).
    conceded = models.PositiveIntegerField(default=0, verbose_name=_("conceded"))

    class Meta:
        ordering = ("table", "deal", "entry")
        verbose_name = _("score line")
        verbose_name_plural = _("score lines")
        constraints = (
            models.UniqueConstraint(fields=["table", "entry", "deal"], name="score_line_unique"),
            models.CheckConstraint(condition=Q(deal__gte=1), name="score_line_deal_from_one"),
        )

    def __str__(self) -> str:
        return gettext("%(entry)s: %(points)s in deal %(deal)s of %(table)s") % {
            "entry": self.entry,
            "points": self.points,
            "deal": self.deal,
            "table": self.table,
        }


class Series(models.Model):
    """Monthly nights (or any run of tournaments) ranked together: the standings add up each
    person's results in its tournaments (``tournaments.series``)."""

    name = models.CharField(max_length=120, verbose_name=_("name"))
    tournaments = models.ManyToManyField(
        Tournament, related_name="series", verbose_name=_("tournaments")
    )
    public = models.BooleanField(default=False, verbose_name=_("public"))
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("created by"),
    )
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))

    class Meta:
        ordering = ("-created_at", "-pk")
        verbose_name = _("series")
        verbose_name_plural = _("series")

    def __str__(self) -> str:
        return self.name
