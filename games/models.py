"""Persistence for players, matches, seats and the append-only event logs.

Models are thin: the rules live in the engines, writes in ``services/``, reads in ``selectors.py``.
The engine state is stored whole with the match (``state``, the engine's versioned ``to_dict()``);
the event log, with the per-deal seeds revealed in it, is enough to audit and replay a match.
"""

from __future__ import annotations

import re

from django.conf import settings
from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

# A tournament guest's account (tournaments/services/seat_links.py) is named by the desk's name and
# this suffix, which no registration can make (it allows no space nor parenthesis): unique, and
# never shown to people, who see the name alone (:func:`shown_name`).
GUEST_SUFFIX = " (guest {number})"
_GUEST_SUFFIX = re.compile(r" \(guest \d+\)\Z")


def shown_name(username: str) -> str:
    """The name people see for an account: its username, a tournament guest's without its
    suffix ("Chloé (guest 12)" is Chloé)."""
    return _GUEST_SUFFIX.sub("", username)


class Player(models.Model):
    """A user's game profile and the counter of their personal event feed (every ``your_turn``
    increments it, so nothing slow ever locks this row: ratings live in :class:`Rating`)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="player",
        verbose_name=_("user"),
    )
    # The username folded for comparison (NFKC, case-folded): unique, so that "ＡＬＩＣＥ" or
    # "Alice" cannot register beside "alice". Empty for profiles made before it existed.
    name_key = models.CharField(
        max_length=150, unique=True, null=True, blank=True, verbose_name=_("name key")
    )
    feed_seq = models.PositiveBigIntegerField(default=0, verbose_name=_("feed seq"))
    # A bot account: a program playing through the API (shown as such wherever the player is).
    bot = models.BooleanField(default=False, verbose_name=_("bot"))
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))

    class Meta:
        verbose_name = _("player")
        verbose_name_plural = _("players")

    def __str__(self) -> str:
        return self.user.get_username()


class Match(models.Model):
    class Status(models.TextChoices):
        WAITING = "waiting", _("Waiting")
        ACTIVE = "active", _("Active")
        FINISHED = "finished", _("Finished")
        ABANDONED = "abandoned", _("Abandoned")

    class Game(models.TextChoices):
        SHEDDING = "shedding", _("Shedding")
        ABBOTT = "abbott", _("Abbott")

    ruleset = models.CharField(max_length=40, verbose_name=_("ruleset"))
    game = models.CharField(max_length=10, choices=Game.choices, verbose_name=_("game"))
    options = models.JSONField(default=dict, blank=True, verbose_name=_("options"))
    seat_count = models.PositiveSmallIntegerField(verbose_name=_("seat count"))
    deals = models.PositiveSmallIntegerField(default=1, verbose_name=_("deals"))
    target = models.PositiveIntegerField(null=True, blank=True, verbose_name=_("target"))
    turn_seconds = models.PositiveIntegerField(
        null=True, blank=True, verbose_name=_("turn seconds")
    )
    on_resign = models.CharField(max_length=10, default="bot", verbose_name=_("on resign"))
    # A player who lets the clock run out this many times has a server bot take the seat (a
    # ladder's matches allow two, so that a bot that stopped answering holds up no table).
    strikes_allowed = models.PositiveSmallIntegerField(default=3, verbose_name=_("strikes allowed"))
    # Start by itself when its last seat is taken (a lobby match nobody has to start).
    auto_start = models.BooleanField(default=False, verbose_name=_("auto start"))
    # When it finishes, every seat's rating in its game is updated (a RatedResult, in the same
    # transaction as the end).
    rated = models.BooleanField(default=False, verbose_name=_("rated"))
    # A practice match's seed (64 hex digits; "" for any other match): every deal's seed is derived
    # from it and the deal's number, and the bots' choices from it, so the same seed and the same
    # moves play the same game again. Only an unrated match against server bots has one.
    practice_seed = models.CharField(max_length=64, blank=True, verbose_name=_("practice seed"))
    status = models.CharField(
        max_length=10, choices=Status.choices, default=Status.WAITING, verbose_name=_("status")
    )
    version = models.PositiveIntegerField(default=0, verbose_name=_("version"))
    deal_number = models.PositiveIntegerField(default=0, verbose_name=_("deal number"))
    turn_deadline = models.DateTimeField(null=True, blank=True, verbose_name=_("turn deadline"))
    # Whether a bot is to move: background work the sweep looks for if it shows no progress.
    bot_to_move = models.BooleanField(default=False, verbose_name=_("bot to move"))
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="created_matches",
        verbose_name=_("created by"),
    )
    # The engine's versioned to_dict(): hands and stock order included, so never sent as it is.
    state = models.JSONField(null=True, blank=True, verbose_name=_("state"))
    # The secret seed of the deal in play (hex); revealed in the deal_end event.
    deal_seed = models.CharField(max_length=64, blank=True, verbose_name=_("deal seed"))
    layout = models.JSONField(null=True, blank=True, verbose_name=_("layout"))
    last_event_seq = models.PositiveBigIntegerField(default=0, verbose_name=_("last event seq"))
    result = models.JSONField(null=True, blank=True, verbose_name=_("result"))
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))
    updated_at = models.DateTimeField(auto_now=True, verbose_name=_("updated at"))
    finished_at = models.DateTimeField(null=True, blank=True, verbose_name=_("finished at"))

    class Meta:
        verbose_name = _("match")
        verbose_name_plural = _("matches")
        ordering = ["-created_at"]
        indexes = [
            models.Index(fields=["status", "ruleset"]),
            models.Index(
                fields=["updated_at"],
                condition=models.Q(status="active", bot_to_move=True),
                name="match_bot_to_move",
            ),
            models.Index(
                fields=["turn_deadline"],
                condition=models.Q(status="active"),
                name="match_turn_deadline",
            ),
            # The retention sweep's way to the matches whose events are due to be archived.
            models.Index(
                fields=["finished_at"],
                condition=models.Q(finished_at__isnull=False),
                name="match_finished_at",
            ),
        ]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(seat_count__gte=2), name="match_two_or_more_seats"
            ),
        ]
        # Powers over other people's matches, besides Django's own add/change/delete/view
        # (games.powers).
        permissions = (
            ("fix_layout", "Can fix the first deal of a match (its layout)"),
            ("start_any_match", "Can start a match someone else created"),
        )

    def __str__(self) -> str:
        return gettext("Match %(id)s (%(ruleset)s, %(status)s)") % {
            "id": self.pk,
            "ruleset": self.ruleset,
            "status": self.get_status_display().lower(),
        }


class Seat(models.Model):
    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, related_name="seats", verbose_name=_("match")
    )
    index = models.PositiveSmallIntegerField(verbose_name=_("index"))
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="seats",
        verbose_name=_("player"),
    )
    bot_strategy = models.CharField(max_length=20, blank=True, verbose_name=_("bot strategy"))
    strikes = models.PositiveSmallIntegerField(default=0, verbose_name=_("strikes"))
    resigned = models.BooleanField(default=False, verbose_name=_("resigned"))

    class Meta:
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        ordering = ["match", "index"]
        constraints = [
            models.UniqueConstraint(fields=["match", "index"], name="seat_unique_index"),
            models.UniqueConstraint(
                fields=["match", "player"],
                condition=models.Q(player__isnull=False),
                name="seat_one_per_player",
            ),
        ]

    def __str__(self) -> str:
        return gettext("seat %(seat)s of match %(id)s") % {"seat": self.index, "id": self.match_id}

    @property
    def is_bot(self) -> bool:
        return bool(self.bot_strategy)


class Challenge(models.Model):
    """An invitation to a match with the settings of one: it becomes the match, started, when
    every invitee accepts, and ends when one declines, the challenger cancels or it expires."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Pending")
        ACCEPTED = "accepted", _("Accepted")
        DECLINED = "declined", _("Declined")
        CANCELLED = "cancelled", _("Cancelled")
        EXPIRED = "expired", _("Expired")

    class Reason(models.TextChoices):
        """Why an invitee declined (the contract's list)."""

        GENERIC = "generic", _("No reason given")
        LATER = "later", _("Later")
        RULESET = "ruleset", _("Another ruleset")
        SEATS = "seats", _("Another number of seats")
        CLOCK = "clock", _("Another clock")
        RATED = "rated", _("Rated, please")
        CASUAL = "casual", _("Casual, please")
        NO_BOTS = "no_bots", _("No bots, please")
        ONLY_BOTS = "only_bots", _("Bots only, please")

    challenger = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="challenges_sent",
        verbose_name=_("challenger"),
    )
    status = models.CharField(
        max_length=10, choices=Status.choices, default=Status.PENDING, verbose_name=_("status")
    )
    ruleset = models.CharField(max_length=40, verbose_name=_("ruleset"))
    seat_count = models.PositiveSmallIntegerField(verbose_name=_("seat count"))
    options = models.JSONField(default=dict, blank=True, verbose_name=_("options"))
    bots = models.JSONField(default=list, blank=True, verbose_name=_("bots"))
    deals = models.PositiveSmallIntegerField(default=1, verbose_name=_("deals"))
    target = models.PositiveIntegerField(null=True, blank=True, verbose_name=_("target"))
    turn_seconds = models.PositiveIntegerField(
        null=True, blank=True, verbose_name=_("turn seconds")
    )
    rated = models.BooleanField(default=False, verbose_name=_("rated"))
    match = models.OneToOneField(
        Match,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="challenge",
        verbose_name=_("match"),
    )
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))
    # A pending challenge expires then (the sweep ends it: status expired).
    expires_at = models.DateTimeField(verbose_name=_("expires at"))
    ended_at = models.DateTimeField(null=True, blank=True, verbose_name=_("ended at"))
    # Why it was declined ("" unless it was).
    reason = models.CharField(
        max_length=10, choices=Reason.choices, blank=True, verbose_name=_("reason")
    )

    class Meta:
        verbose_name = _("challenge")
        verbose_name_plural = _("challenges")
        ordering = ["-created_at", "-pk"]
        indexes = [
            models.Index(fields=["status", "created_at"]),
            models.Index(
                fields=["expires_at"],
                condition=models.Q(status="pending"),
                name="challenge_pending_expiry",
            ),
        ]

    def __str__(self) -> str:
        return gettext("Challenge %(id)s (%(ruleset)s, %(status)s)") % {
            "id": self.pk,
            "ruleset": self.ruleset,
            "status": self.get_status_display().lower(),
        }


class Invitation(models.Model):
    """One invitee of a challenge, in seat order (the challenger holds seat 0)."""

    class Answer(models.TextChoices):
        ACCEPTED = "accepted", _("Accepted")
        DECLINED = "declined", _("Declined")

    challenge = models.ForeignKey(
        Challenge, on_delete=models.CASCADE, related_name="invitations", verbose_name=_("challenge")
    )
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="invitations",
        verbose_name=_("player"),
    )
    seat = models.PositiveSmallIntegerField(verbose_name=_("seat"))
    answer = models.CharField(
        max_length=10, choices=Answer.choices, blank=True, verbose_name=_("answer")
    )  # "": none yet
    answered_at = models.DateTimeField(null=True, blank=True, verbose_name=_("answered at"))

    class Meta:
        verbose_name = _("invitation")
        verbose_name_plural = _("invitations")
        ordering = ["challenge", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["challenge", "player"], name="invitation_once"),
            models.UniqueConstraint(fields=["challenge", "seat"], name="invitation_seat"),
        ]

    def __str__(self) -> str:
        return gettext("%(player)s to challenge %(id)s") % {
            "player": self.player,
            "id": self.challenge_id,
        }


class MatchEvent(models.Model):
    """One entry of a match's append-only log. ``private`` is seen only by the event's seat."""

    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, related_name="events", verbose_name=_("match")
    )
    seq = models.PositiveBigIntegerField(verbose_name=_("seq"))
    type = models.CharField(max_length=20, verbose_name=_("type"))
    seat = models.PositiveSmallIntegerField(null=True, blank=True, verbose_name=_("seat"))
    data = models.JSONField(default=dict, verbose_name=_("data"))
    private = models.JSONField(null=True, blank=True, verbose_name=_("private"))
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))

    class Meta:
        ordering = ["match", "seq"]
        constraints = [models.UniqueConstraint(fields=["match", "seq"], name="event_unique_seq")]

    def __str__(self) -> str:
        return f"#{self.seq} {self.type} (match {self.match_id})"


class ArchivedLog(models.Model):
    """A finished match's whole event log in one row, once its ``MatchEvent`` rows were removed
    (``EVENT_RETENTION_DAYS`` after it ended): what its record and replay are built from. One
    compressed value instead of a row and two index entries per event."""

    match = models.OneToOneField(
        Match,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="archived_log",
        verbose_name=_("match"),
    )
    # The events as the rows held them, oldest first: {"seq", "type", "seat", "data", "private", "at"}.
    events = models.JSONField(verbose_name=_("events"))
    archived_at = models.DateTimeField(auto_now_add=True, verbose_name=_("archived at"))

    def __str__(self) -> str:
        return gettext("archived log of match %(id)s") % {"id": self.match_id}


class RecordDeals(models.Model):
    """The ``deals`` of a match's game record — each deal's seed, commitment and the actions taken —
    worked out once, by the replay, when the match ended (``games.archive``): its record, and a
    player's export of thousands, read them instead of replaying its log again, which tries every
    legal action at every step."""

    match = models.OneToOneField(
        Match,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="record_deals",
        verbose_name=_("match"),
    )
    # The deals as JSON text, as the record writes them: text keeps the keys' order (jsonb would
    # sort them), so that a record read from here is the same, byte for byte, as one replayed.
    deals = models.TextField(verbose_name=_("deals"))
    # Why the log did not replay, when it did not (``deals`` is then empty): kept so that the work
    # is not tried again on every sweep, and so that staff see it (the admin lists these).
    failure = models.TextField(blank=True, default="", verbose_name=_("failure"))

    def __str__(self) -> str:
        return gettext("record of match %(id)s") % {"id": self.match_id}


class UnbuildableRecord(RecordDeals):
    """The record deals of a match whose log did not replay: the admin's list of them. Deleting
    one lets the record be worked out again (by the sweep within a day of the match's end, else
    when it is read)."""

    class Meta:
        proxy = True
        verbose_name = _("record that cannot be built")
        verbose_name_plural = _("records that cannot be built")


class FeedEvent(models.Model):
    """One entry of a player's personal feed (``your_turn``, ``match_started``, …), numbered per player."""

    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="feed", verbose_name=_("player")
    )
    seq = models.PositiveBigIntegerField(verbose_name=_("seq"))
    type = models.CharField(max_length=20, verbose_name=_("type"))
    match = models.ForeignKey(
        Match,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("match"),
    )
    data = models.JSONField(default=dict, verbose_name=_("data"))
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))

    class Meta:
        ordering = ["player", "seq"]
        constraints = [models.UniqueConstraint(fields=["player", "seq"], name="feed_unique_seq")]
        indexes = [
            # Entries of no match (challenges) are removed by age: the retention sweep's way to them.
            models.Index(
                fields=["created_at"],
                condition=models.Q(match__isnull=True),
                name="feed_matchless_created",
            ),
        ]

    def __str__(self) -> str:
        return f"#{self.seq} {self.type} for {self.player}"


class Rating(models.Model):
    """A holder's current rating in one game (``shedding`` or ``abbott``): the state after every
    rated result replayed so far. A holder is a player (``user:<id>``, with ``user`` set), a server
    bot strategy (``bot:<strategy>``) or a tournament's guest or bot entrant (``entry:<id>``)."""

    holder = models.CharField(max_length=40, verbose_name=_("holder"))
    game = models.CharField(max_length=10, choices=Match.Game.choices, verbose_name=_("game"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("user"),
    )
    mu = models.FloatField(verbose_name=_("mu"))
    sigma = models.FloatField(verbose_name=_("sigma"))
    games = models.PositiveIntegerField(verbose_name=_("games"))
    updated_at = models.DateTimeField(auto_now=True, verbose_name=_("updated at"))

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["holder", "game"], name="rating_once_per_game"),
        ]

    def __str__(self) -> str:
        return f"{self.holder} in {self.game}: {self.mu:.2f} ± {self.sigma:.2f}"


class RatedResult(models.Model):
    """One result to rate, in date order: a rated match, a tournament table or Abbott hand.

    ``teams`` lists holders per team (see :class:`Rating`), ``ranks`` each team's place (1 best,
    ties share). Written with the result, in its transaction, ``applied`` false: the replay task
    rates it (and everything after it, when it is not the last), so nothing is lost if the task is.
    """

    game = models.CharField(max_length=10, choices=Match.Game.choices, verbose_name=_("game"))
    source = models.CharField(
        max_length=40, unique=True, verbose_name=_("source")
    )  # "match:<id>", "table:<id>:<hand>"
    teams = models.JSONField(verbose_name=_("teams"))
    ranks = models.JSONField(verbose_name=_("ranks"))
    played_at = models.DateTimeField(verbose_name=_("played at"))
    applied = models.BooleanField(default=False, verbose_name=_("applied"))

    class Meta:
        ordering = ["played_at", "pk"]
        indexes = [
            models.Index(fields=["game", "played_at", "id"], name="rated_result_order"),
            models.Index(
                fields=["game", "played_at", "id"],
                condition=models.Q(applied=False),
                name="rated_result_pending",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.source} ({self.game}, {'applied' if self.applied else 'pending'})"


class RatingChange(models.Model):
    """A holder's rating after one rated result: where a replay from any result onwards starts."""

    result = models.ForeignKey(
        RatedResult, on_delete=models.CASCADE, related_name="changes", verbose_name=_("result")
    )
    holder = models.CharField(max_length=40, verbose_name=_("holder"))
    game = models.CharField(max_length=10, choices=Match.Game.choices, verbose_name=_("game"))
    played_at = models.DateTimeField(
        verbose_name=_("played at")
    )  # the result's, to find the last change before a point
    mu = models.FloatField(verbose_name=_("mu"))
    sigma = models.FloatField(verbose_name=_("sigma"))
    games = models.PositiveIntegerField(verbose_name=_("games"))

    class Meta:
        indexes = [
            models.Index(fields=["game", "holder", "played_at", "result"], name="rating_change_at"),
        ]

    def __str__(self) -> str:
        return f"{self.holder} after {self.result_id}"


class RatingReplay(models.Model):
    """Per game, the point from which rated results are to be replayed (after a correction, or a
    result that arrived late), and the row the replay locks so two replays never interleave."""

    game = models.CharField(
        max_length=10, choices=Match.Game.choices, unique=True, verbose_name=_("game")
    )
    from_at = models.DateTimeField(null=True, blank=True, verbose_name=_("from at"))
    from_id = models.BigIntegerField(default=0, verbose_name=_("from id"))

    def __str__(self) -> str:
        return f"{self.game} replay from {self.from_at or 'nothing'}"


class Presence(models.Model):
    """When a player last had a feed stream or a long poll open, in any web process: who is
    online (open now, or within :data:`games.presence.ONLINE_WINDOW`) is read here by every web
    host and by the ladders' scheduler. Written when a waiter opens and closes, and by each web
    process every few seconds for everyone it holds open (:mod:`games.presence`), never once per
    idle waiter."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="+",
        verbose_name=_("user"),
    )
    seen_at = models.DateTimeField(verbose_name=_("seen at"))

    class Meta:
        verbose_name = _("presence")
        verbose_name_plural = _("presences")
        indexes = [models.Index(fields=["seen_at"], name="presence_seen_at")]

    def __str__(self) -> str:
        return gettext("user %(id)s seen at %(at)s") % {"id": self.user_id, "at": self.seen_at}
