"""Every write of the match service.

Each public function is one transaction that locks the match row (``select_for_update``), asks the
engine, and writes the new state and its events together — or raises a :class:`ServiceError` and
writes nothing. Follow-up work (a bot's turn, a turn clock) is enqueued only after commit.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import authenticate, get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.utils import timezone
from rest_framework.authtoken.models import Token

from games import bots, catalog, errors, signals
from games.engine import protocol
from games.engine.rng import seed_commitment
from games.models import FeedEvent, Match, MatchEvent, Player, Seat

# Events that close a deal (shedding) or a hand (Abbott): the deal's secret seed is revealed in them.
DEAL_END_EVENTS = frozenset({"deal_end", "hand_end"})
RESIGN_POLICIES = ("bot", "forfeit")
# Who plays on for a player who resigns or runs out of time three times (both games have one).
REPLACEMENT_BOT = "heuristic"
STRIKES_BEFORE_TAKEOVER = 3
# A bound on the default actions a timed-out turn takes (a turn needs a few: draw, play, end turn;
# a queen covered by queens one more each), so that an engine bug cannot hang a worker.
MAX_TIMEOUT_ACTIONS = 20


@dataclass(frozen=True)
class MoveResult:
    match: Match
    seat: int
    events: list[MatchEvent]


# --- players ---------------------------------------------------------------------------------


def player_register(*, username: str, password: str) -> tuple[AbstractBaseUser, str]:
    """Create a user with a game profile and an API token; returns the user and the token key."""
    if not settings.REGISTRATION_OPEN:
        raise errors.RegistrationClosed("Registration is closed on this server.")
    user_model = get_user_model()
    if user_model.objects.filter(username__iexact=username).exists():
        raise errors.UsernameTaken(f"The username {username!r} is taken.")
    try:
        with transaction.atomic():
            user = user_model.objects.create_user(username=username, password=password)
            Player.objects.create(user=user)
            token = Token.objects.create(user=user)
    except IntegrityError:
        raise errors.UsernameTaken(f"The username {username!r} is taken.") from None
    return user, token.key


def token_obtain(*, username: str, password: str) -> str:
    """The API token of the user with these credentials."""
    user = authenticate(username=username, password=password)
    if user is None:
        raise errors.InvalidCredentials("The username or password is wrong.")
    token, _ = Token.objects.get_or_create(user=user)
    return token.key


def player_profile(*, user: AbstractBaseUser) -> Player:
    """The user's game profile, created on first use (for users made in the admin)."""
    player, _ = Player.objects.get_or_create(user=user)
    return player


def player_notify(
    *, user_id: int, event_type: str, match: Match | None, data: dict[str, Any]
) -> None:
    """Append to a player's own feed (``your_turn``, ``match_started``, ``round_seated``, …)."""
    player, _ = Player.objects.select_for_update().get_or_create(user_id=user_id)
    player.feed_seq += 1
    player.save(update_fields=["feed_seq"])
    FeedEvent.objects.create(
        player=player,
        seq=player.feed_seq,
        type=event_type,
        match=match,
        data={"match": match.pk if match else None, **data},
    )


# --- matches ---------------------------------------------------------------------------------


def match_create(
    *,
    creator: AbstractBaseUser,
    ruleset: str,
    seats: int,
    options: Mapping[str, Any] | None = None,
    bots_wanted: Sequence[Mapping[str, Any]] = (),
    deals: int = 1,
    target: int | None = None,
    turn_seconds: int | None = None,
    layout: Mapping[str, Any] | None = None,
    on_resign: str = "bot",
    players: Sequence[AbstractBaseUser | None] | None = None,
) -> Match:
    """A new match waiting for players.

    The creator takes seat 0 unless ``players`` says who sits where (``None`` for a seat left to a
    bot or to someone who joins later) — as tournaments seat their tables.
    """
    try:
        info = catalog.find_ruleset(ruleset)
    except catalog.UnknownRuleset as error:
        raise errors.InvalidRuleset(str(error)) from None
    try:
        game = catalog.new_game(ruleset, seats, options, deals=deals, target=target)
    except protocol.InvalidOptions as error:
        raise errors.InvalidOptions(str(error)) from None
    if players is None:
        players = [creator, *[None] * (seats - 1)]
    if len(players) != seats:
        raise errors.InvalidOptions(f"{len(players)} players given for {seats} seats")
    bot_seats = _validated_bots(bots_wanted, seated=players, game=info.game)
    if layout is not None:
        if not creator.is_staff:
            raise errors.LayoutForbidden("Only staff may fix a layout.")
        try:
            game.copy().deal(secrets.token_bytes(32), layout)
        except protocol.InvalidLayout as error:
            raise errors.InvalidLayout(str(error)) from None
    if on_resign not in RESIGN_POLICIES:
        raise errors.InvalidOptions(f"on_resign must be one of {', '.join(RESIGN_POLICIES)}")

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
    wanted: Sequence[Mapping[str, Any]], *, seated: Sequence[AbstractBaseUser | None], game: str
) -> dict[int, str]:
    chosen: dict[int, str] = {}
    for bot in wanted:
        seat, strategy = bot.get("seat"), bot.get("strategy")
        if not isinstance(seat, int) or not 0 <= seat < len(seated) or seated[seat] is not None:
            free = [index for index, user in enumerate(seated) if user is None]
            raise errors.InvalidBots(f"a bot's seat must be a free seat: one of {free}")
        if seat in chosen:
            raise errors.InvalidBots(f"seat {seat} is given two bots")
        if strategy not in bots.strategies_for(game):
            known = ", ".join(bots.strategies_for(game))
            raise errors.InvalidBots(f"unknown bot strategy {strategy!r}; known: {known}")
        chosen[seat] = strategy
    return chosen


def match_join(*, match_id: int, user: AbstractBaseUser, seat: int | None = None) -> Match:
    with transaction.atomic():
        match = _locked_match(match_id)
        if match.status != Match.Status.WAITING:
            raise errors.MatchStarted("The match has already started.")
        seats = list(match.seats.all())
        if any(s.player_id == user.pk for s in seats):
            raise errors.AlreadySeated("You already have a seat in this match.")
        free = [s for s in seats if s.player_id is None and not s.is_bot]
        if not free:
            raise errors.MatchFull("Every seat of this match is taken.")
        if seat is None:
            chosen = free[0]
        else:
            chosen = next((s for s in free if s.index == seat), None)
            if chosen is None:
                if not 0 <= seat < match.seat_count:
                    raise errors.InvalidAction(f"seat must be between 0 and {match.seat_count - 1}")
                raise errors.SeatTaken(f"Seat {seat} is taken.")
        player_profile(user=user)
        chosen.player = user
        chosen.save(update_fields=["player"])
    return match


def match_start(*, match_id: int, user: AbstractBaseUser) -> Match:
    """Deal the first hand. Only the creator or staff may start, once every seat is filled."""
    with transaction.atomic():
        match = _locked_match(match_id)
        if match.created_by_id != user.pk and not user.is_staff:
            raise errors.NotMatchCreator("Only the match's creator (or staff) may start it.")
        if match.status != Match.Status.WAITING:
            raise errors.MatchStarted("The match has already started.")
        seats = list(match.seats.all())
        empty = [s.index for s in seats if s.player_id is None and not s.is_bot]
        if empty:
            raise errors.SeatsEmpty(f"Seats {empty} are still empty.")
        game = catalog.load_game(match.game, match.state)
        match.status = Match.Status.ACTIVE
        events = _deal(match, game, layout=match.layout)
        _commit(match, game, events, seats=seats, previous_turn=None)
        for seat in seats:
            if seat.player_id is not None:
                player_notify(
                    user_id=seat.player_id,
                    event_type="match_started",
                    match=match,
                    data={"seat": seat.index},
                )
        _notify_turn(match, game, seats, previous_turn=None)
        _schedule_followups(match, game, seats)
    return match


def move_apply(
    *,
    match_id: int,
    user: AbstractBaseUser,
    action: Mapping[str, Any],
    expected_version: int | None = None,
) -> MoveResult:
    """Apply one action of the user's seat. A refused action raises and writes nothing."""
    with transaction.atomic():
        match = _locked_match(match_id)
        seats = list(match.seats.all())
        seat = _own_seat(seats, user)
        if match.status != Match.Status.ACTIVE:
            raise errors.MatchNotActive(f"The match is {match.status}.")
        if expected_version is not None and expected_version != match.version:
            raise errors.StaleVersion(
                f"expected_version is {expected_version} but the match is at version {match.version}."
            )
        game = catalog.load_game(match.game, match.state)
        if game.to_move != seat.index:
            raise errors.NotYourTurn(f"It is seat {game.to_move}'s turn, not yours.")
        turn = game.turn_id
        events = _engine_apply(game, action)
        records = _commit(match, game, events, seats=seats, previous_turn=turn)
        _notify_turn(match, game, seats, previous_turn=turn)
        _schedule_followups(match, game, seats)
    return MoveResult(match=match, seat=seat.index, events=records)


def bot_turn_apply(*, match_id: int, expected_version: int) -> bool:
    """Play the bot seat to move, if the match is still at ``expected_version``.

    Returns False (and writes nothing) when the work is already done or no longer wanted — a task
    delivered twice, or for a version the match has moved past.
    """
    with transaction.atomic():
        match = _locked_match(match_id)
        if match.status != Match.Status.ACTIVE or match.version != expected_version:
            return False
        game = catalog.load_game(match.game, match.state)
        seats = list(match.seats.all())
        seat = seats[game.to_move] if game.to_move is not None else None
        if seat is None or not seat.is_bot:
            return False
        action = bots.choose_action(
            seat.bot_strategy,
            game=match.game,
            view=game.view(seat.index),
            table=bots.Table(match.ruleset, match.seat_count, seat.index, match.options),
            seed=f"{match.pk}:{match.version}",
        )
        turn = game.turn_id
        events = _engine_apply(game, action)
        _commit(match, game, events, seats=seats, previous_turn=turn)
        _notify_turn(match, game, seats, previous_turn=turn)
        _schedule_followups(match, game, seats, from_bot_task=True)
    return True


def turn_timeout_apply(*, match_id: int, deadline: datetime) -> bool:
    """The turn clock ran out: play the default action for the seat to move and count a strike.

    After ``STRIKES_BEFORE_TAKEOVER`` strikes in a match a bot takes the seat for the rest of it.
    Returns False (writing nothing) unless the match is still waiting on this very ``deadline`` and
    it has passed — so duplicate and late deliveries are harmless.
    """
    with transaction.atomic():
        match = _locked_match(match_id)
        if (
            match.status != Match.Status.ACTIVE
            or match.turn_deadline != deadline
            or timezone.now() < deadline
        ):
            return False
        game = catalog.load_game(match.game, match.state)
        seats = list(match.seats.all())
        seat = seats[game.to_move]
        seat.strikes += 1
        events = [protocol.Event("timeout", seat.index, {"strikes": seat.strikes})]
        # The turn's time is up, so its default actions run to its end: after a draw that may be
        # followed by a play, say, the turn is ended too rather than left with a spent clock.
        turn = game.turn_id
        for _ in range(MAX_TIMEOUT_ACTIONS):
            events += _engine_apply(game, game.default_action())
            if game.turn_id != turn:
                break
        if seat.strikes >= STRIKES_BEFORE_TAKEOVER and not seat.is_bot:
            seat.bot_strategy = REPLACEMENT_BOT
            events.append(protocol.Event("bot_takeover", seat.index, {"strategy": REPLACEMENT_BOT}))
        seat.save(update_fields=["strikes", "bot_strategy"])
        _commit(match, game, events, seats=seats, previous_turn=turn)
        _notify_turn(match, game, seats, previous_turn=turn)
        _schedule_followups(match, game, seats)
    return True


def overdue_turns() -> list[tuple[int, datetime]]:
    """(match id, deadline) of every active match whose turn clock has run out."""
    return list(
        Match.objects.filter(
            status=Match.Status.ACTIVE, turn_deadline__lte=timezone.now()
        ).values_list("pk", "turn_deadline")
    )


def match_resign(*, match_id: int, user: AbstractBaseUser) -> Match:
    """The user leaves: a bot takes the seat, or (``on_resign = forfeit``) the match is abandoned."""
    with transaction.atomic():
        match = _locked_match(match_id)
        seats = list(match.seats.all())
        seat = _own_seat(seats, user)
        if match.status == Match.Status.WAITING:
            seat.player = None
            seat.save(update_fields=["player"])
            return match
        if match.status != Match.Status.ACTIVE:
            raise errors.MatchNotActive(f"The match is {match.status}.")
        game = catalog.load_game(match.game, match.state)
        seat.resigned = True
        if match.on_resign == "bot":
            seat.bot_strategy = REPLACEMENT_BOT
        events = [protocol.Event("resign", seat.index, {"replaced_by": seat.bot_strategy or None})]
        seat.save(update_fields=["resigned", "bot_strategy"])
        if match.on_resign == "forfeit" or all(s.resigned or s.is_bot for s in seats):
            match.status = Match.Status.ABANDONED
            match.finished_at = timezone.now()
            match.result = {"abandoned": True, "resigned": [s.index for s in seats if s.resigned]}
            _announce_finish(match.pk)
        _commit(match, game, events, seats=seats, previous_turn=game.turn_id)
        if match.status == Match.Status.ABANDONED:
            _notify_match_end(match, seats, {"abandoned": True})
        _schedule_followups(match, game, seats)
    return match


# --- internals -------------------------------------------------------------------------------


def _locked_match(match_id: int) -> Match:
    try:
        return Match.objects.select_for_update().get(pk=match_id)
    except Match.DoesNotExist:
        raise errors.MatchNotFound(f"There is no match {match_id}.") from None


def _own_seat(seats: Sequence[Seat], user: AbstractBaseUser) -> Seat:
    seat = next((s for s in seats if s.player_id == user.pk and not s.resigned), None)
    if seat is None:
        raise errors.NotSeated("You have no seat in this match.")
    return seat


def _engine_apply(game: protocol.GameState, action: Mapping[str, Any]) -> list[protocol.Event]:
    try:
        return game.apply(action)
    except protocol.InvalidAction as error:
        raise errors.InvalidAction(str(error)) from None
    except protocol.IllegalMove as error:
        raise errors.IllegalMove(error.reason) from None


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


def _commit(
    match: Match,
    game: protocol.GameState,
    events: Iterable[protocol.Event],
    *,
    seats: Sequence[Seat],
    previous_turn: tuple[int, int] | None,
) -> list[MatchEvent]:
    """Write the engine's new state and its events, dealing on and finishing as the engine says."""
    events = [e.with_data(seed=match.deal_seed) if e.type in DEAL_END_EVENTS else e for e in events]
    if match.status == Match.Status.ACTIVE and game.needs_deal and not game.is_over:
        events += _deal(match, game)
    if match.status == Match.Status.ACTIVE and game.is_over:
        match.status = Match.Status.FINISHED
        match.finished_at = timezone.now()
        match.result = game.outcome().to_json()
        _announce_finish(match.pk)
        _notify_match_end(match, seats, {"result": match.result})
    match.version += 1
    match.state = game.to_dict()
    if match.status == Match.Status.ACTIVE and match.turn_seconds and game.to_move is not None:
        if game.turn_id != previous_turn or match.turn_deadline is None:
            match.turn_deadline = timezone.now() + timedelta(seconds=match.turn_seconds)
            _start_turn_clock(match.pk, match.turn_deadline)
    else:
        match.turn_deadline = None
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
    MatchEvent.objects.bulk_create(records)
    match.save()
    return records


def _announce_finish(match_id: int) -> None:
    """Tell whoever listens (tournaments score their tables) once the match's end is committed."""
    transaction.on_commit(lambda: signals.match_finished.send(sender=Match, match_id=match_id))


def _notify_match_end(match: Match, seats: Sequence[Seat], data: dict[str, Any]) -> None:
    """Put ``match_end`` in the feed of every player still seated."""
    for seat in seats:
        if seat.player_id is not None and not seat.resigned:
            player_notify(user_id=seat.player_id, event_type="match_end", match=match, data=data)


def _start_turn_clock(match_id: int, deadline: datetime) -> None:
    from games import tasks  # tasks import this module

    transaction.on_commit(lambda: tasks.schedule_turn_clock(match_id, deadline))


def _notify_turn(
    match: Match,
    game: protocol.GameState,
    seats: Sequence[Seat],
    *,
    previous_turn: tuple[int, int] | None,
) -> None:
    to_move = game.to_move
    if match.status != Match.Status.ACTIVE or to_move is None or game.turn_id == previous_turn:
        return
    seat = seats[to_move]
    if seat.player_id is not None and not seat.resigned:
        player_notify(
            user_id=seat.player_id,
            event_type="your_turn",
            match=match,
            data={"seat": to_move, "version": match.version},
        )


def _schedule_followups(
    match: Match, game: protocol.GameState, seats: Sequence[Seat], *, from_bot_task: bool = False
) -> None:
    """After commit, hand a bot's turn to a worker (unless a bot task is already playing on)."""
    from games import tasks  # tasks import this module

    if match.status != Match.Status.ACTIVE or game.to_move is None:
        return
    match_id, version = match.pk, match.version
    if seats[game.to_move].is_bot and not from_bot_task:
        transaction.on_commit(lambda: tasks.play_bot_turns.delay(match_id, version))
