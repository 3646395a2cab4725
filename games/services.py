"""Every write of the match service.

Every way a match changes — a human's move, a bot's move, a turn clock's default, a resignation, a
seat taken or freed, the first deal — goes through one pipeline, :func:`_advance`: it reveals the
seeds of finished deals, deals on, finishes the match, restarts the turn clock, writes the new state
and events, fills the players' feeds and, after commit, hands the next turn to whoever plays it.

Writes are optimistic: a match is read without a lock (:func:`selectors.match_in_play`), the
change is worked out in memory, and the write is an ``UPDATE … WHERE version = <read version>``
that takes the row lock for the rest of a short transaction, with the events and feed entries in
the same statement on PostgreSQL (:mod:`games.recording`). If someone else changed the match in
between, the update finds no row, the transaction is rolled back and the whole operation is tried
again from a fresh read (:func:`_retrying`), so nothing waits on a lock while a bot thinks. A
refused action raises a :class:`ServiceError` (or an engine error) and writes nothing.
"""

from __future__ import annotations

import secrets
import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any, TypeVar

from django.conf import settings
from django.contrib.auth import authenticate, get_user_model
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from rest_framework.authtoken.models import Token

from games import bots, errors, signals
from games.models import Challenge, Invitation, Match, MatchEvent, Player, Seat
from games.recording import Advance, FeedEntry, advance_write, feed_append
from games.replay import DEAL_END_EVENTS, turn_defaults
from games.rules import catalog, protocol
from games.rules.shuffle import seed_commitment
from games.selectors import MatchInPlay, match_in_play, match_view
from switchsite.tasks import publish_after_commit

RESIGN_POLICIES = ("bot", "forfeit")
# Who plays on for a player who resigns or runs out of time three times (both games have one).
REPLACEMENT_BOT = "heuristic"
STRIKES_BEFORE_TAKEOVER = 3
# How often an operation is tried again when the match changed under it before it gives up with
# 409 ``match_busy`` (only a match changed many times a second by others gets there).
WRITE_ATTEMPTS = 5

Result = TypeVar("Result")


class _MatchChanged(Exception):
    """The match's version moved between the read and the write: start again from a fresh read."""


@dataclass
class MoveResult:
    """What a move request did: the events it produced and the match as it left it."""

    play: MatchInPlay
    seat: int
    events: list[MatchEvent]


@dataclass
class _Change:
    """What an operation does to a match, besides what the engine did: seats it changed and feed
    entries it adds (``your_turn`` and ``match_end`` are added by the pipeline itself)."""

    seats: dict[int, list[str]] = field(default_factory=dict)  # seat index → changed fields
    feed: list[FeedEntry] = field(default_factory=list)

    def seat_changed(self, seat: Seat, *fields: str) -> None:
        self.seats.setdefault(seat.index, []).extend(fields)


# --- players -------------------------------------------------------------------------------------


def player_register(*, username: str, password: str) -> tuple[User, str]:
    """Create a user with a game profile and an API token; returns the user and the token key.

    The username is stored in NFKC form and compared case-folded, so look-alikes made of
    full-width letters or of another case are the same name (and refused as taken).
    """
    if not settings.REGISTRATION_OPEN:
        raise errors.RegistrationClosed("Registration is closed on this server.")
    username = unicodedata.normalize("NFKC", username)
    key = name_key(username)
    user_model = get_user_model()
    taken = errors.UsernameTaken(f"The username {username!r} is taken.")
    if (
        Player.objects.filter(name_key=key).exists()
        or user_model.objects.filter(username__iexact=username).exists()
    ):
        raise taken
    try:
        with transaction.atomic():
            user = user_model.objects.create_user(username=username, password=password)
            Player.objects.create(user=user, name_key=key)
            token = Token.objects.create(user=user)
    except IntegrityError:
        raise taken from None
    return user, token.key


def name_key(username: str) -> str:
    """A username as compared for uniqueness: NFKC, case-folded, NFKC again."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", username).casefold())


def token_obtain(*, username: str, password: str, rotate: bool = False) -> str:
    """The API token of the user with these credentials; with ``rotate``, a new one that replaces
    (and so revokes) the old one."""
    user = authenticate(username=username, password=password)
    if user is None:
        raise errors.InvalidCredentials("The username or password is wrong.")
    with transaction.atomic():
        if rotate:
            Token.objects.filter(user=user).delete()
        token, _ = Token.objects.get_or_create(user=user)
    return token.key


def tokens_revoke(*, user: User) -> None:
    """Revoke the user's API tokens (their password changed: the old credentials are void)."""
    Token.objects.filter(user=user).delete()


def player_profile(*, user: User) -> Player:
    """The user's game profile, created on first use (for users made in the admin)."""
    player, _ = Player.objects.get_or_create(user=user)
    player.user = user  # the caller's own object: else reading it back would cost a query
    return player


def player_notify(
    *, user_id: int, event_type: str, match: Match | None, data: dict[str, Any]
) -> None:
    """Append one entry to a player's own feed (``round_seated``, …)."""
    feed_append([FeedEntry(user_id, event_type, match.pk if match else None, data)])


# --- matches -------------------------------------------------------------------------------------


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
) -> Match:
    """A new match waiting for players.

    The creator takes seat 0 unless ``players`` says who sits where (``None`` for a seat left to a
    bot or to someone who joins later) — as tournaments and challenges seat their tables. With
    ``auto_start`` the match starts by itself when its last seat is taken.
    """
    info = catalog.find_ruleset(ruleset)
    game = catalog.new_game(ruleset, seats, options, deals=deals, target=target)
    if players is None:
        players = [creator, *[None] * (seats - 1)]
    if len(players) != seats:
        raise protocol.InvalidOptions(f"{len(players)} players given for {seats} seats")
    bot_seats = _validated_bots(bots_wanted, seated=players, game=info.game)
    if layout is not None:
        if not creator.is_staff:
            raise errors.LayoutForbidden("Only staff may fix a layout.")
        game.copy().deal(secrets.token_bytes(32), layout)  # raises InvalidLayout
    if on_resign not in RESIGN_POLICIES:
        raise protocol.InvalidOptions(f"on_resign must be one of {', '.join(RESIGN_POLICIES)}")

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
    return match


def _validated_bots(
    wanted: Sequence[Mapping[str, Any]], *, seated: Sequence[User | None], game: str
) -> dict[int, str]:
    chosen: dict[int, str] = {}
    for bot in wanted:
        seat, strategy = bot.get("seat"), bot.get("strategy")
        if not isinstance(seat, int) or not 0 <= seat < len(seated) or seated[seat] is not None:
            free = [index for index, user in enumerate(seated) if user is None]
            raise errors.InvalidBots(f"a bot's seat must be a free seat: one of {free}")
        if seat in chosen:
            raise errors.InvalidBots(f"seat {seat} is given two bots")
        name = bots.strategy_named(game, strategy)
        if name is None:
            known = ", ".join(bots.strategies_for(game))
            raise errors.InvalidBots(f"unknown bot strategy {strategy!r}; known: {known}")
        chosen[seat] = name
    return chosen


def match_join(*, match_id: int, user: User, seat: int | None = None) -> MatchInPlay:
    """Take a free seat (the first, or the one asked for) of a match that has not started. The
    players already seated hear of it; a match made to ``auto_start`` starts when it is full."""
    player_profile(user=user)

    def join() -> MatchInPlay:
        play = match_in_play(match_id=match_id)
        if play.match.status != Match.Status.WAITING:
            raise errors.MatchStarted("The match has already started.")
        if any(s.player_id == user.pk for s in play.seats):
            raise errors.AlreadySeated("You already have a seat in this match.")
        free = _free_seats(play)
        if not free:
            raise errors.MatchFull("Every seat of this match is taken.")
        chosen = free[0]
        if seat is not None:
            asked = next((s for s in free if s.index == seat), None)
            if asked is None:
                if not 0 <= seat < play.match.seat_count:
                    raise protocol.InvalidAction(
                        f"seat must be between 0 and {play.match.seat_count - 1}"
                    )
                raise errors.SeatTaken(f"Seat {seat} is taken.")
            chosen = asked
        change = _Change(feed=_seat_news(play, "player_joined", chosen.index, user))
        chosen.player = user
        change.seat_changed(chosen, "player")
        events = []
        if play.match.auto_start and not _free_seats(play):
            events = _start(play, change)
        _advance(play, events, change)
        return play

    return _retrying(join)


def match_start(*, match_id: int, user: User) -> MatchInPlay:
    """Deal the first hand. Only the creator or staff may start, once every seat is filled."""

    def start() -> MatchInPlay:
        play = match_in_play(match_id=match_id)
        if play.match.created_by_id != user.pk and not user.is_staff:
            raise errors.NotMatchCreator("Only the match's creator (or staff) may start it.")
        if play.match.status != Match.Status.WAITING:
            raise errors.MatchStarted("The match has already started.")
        empty = [s.index for s in _free_seats(play)]
        if empty:
            raise errors.SeatsEmpty(f"Seats {empty} are still empty.")
        change = _Change()
        _advance(play, _start(play, change), change)
        return play

    return _retrying(start)


def _start(play: MatchInPlay, change: _Change) -> list[protocol.Event]:
    """Make the match active and deal its first hand; every seated player hears it started."""
    match = play.match
    match.status = Match.Status.ACTIVE
    change.feed += [
        FeedEntry(s.player_id, "match_started", match.pk, {"seat": s.index})
        for s in play.seats
        if s.player_id is not None
    ]
    return _deal(match, play.game, layout=match.layout)


def _free_seats(play: MatchInPlay) -> list[Seat]:
    return [s for s in play.seats if s.player_id is None and not s.is_bot]


def _seat_news(play: MatchInPlay, news: str, seat: int, user: User) -> list[FeedEntry]:
    """``player_joined`` / ``player_left`` for every other player seated at a waiting match."""
    data = {"seat": seat, "player": user.get_username()}
    return [
        FeedEntry(s.player_id, news, play.match.pk, data)
        for s in play.seats
        if s.player_id is not None and s.player_id != user.pk
    ]


def move_apply(
    *,
    match_id: int,
    user: User,
    action: Mapping[str, Any],
    expected_version: int | None = None,
) -> MoveResult:
    """Apply one action of the user's seat. A refused action raises and writes nothing."""

    def move() -> MoveResult:
        play = match_in_play(match_id=match_id)
        seat = _own_seat(play.seats, user)
        if play.match.status != Match.Status.ACTIVE:
            raise errors.MatchNotActive(f"The match is {play.match.status}.")
        if expected_version is not None and expected_version != play.read_version:
            raise errors.StaleVersion(
                f"expected_version is {expected_version} but the match is at version "
                f"{play.read_version}."
            )
        if play.game.to_move != seat.index:
            raise errors.NotYourTurn(f"It is seat {play.game.to_move}'s turn, not yours.")
        records = _advance(play, play.game.apply(action))
        return MoveResult(play=play, seat=seat.index, events=records)

    return _retrying(move)


def bot_turns_play(*, match_id: int, limit: int | None = None) -> tuple[int, bool]:
    """Play the bot seats to move, one move per short transaction, up to ``limit`` moves.

    A bot chooses from an unlocked read and its move is written only if the match has not changed
    meanwhile; if it has, the match is read again and the bot to move (if any) chooses again. So a
    task delivered twice, late or for a match someone else moved on does no harm. Returns the moves
    played and whether a bot is still to move (the caller hands that on).
    """
    played = 0
    play = match_in_play(match_id=match_id)
    while (seat := play.seat_to_move) is not None and seat.is_bot:
        if limit is not None and played >= limit:
            return played, True
        match = play.match
        action = bots.choose_action(
            seat.bot_strategy,
            game=match.game,
            view=play.game.view(seat.index),
            facts=bots.MatchFacts(match.ruleset, match.seat_count, seat.index, match.options),
            seed=f"{match.pk}:{match.version}",
        )
        try:
            with transaction.atomic():
                _advance(play, play.game.apply(action), continue_bots=False)
        except _MatchChanged:
            play = match_in_play(match_id=match_id)
            continue
        played += 1
    return played, False


def turn_timeout_apply(*, match_id: int) -> bool:
    """The turn clock ran out: play the default action for the seat to move and count a strike.

    After ``STRIKES_BEFORE_TAKEOVER`` strikes in a match a bot takes the seat for the rest of it.
    Returns False (writing nothing) unless the match's clock has really run out now — so duplicate
    and late deliveries are harmless.
    """

    def timeout() -> bool:
        play = match_in_play(match_id=match_id)
        match, game = play.match, play.game
        deadline = match.turn_deadline
        mover = play.seat_to_move
        if mover is None or deadline is None or timezone.now() < deadline:
            return False
        seat = mover
        seat.strikes += 1
        change = _Change()
        change.seat_changed(seat, "strikes")
        events = [protocol.Event("timeout", seat.index, {"strikes": seat.strikes})]
        for _, defaults in turn_defaults(game):
            events += defaults
        if seat.strikes >= STRIKES_BEFORE_TAKEOVER and not seat.is_bot:
            seat.bot_strategy = REPLACEMENT_BOT
            change.seat_changed(seat, "bot_strategy")
            events.append(protocol.Event("bot_takeover", seat.index, {"strategy": REPLACEMENT_BOT}))
        _advance(play, events, change)
        return True

    return _retrying(timeout)


def match_resign(*, match_id: int, user: User) -> MatchInPlay:
    """The user leaves: before the start the seat is freed; after it a bot takes the seat, or
    (``on_resign = forfeit``, or nobody left to play) the match is abandoned."""

    def resign() -> MatchInPlay:
        play = match_in_play(match_id=match_id)
        match = play.match
        seat = _own_seat(play.seats, user)
        change = _Change()
        if match.status == Match.Status.WAITING:
            change.feed += _seat_news(play, "player_left", seat.index, user)
            seat.player = None
            change.seat_changed(seat, "player")
            _advance(play, [], change)
            return play
        if match.status != Match.Status.ACTIVE:
            raise errors.MatchNotActive(f"The match is {match.status}.")
        seat.resigned = True
        change.seat_changed(seat, "resigned")
        if match.on_resign == "bot":
            seat.bot_strategy = REPLACEMENT_BOT
            change.seat_changed(seat, "bot_strategy")
        events = [protocol.Event("resign", seat.index, {"replaced_by": seat.bot_strategy or None})]
        if match.on_resign == "forfeit" or all(s.resigned or s.is_bot for s in play.seats):
            match.status = Match.Status.ABANDONED
            match.finished_at = timezone.now()
            match.result = {
                "abandoned": True,
                "resigned": [s.index for s in play.seats if s.resigned],
            }
        _advance(play, events, change)
        return play

    return _retrying(resign)


# --- challenges ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class MatchSettings:
    """What a challenge proposes: everything a match is created with, but who sits where."""

    ruleset: str
    seats: int
    options: Mapping[str, Any] = field(default_factory=dict)
    bots: Sequence[Mapping[str, Any]] = ()
    deals: int = 1
    target: int | None = None
    turn_seconds: int | None = None


def challenge_create(
    *, challenger: User, invitees: Sequence[str], settings: MatchSettings
) -> Challenge:
    """Invite players by username to a match: the challenger will sit at seat 0, the invitees at
    seats 1, 2, … in the order given, bots at the seats ``bots`` names — exactly the rest."""
    users = _invitees(challenger, invitees)
    humans = 1 + len(users)
    bot_seats = sorted(bot["seat"] for bot in settings.bots)
    if bot_seats != list(range(humans, settings.seats)):
        raise errors.InvalidChallenge(
            f"{settings.seats} seats: you at seat 0 and {len(users)} invitees at seats 1 to "
            f"{humans - 1} leave seats {list(range(humans, settings.seats))} for bots, but the "
            f"bots are at {bot_seats}"
        )
    info = catalog.find_ruleset(settings.ruleset)
    catalog.new_game(
        settings.ruleset,
        settings.seats,
        settings.options,
        deals=settings.deals,
        target=settings.target,
    )
    _validated_bots(settings.bots, seated=[None] * settings.seats, game=info.game)
    with transaction.atomic():
        challenge = Challenge.objects.create(
            challenger=challenger,
            ruleset=settings.ruleset,
            seat_count=settings.seats,
            options=dict(settings.options),
            bots=[dict(bot) for bot in settings.bots],
            deals=settings.deals,
            target=settings.target,
            turn_seconds=settings.turn_seconds,
        )
        Invitation.objects.bulk_create(
            Invitation(challenge=challenge, player=user, seat=seat)
            for seat, user in enumerate(users, start=1)
        )
        data = {
            "challenge": challenge.pk,
            "from": challenger.get_username(),
            "ruleset": settings.ruleset,
        }
        feed_append([FeedEntry(user.pk, "challenge", None, data) for user in users])
    return challenge


def _invitees(challenger: User, usernames: Sequence[str]) -> list[User]:
    if not usernames:
        raise errors.InvalidChallenge("Invite at least one player (for bots only, create a match).")
    if len(set(usernames)) != len(usernames):
        raise errors.InvalidChallenge("Each player can be invited once.")
    found = {u.get_username(): u for u in get_user_model().objects.filter(username__in=usernames)}
    unknown = [name for name in usernames if name not in found]
    if unknown:
        raise errors.InvalidChallenge(f"No such players: {', '.join(unknown)}.")
    if challenger.get_username() in found:
        raise errors.InvalidChallenge("You cannot challenge yourself.")
    users = [found[name] for name in usernames]
    for user in users:
        player_profile(user=user)
    return users


def challenge_answer(*, challenge_id: int, user: User, accept: bool) -> Challenge:
    """An invitee accepts or declines. The last acceptance creates and starts the match (every
    player hears ``match_started``); a decline ends the challenge and tells the others."""
    with transaction.atomic():
        challenge = _pending_challenge(challenge_id, user)
        invitation = next((i for i in challenge.invitations.all() if i.player_id == user.pk), None)
        if invitation is None:
            raise errors.NotInvited("Only an invitee can accept or decline; you may cancel it.")
        invitation.answer = Invitation.Answer.ACCEPTED if accept else Invitation.Answer.DECLINED
        invitation.answered_at = timezone.now()
        invitation.save(update_fields=["answer", "answered_at"])
        if not accept:
            _challenge_end(challenge, Challenge.Status.DECLINED, user, "challenge_declined")
        elif all(i.answer == Invitation.Answer.ACCEPTED for i in challenge.invitations.all()):
            challenge.match = _challenge_match(challenge)
            challenge.status = Challenge.Status.ACCEPTED
            challenge.ended_at = timezone.now()
            challenge.save(update_fields=["match", "status", "ended_at"])
    return challenge


def challenge_cancel(*, challenge_id: int, user: User) -> Challenge:
    """The challenger withdraws the challenge; the invitees hear ``challenge_cancelled``."""
    with transaction.atomic():
        challenge = _pending_challenge(challenge_id, user)
        if challenge.challenger_id != user.pk:
            raise errors.NotChallenger("Only the challenger can cancel; you may decline it.")
        _challenge_end(challenge, Challenge.Status.CANCELLED, user, "challenge_cancelled")
    return challenge


def _pending_challenge(challenge_id: int, user: User) -> Challenge:
    """The challenge, locked, if the user takes part in it and it is still pending."""
    taking_part = Q(challenger=user) | Q(
        pk__in=Invitation.objects.filter(player=user).values("challenge")
    )
    challenge = Challenge.objects.select_for_update().filter(taking_part, pk=challenge_id).first()
    if challenge is None:
        raise errors.ChallengeNotFound(f"You have no challenge {challenge_id}.")
    if challenge.status != Challenge.Status.PENDING:
        raise errors.ChallengeNotPending(f"The challenge is {challenge.status}.")
    return challenge


def _challenge_end(challenge: Challenge, status: str, by: User, news: str) -> None:
    challenge.status = status
    challenge.ended_at = timezone.now()
    challenge.save(update_fields=["status", "ended_at"])
    others = {challenge.challenger_id, *(i.player_id for i in challenge.invitations.all())}
    others.discard(by.pk)
    data = {"challenge": challenge.pk, "player": by.get_username()}
    feed_append([FeedEntry(user_id, news, None, data) for user_id in sorted(others)])


def _challenge_match(challenge: Challenge) -> Match:
    invitations = list(challenge.invitations.select_related("player"))
    players: list[User | None] = [challenge.challenger, *(i.player for i in invitations)]
    players += [None] * (challenge.seat_count - len(players))
    match = match_create(
        creator=challenge.challenger,
        ruleset=challenge.ruleset,
        seats=challenge.seat_count,
        options=challenge.options,
        bots_wanted=challenge.bots,
        deals=challenge.deals,
        target=challenge.target,
        turn_seconds=challenge.turn_seconds,
        players=players,
    )
    return match_start(match_id=match.pk, user=challenge.challenger).match


def stalled_matches(*, quiet_for: timedelta) -> list[tuple[str, int, int]]:
    """(what is due, match id, version) of every active match whose next step is background work
    that shows no progress: a bot to move for ``quiet_for``, or a turn clock that has run out.
    Finding them again is what makes a lost task (a dead worker, a broker that was down, a publish
    that failed) harmless."""
    now = timezone.now()
    active = Match.objects.filter(status=Match.Status.ACTIVE)
    bots_due = active.filter(bot_to_move=True, updated_at__lte=now - quiet_for)
    clocks_due = active.filter(turn_deadline__lte=now)
    return [
        *(("bot_to_move", pk, v) for pk, v in bots_due.values_list("pk", "version")),
        *(("clock_overdue", pk, v) for pk, v in clocks_due.values_list("pk", "version")),
    ]


# --- the pipeline --------------------------------------------------------------------------------


def _retrying(operation: Callable[[], Result]) -> Result:
    """Run ``operation`` in a transaction, again from the start while the match changes under it."""
    for _ in range(WRITE_ATTEMPTS):
        try:
            with transaction.atomic():
                return operation()
        except _MatchChanged:
            continue
    raise errors.MatchBusy("The match is changing too fast; try again.", retry_after=1)


def _own_seat(seats: Sequence[Seat], user: User) -> Seat:
    seat = next((s for s in seats if s.player_id == user.pk and not s.resigned), None)
    if seat is None:
        raise errors.NotSeated("You have no seat in this match.")
    return seat


def _deal(
    match: Match, game: protocol.GameState, layout: Mapping[str, Any] | None = None
) -> list[protocol.Event]:
    """Deal from a fresh secret seed; the deal event carries the seed's public commitment."""
    seed = secrets.token_bytes(32)
    match.deal_seed = seed.hex()
    match.deal_number += 1
    commitment = seed_commitment(seed)
    return [
        e.with_data(shuffle_commitment=commitment) if e.type == "deal" else e
        for e in game.deal(seed, layout)
    ]


def _advance(
    play: MatchInPlay,
    events: Iterable[protocol.Event],
    change: _Change | None = None,
    *,
    continue_bots: bool = True,
) -> list[MatchEvent]:
    """Record what happened to a match and carry it on; must run inside a transaction.

    Reveals the seed of a deal that ended, deals the next one, finishes the match when the engine
    says it is over, restarts the turn clock when a new turn began, writes the state (only if the
    match is still at the version it was read at, else :class:`_MatchChanged`), the changed seats
    and the events, puts ``your_turn`` and ``match_end`` in the players' feeds, and after commit
    hands a bot's turn to a worker (unless ``continue_bots`` is false: the caller is that worker)
    and tells whoever waits on a match's end. Returns the event records written.
    """
    match, game, seats = play.match, play.game, play.seats
    change = change or _Change()
    events = [e.with_data(seed=match.deal_seed) if e.type in DEAL_END_EVENTS else e for e in events]
    if match.status == Match.Status.ACTIVE and game.needs_deal and not game.is_over:
        events += _deal(match, game)
    if match.status == Match.Status.ACTIVE and game.is_over:
        outcome = game.outcome()
        assert outcome is not None  # the engine's promise once it is over
        match.status = Match.Status.FINISHED
        match.finished_at = timezone.now()
        match.result = outcome.to_json()
    ended = match.status in (Match.Status.FINISHED, Match.Status.ABANDONED)
    turn = game.turn_id if match.status == Match.Status.ACTIVE else None
    new_turn = turn is not None and game.to_move is not None and turn != play.read_turn
    if match.status == Match.Status.ACTIVE and match.turn_seconds and game.to_move is not None:
        if new_turn or match.turn_deadline is None:
            match.turn_deadline = timezone.now() + timedelta(seconds=match.turn_seconds)
    else:
        match.turn_deadline = None
    mover = play.seat_to_move
    match.bot_to_move = mover is not None and mover.is_bot
    match.version = play.read_version + 1
    match.state = game.to_dict()
    match.updated_at = timezone.now()
    records = []
    for event in events:
        match.last_event_seq += 1
        records.append(
            MatchEvent(
                match=match,
                seq=match.last_event_seq,
                type=event.type,
                seat=event.seat,
                data=event.data,
                private=event.private,
            )
        )
    read_version = play.read_version
    play.read_version, play.read_turn = match.version, game.turn_id
    feed = list(change.feed)
    if new_turn and mover is not None and mover.player_id is not None and not mover.resigned:
        view = match_view(play=play, seat=mover.index)
        feed.append(
            FeedEntry(
                mover.player_id,
                "your_turn",
                match.pk,
                {"seat": mover.index, "version": match.version, "view": view},
            )
        )
    if ended:
        end = (
            {"result": match.result}
            if match.status == Match.Status.FINISHED
            else {"abandoned": True}
        )
        feed += [
            FeedEntry(s.player_id, "match_end", match.pk, end)
            for s in seats
            if s.player_id is not None and not s.resigned
        ]
    if not advance_write(Advance(match, read_version, _MATCH_FIELDS_ADVANCED, records, feed)):
        raise _MatchChanged
    for index, fields in change.seats.items():
        seat = seats[index]
        Seat.objects.filter(pk=seat.pk).update(**{name: getattr(seat, name) for name in fields})
    if ended:
        match_id = match.pk
        transaction.on_commit(lambda: signals.match_finished.send(sender=Match, match_id=match_id))
    if continue_bots and match.bot_to_move:
        from games import tasks  # tasks import this module

        publish_after_commit(tasks.play_bot_turns, match.pk)
    return records


# The match fields the pipeline may change (the conditional update writes exactly these).
_MATCH_FIELDS_ADVANCED = (
    "status",
    "version",
    "deal_number",
    "deal_seed",
    "state",
    "turn_deadline",
    "bot_to_move",
    "last_event_seq",
    "result",
    "finished_at",
    "updated_at",
)


def match_abandon(*, match_id: int, reason: str) -> MatchInPlay:
    """Staff end an active match that will not be played out (a tournament table whose result the
    desk adjudicates): abandoned with a ``match_end`` event saying why, and its players told
    through the one pipeline (their feeds get ``match_end``, as when everyone resigns)."""

    def abandon() -> MatchInPlay:
        play = match_in_play(match_id=match_id)
        match = play.match
        if match.status != Match.Status.ACTIVE:
            raise errors.MatchNotActive(f"The match is {match.status}.")
        ended = {"abandoned": True, "reason": reason}
        match.status = Match.Status.ABANDONED
        match.finished_at = timezone.now()
        match.result = ended
        _advance(play, [protocol.Event("match_end", None, ended)])
        return play

    return _retrying(abandon)
