"""Matches: creating, joining, starting, moves, bots, turn clocks, resigning and abandoning.

Every operation that changes a match that exists reads it, works out the change and ends in the
one pipeline (:func:`games.services.pipeline.advance`), retried by its one policy
(:func:`games.services.pipeline.retrying`).
"""

from __future__ import annotations

import re
import secrets
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from games import errors
from games.models import Match, MatchEvent, Seat
from games.powers import Power, has_power, needed
from games.selectors import LoadedMatch, bot_account, match_load
from games.services.pipeline import Change, advance, retrying
from games.services.players import player_profile
from games.services.writer import FeedEntry
from switchgame import bots, catalog, protocol
from switchgame.decision import Abandon, Start
from switchgame.records.replay import turn_defaults
from switchgame.words import quoted
from switchsite import metrics
from switchsite.problems import LimitReached
from switchsite.serving import arrivals, notifier

RESIGN_POLICIES = ("bot", "forfeit")
# Who plays on for a player who resigns or runs out of time three times (both games have one).
REPLACEMENT_BOT = "heuristic"
STRIKES_BEFORE_TAKEOVER = 3
# How long after a match ended the sweep still looks for its record deals, should the task that
# keeps them have been lost (a match found later is replayed whenever its record is read).
RECORD_DEALS_SWEPT_FOR = timedelta(days=1)


@dataclass
class ActionResult:
    """What an action did: the events it produced and the match as it left it."""

    loaded: LoadedMatch
    seat: int
    events: list[MatchEvent]


def match_create(
    *,
    creator: User,
    ruleset: str,
    seats: int,
    options: Mapping[str, Any] | None = None,
    bots_wanted: Sequence[Mapping[str, Any]] = (),
    deals: int = 1,
    target: int | None = None,
    turn_seconds: int | None = None,
    layout: Mapping[str, Any] | None = None,
    on_resign: str = "bot",
    players: Sequence[User | None] | None = None,
    auto_start: bool = False,
    rated: bool = False,
    practice_seed: str | None = None,
    strikes_allowed: int = STRIKES_BEFORE_TAKEOVER,
) -> Match:
    """A new match waiting for players.

    The creator takes seat 0 unless ``players`` says who sits where (``None`` for a seat left to a
    bot or to someone who joins later) — as tournaments and challenges seat their tables. With
    ``auto_start`` the match starts by itself when its last seat is taken; a ``rated`` match
    updates its seats' ratings when it finishes. A ``practice_seed`` (64 hex digits) makes a
    practice match: unrated, the creator against server bots on every other seat, its deals and
    its bots' choices fixed by the seed. After ``strikes_allowed`` timeouts a player's seat is
    taken by a server bot.
    """
    info = catalog.find_ruleset(ruleset)
    game = catalog.new_game(ruleset, seats, options, deals=deals, target=target)
    # A player's own match counts against their fair share; a tournament's tables and an accepted
    # challenge's match (which say who sits where) do not.
    creates_own_match = players is None
    if players is None:
        players = [creator, *[None] * (seats - 1)]
    if len(players) != seats:
        raise protocol.InvalidOptions(
            gettext("%(value)s players given for %(seats)s seats")
            % {"value": len(players), "seats": seats}
        )
    bot_seats = validated_bots(bots_wanted, seated=players, game=info.game)
    if practice_seed is not None:
        practice_seed = validated_practice(
            practice_seed, rated=rated, seated=players, bot_seats=bot_seats
        )
    if layout is not None:
        if not has_power(creator, Power.LAYOUT):
            raise errors.LayoutForbidden(needed(Power.LAYOUT))
        game.copy().deal(secrets.token_bytes(32), layout)  # raises InvalidLayout
    if on_resign not in RESIGN_POLICIES:
        raise protocol.InvalidOptions(
            gettext("on_resign must be one of %(value)s") % {"value": ", ".join(RESIGN_POLICIES)}
        )
    if creates_own_match:
        within_fair_share(creator, bot_seats=len(bot_seats))

    with transaction.atomic():
        for user in {p.pk: p for p in players if p is not None}.values():
            player_profile(user=user)
        match = Match.objects.create(
            ruleset=ruleset,
            game=info.game,
            options={**(options or {})},
            seat_count=seats,
            deals=deals,
            target=target,
            turn_seconds=turn_seconds,
            created_by=creator,
            state=game.to_dict(),
            layout=layout,
            on_resign=on_resign,
            auto_start=auto_start,
            rated=rated,
            practice_seed=practice_seed or "",
            strikes_allowed=strikes_allowed,
        )
        Seat.objects.bulk_create(
            Seat(
                match=match,
                index=index,
                player=players[index],
                bot_strategy=bot_seats.get(index, ""),
            )
            for index in range(seats)
        )
        notifier.wake_on_commit(notifier.lobby_topic())
    return match


def within_fair_share(creator: User, *, bot_seats: int) -> None:
    """Refuse a new match of the creator's own beyond their share (docs/operations.md, "Fair
    shares"): ``USER_OPEN_MATCHES`` matches waiting or being played, ``USER_BOT_SEATS`` server-bot
    seats in them — so that one player's bots never keep the workers from another's."""
    open_matches = Match.objects.filter(
        created_by=creator, status__in=(Match.Status.WAITING, Match.Status.ACTIVE)
    )
    allowed = settings.USER_OPEN_MATCHES
    if open_matches.count() >= allowed:
        raise LimitReached(
            gettext(
                "You have %(allowed)d matches waiting or being played already: finish or resign "
                "one first."
            )
            % {"allowed": allowed},
            limit="USER_OPEN_MATCHES",
            allowed=allowed,
        )
    allowed = settings.USER_BOT_SEATS
    if bot_seats and (
        Seat.objects.filter(match__in=open_matches).exclude(bot_strategy="").count() + bot_seats
        > allowed
    ):
        raise LimitReached(
            gettext(
                "Your matches waiting or being played may have %(allowed)d server bots in all: "
                "finish one first, or ask for fewer bots."
            )
            % {"allowed": allowed},
            limit="USER_BOT_SEATS",
            allowed=allowed,
        )


def validated_bots(
    wanted: Sequence[Mapping[str, Any]], *, seated: Sequence[User | None], game: str
) -> dict[int, str]:
    chosen: dict[int, str] = {}
    for bot in wanted:
        seat, strategy = bot.get("seat"), bot.get("strategy")
        if not isinstance(seat, int) or not 0 <= seat < len(seated) or seated[seat] is not None:
            free = [index for index, user in enumerate(seated) if user is None]
            raise errors.InvalidBots(
                gettext("a bot's seat must be a free seat: one of %(free)s") % {"free": free}
            )
        if seat in chosen:
            raise errors.InvalidBots(gettext("seat %(seat)s is given two bots") % {"seat": seat})
        name = bots.strategy_named(game, strategy)
        if name is None:
            known = ", ".join(bots.strategies_for(game))
            raise errors.InvalidBots(
                gettext("unknown bot strategy %(strategy)s; known: %(known)s")
                % {"strategy": quoted(strategy), "known": known}
            )
        chosen[seat] = name
    return chosen


def validated_practice(
    seed: str, *, rated: bool, seated: Sequence[User | None], bot_seats: Mapping[int, str]
) -> str:
    """The practice seed in lower case, if a practice match may be made so: 64 hex digits, not
    rated, and a server bot on every seat but the creator's (no person but the creator plays)."""
    if not re.fullmatch(r"[0-9a-fA-F]{64}", seed):
        raise errors.InvalidPracticeSeed(gettext("practice_seed must be 64 hexadecimal digits."))
    if rated:
        raise errors.PracticeRated(gettext("A practice match cannot be rated."))
    others = [index for index, user in enumerate(seated) if index and index not in bot_seats]
    if others or seated[0] is None:
        raise errors.PracticeSeats(
            gettext("A practice match is played against server bots: seats %(seats)s need one.")
            % {"seats": others}
        )
    return seed.lower()


def match_join(*, match_id: int, user: User, seat: int | None = None) -> LoadedMatch:
    """Take a free seat (the first, or the one asked for) of a match that has not started. The
    players already seated hear of it; a match made to ``auto_start`` starts when it is full."""
    player_profile(user=user)

    def join() -> LoadedMatch:
        loaded = match_load(match_id=match_id)
        if loaded.match.status != Match.Status.WAITING:
            raise errors.MatchStarted(gettext("The match has already started."))
        if any(s.player_id == user.pk for s in loaded.seats):
            raise errors.AlreadySeated(gettext("You already have a seat in this match."))
        if loaded.match.practice_seed and user.pk != loaded.match.created_by_id:
            raise errors.PracticeMatch(
                gettext(
                    "A practice match is its creator's against server bots: only they may sit in it."
                )
            )
        free = _free_seats(loaded)
        if not free:
            raise errors.MatchFull(gettext("Every seat of this match is taken."))
        chosen = free[0]
        if seat is not None:
            asked = next((s for s in free if s.index == seat), None)
            if asked is None:
                if not 0 <= seat < loaded.match.seat_count:
                    raise protocol.InvalidAction(
                        gettext("seat must be between 0 and %(last)s.")
                        % {"last": loaded.match.seat_count - 1}
                    )
                raise errors.SeatTaken(gettext("Seat %(seat)s is taken.") % {"seat": seat})
            chosen = asked
        change = Change(feed=_seat_news(loaded, "player_joined", chosen.index, user))
        chosen.player = user
        change.seat_changed(chosen, "player")
        if loaded.match.auto_start and not _free_seats(loaded):
            change.feed += _started(loaded)
            advance(loaded, [], change, transition=Start())
        else:
            advance(loaded, [], change)
        return loaded

    return retrying(join)


def match_start(*, match_id: int, user: User) -> LoadedMatch:
    """Deal the first hand. Only the creator (or whoever may start anyone's match) may start,
    once every seat is filled."""

    def start() -> LoadedMatch:
        loaded = match_load(match_id=match_id)
        if loaded.match.created_by_id != user.pk and not has_power(user, Power.START):
            raise errors.NotMatchCreator(needed(Power.START))
        if loaded.match.status != Match.Status.WAITING:
            raise errors.MatchStarted(gettext("The match has already started."))
        empty = [s.index for s in _free_seats(loaded)]
        if empty:
            raise errors.SeatsEmpty(gettext("Seats %(empty)s are still empty.") % {"empty": empty})
        advance(loaded, [], Change(feed=_started(loaded)), transition=Start())
        return loaded

    return retrying(start)


def _started(loaded: LoadedMatch) -> list[FeedEntry]:
    """``match_started`` for every player seated at a match that starts."""
    return [
        FeedEntry(s.player_id, "match_started", loaded.match.pk, {"seat": s.index})
        for s in loaded.seats
        if s.player_id is not None
    ]


def _free_seats(loaded: LoadedMatch) -> list[Seat]:
    return [s for s in loaded.seats if s.player_id is None and not s.is_bot]


def _seat_news(loaded: LoadedMatch, news: str, seat: int, user: User) -> list[FeedEntry]:
    """``player_joined`` / ``player_left`` for every other player seated at a waiting match (the
    user's profile read with them: whether they are a bot account)."""
    data = {"seat": seat, "player": user.get_username(), "bot_account": bot_account(user)}
    return [
        FeedEntry(s.player_id, news, loaded.match.pk, data)
        for s in loaded.seats
        if s.player_id is not None and s.player_id != user.pk
    ]


def action_apply(
    *,
    match_id: int,
    user: User,
    action: Mapping[str, Any],
    expected_version: int | None = None,
) -> ActionResult:
    """Apply one action of the user's seat. A refused action raises and writes nothing."""

    def apply() -> ActionResult:
        loaded = match_load(match_id=match_id)
        seat = _own_seat(loaded.seats, user)
        if loaded.match.status != Match.Status.ACTIVE:
            raise errors.MatchNotActive.now(loaded.match.status)
        if expected_version is not None and expected_version != loaded.read_version:
            raise errors.StaleVersion(
                gettext("expected_version is %(expected)s but the match is at version %(version)s.")
                % {"expected": expected_version, "version": loaded.read_version}
            )
        if loaded.game.to_move != seat.index:
            raise errors.NotYourTurn(
                gettext("It is seat %(to_move)s's turn, not yours.")
                % {"to_move": loaded.game.to_move}
            )
        records = advance(loaded, loaded.game.apply(action))
        metrics.MOVES.labels(game=loaded.match.game, by="player").inc()
        return ActionResult(loaded=loaded, seat=seat.index, events=records)

    return retrying(apply)


def bot_turns_play(
    *, match_id: int, limit: int | None = None, seconds: float | None = None
) -> tuple[int, bool]:
    """Play the bot seats to move, one move per short transaction, up to ``limit`` moves and until
    ``seconds`` have gone by (at least one move).

    A bot chooses from an unlocked read and its move is written only if the match has not changed
    meanwhile; if it has, the match is read again and the bot to move (if any) chooses again, as
    every operation is retried (:func:`~games.services.pipeline.retrying`). So a task delivered
    twice, late or for a match someone else moved on does no harm. Returns the moves played and
    whether a bot may still be to move (the caller hands that on): after ``limit`` moves or
    ``seconds``, or when the match kept changing under the bot (``match_busy``).
    """
    left: list[LoadedMatch] = []  # the match as the last move left it: no need to read it again

    def move() -> bool:
        loaded = left.pop() if left else match_load(match_id=match_id)
        seat = loaded.seat_to_move
        if seat is None or not seat.is_bot:
            return False
        match = loaded.match
        action = bots.choose_action(
            seat.bot_strategy,
            game=match.game,
            view=loaded.game.view(seat.index),
            facts=bots.MatchFacts(match.ruleset, match.seat_count, seat.index, match.options),
            # A practice match's bots choose as they did with the same seed and moves before.
            seed=f"{match.practice_seed or match.pk}:{match.version}",
        )
        advance(loaded, loaded.game.apply(action), wake_bots=False)
        metrics.MOVES.labels(game=match.game, by="bot").inc()
        left.append(loaded)
        return True

    played = 0
    until = None if seconds is None else time.monotonic() + seconds
    while (limit is None or played < limit) and (
        until is None or played == 0 or time.monotonic() < until
    ):
        try:
            if not retrying(move):
                return played, False
        except errors.MatchBusy:
            return played, True
        played += 1
    return played, left[-1].match.bot_to_move


def turn_timeout_apply(*, match_id: int) -> bool:
    """The turn clock ran out: play the default action for the seat to move and count a strike.

    After the match's ``strikes_allowed`` strikes (``STRIKES_BEFORE_TAKEOVER`` unless it was made
    with another number) a bot takes the seat for the rest of it.
    Returns False (writing nothing) unless the match's clock has really run out now — so duplicate
    and late deliveries are harmless — and while a move to the match that has arrived is still to
    be answered: a move is judged by when it arrived (:mod:`switchsite.serving.arrivals`), and the
    sweep comes back once it has been.
    """

    def timeout() -> bool:
        loaded = match_load(match_id=match_id)
        match, game = loaded.match, loaded.game
        deadline = match.turn_deadline
        mover = loaded.seat_to_move
        now = timezone.now()
        if mover is None or deadline is None or now < deadline:
            return False
        held_until = deadline + timedelta(seconds=arrivals.HELD_SECONDS)
        if now < held_until and arrivals.moves_in_flight(match_id):
            return False
        seat = mover
        seat.strikes += 1
        change = Change()
        change.seat_changed(seat, "strikes")
        events = [protocol.Event("timeout", seat.index, {"strikes": seat.strikes})]
        for _, defaults in turn_defaults(game):
            events += defaults
        if seat.strikes >= match.strikes_allowed and not seat.is_bot:
            seat.bot_strategy = REPLACEMENT_BOT
            change.seat_changed(seat, "bot_strategy")
            events.append(protocol.Event("bot_takeover", seat.index, {"strategy": REPLACEMENT_BOT}))
        advance(loaded, events, change)
        metrics.MOVES.labels(game=match.game, by="clock").inc()
        return True

    return retrying(timeout)


def match_resign(*, match_id: int, user: User) -> LoadedMatch:
    """The user leaves: before the start the seat is freed; after it a bot takes the seat, or
    (``on_resign = forfeit``, or nobody left to play) the match is abandoned."""

    def resign() -> LoadedMatch:
        loaded = match_load(match_id=match_id)
        match = loaded.match
        seat = _own_seat(loaded.seats, user)
        change = Change()
        if match.status == Match.Status.WAITING:
            assert seat.player is not None  # the user's own seat, read with their profile
            change.feed += _seat_news(loaded, "player_left", seat.index, seat.player)
            seat.player = None
            change.seat_changed(seat, "player")
            advance(loaded, [], change)
            return loaded
        if match.status != Match.Status.ACTIVE:
            raise errors.MatchNotActive.now(match.status)
        seat.resigned = True
        change.seat_changed(seat, "resigned")
        ending = None
        if match.on_resign == "forfeit" or all(s.resigned or s.is_bot for s in loaded.seats):
            resigned = [s.index for s in loaded.seats if s.resigned]
            ending = Abandon({"abandoned": True, "resigned": resigned})
        elif match.on_resign == "bot":  # no bot for a match that ends here: it plays no move
            seat.bot_strategy = REPLACEMENT_BOT
            change.seat_changed(seat, "bot_strategy")
        events = [protocol.Event("resign", seat.index, {"replaced_by": seat.bot_strategy or None})]
        advance(loaded, events, change, transition=ending)
        return loaded

    return retrying(resign)


def stalled_matches(*, quiet_for: timedelta) -> list[tuple[str, int, int]]:
    """(what is due, match id, version) of every match whose next step is background work that
    shows no progress: a bot to move for ``quiet_for``, a turn clock that has run out, or the
    record deals of a match that ended ``quiet_for`` ago (within ``RECORD_DEALS_SWEPT_FOR``) not
    kept. Finding them again is what makes a lost task (a dead worker, a broker that was down, a
    publish that failed) harmless."""
    now = timezone.now()
    active = Match.objects.filter(status=Match.Status.ACTIVE)
    bots_due = active.filter(bot_to_move=True, updated_at__lte=now - quiet_for)
    clocks_due = active.filter(turn_deadline__lte=now)
    records_due = Match.objects.filter(
        finished_at__gte=now - RECORD_DEALS_SWEPT_FOR,
        finished_at__lte=now - quiet_for,
        record_deals__isnull=True,
    )
    return [
        *(("bot_to_move", pk, v) for pk, v in bots_due.values_list("pk", "version")),
        *(("clock_overdue", pk, v) for pk, v in clocks_due.values_list("pk", "version")),
        *(("record_deals", pk, v) for pk, v in records_due.values_list("pk", "version")),
    ]


def _own_seat(seats: Sequence[Seat], user: User) -> Seat:
    seat = next((s for s in seats if s.player_id == user.pk and not s.resigned), None)
    if seat is None:
        raise errors.NotSeated(gettext("You have no seat in this match."))
    return seat


def match_abandon(*, match_id: int, reason: str) -> LoadedMatch:
    """Staff end an active match that will not be played out (a tournament table whose result the
    desk adjudicates): abandoned with a ``match_end`` event saying why, and its players told
    through the one pipeline (their feeds get ``match_end``, as when everyone resigns)."""

    def abandon() -> LoadedMatch:
        loaded = match_load(match_id=match_id)
        match = loaded.match
        if match.status != Match.Status.ACTIVE:
            raise errors.MatchNotActive.now(match.status)
        advance(loaded, [], transition=Abandon({"abandoned": True, "reason": reason}))
        return loaded

    return retrying(abandon)
