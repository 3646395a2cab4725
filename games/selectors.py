"""Reads: what each caller may see of matches, events and feeds.

Hidden information is a security property, so it is decided here and only here: a seat sees its
own cards and the public part of the game; drawn cards reach only the drawer; spectators see the
public part. Once a match is over its whole log may be revealed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth.models import User
from django.db.models import Count, Exists, F, OuterRef, Prefetch, Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext

from games import errors
from games._cached_sql import CachedSqlQuery
from games.models import (
    ArchivedLog,
    Challenge,
    FeedEvent,
    Invitation,
    Match,
    MatchEvent,
    Player,
    Presence,
    Rating,
    Seat,
    shown_name,
)
from switchgame import catalog, ratings
from switchgame.protocol import Event, GameState
from switchgame.shuffle import seed_commitment
from switchgame.words import quoted
from switchsite import incarnation
from switchsite.api.authentication import key_hash, seat_link_secret
from switchsite.models import ApiToken

REVEALED_STATUSES = frozenset({Match.Status.FINISHED, Match.Status.ABANDONED})


@dataclass
class LoadedMatch:
    """A match, its seats (in seat order, with their players) and its engine state, read together
    — whatever its status: a waiting match's, an active one's, a finished one's.

    What every write of the pipeline starts from and every view is built from. ``read_version`` is
    the match's version when it was read: a write succeeds only if the match is still there;
    ``read_turn`` the engine's turn then, so the pipeline can tell when a new turn began.
    """

    match: Match
    seats: list[Seat]
    game: GameState
    read_version: int
    read_turn: tuple[int, int]

    @property
    def seat_to_move(self) -> Seat | None:
        to_move = self.game.to_move
        if self.match.status != Match.Status.ACTIVE or to_move is None:
            return None
        return self.seats[to_move]


def match_get(*, match_id: int) -> Match:
    try:
        return Match.objects.select_related("created_by").get(pk=match_id)
    except Match.DoesNotExist:
        raise errors.MatchNotFound(
            gettext("There is no match %(match_id)s.") % {"match_id": match_id}
        ) from None


_seats_with_match = CachedSqlQuery(
    lambda match_id: (
        Seat.objects.filter(match_id=match_id)
        .select_related("match__created_by__player", "player__player")
        .order_by("index")
    )
)


def match_load(*, match_id: int) -> LoadedMatch:
    """The match with its seats, players and loaded game, in one query (its SQL built once per
    connection: every view and every move starts here)."""
    seats = _seats_with_match(match_id)
    if not seats:
        raise errors.MatchNotFound(
            gettext("There is no match %(match_id)s.") % {"match_id": match_id}
        )
    match = seats[0].match
    for seat in seats:
        seat.match = match  # one Match instance for all, so changes made through a seat are seen
    assert match.state is not None  # a match has its engine state from its creation on
    game = catalog.load_game(match.game, match.state)
    return LoadedMatch(
        match=match, seats=seats, game=game, read_version=match.version, read_turn=game.turn_id
    )


def viewer_seat(*, seats: Iterable[Seat], user: User) -> int | None:
    """The seat the user plays in this match, or None for a spectator."""
    return next(
        (s.index for s in seats if s.player_id == user.pk and not s.resigned),
        None,
    )


def match_list(
    *, user: User, status: str | None = None, mine: bool = False, open: bool = False
) -> QuerySet[Match]:
    """Matches newest first; ``mine``: those the user is seated in; ``open``: the lobby — waiting
    matches with a free seat for a player (not a practice match's: it is its creator's alone), in
    which the user is not seated."""
    matches = Match.objects.select_related("created_by__player").order_by("-created_at", "-pk")
    if status:
        matches = matches.filter(status=status)
    if mine:
        matches = matches.filter(seats__player=user).distinct()
    if open:
        free_seat = Seat.objects.filter(match=OuterRef("pk"), player__isnull=True, bot_strategy="")
        matches = matches.filter(status=Match.Status.WAITING, practice_seed="")
        matches = matches.filter(Exists(free_seat))
        matches = matches.exclude(seats__player=user)
    return matches


def match_view(*, loaded: LoadedMatch, seat: int | None) -> dict[str, Any]:
    """The match as ``seat`` (``None``: a spectator) may see it: the engine's view for that seat,
    plus the service's fields. Built from what is held, without reading anything."""
    match, game = loaded.match, loaded.game
    view: dict[str, Any] = {
        "id": match.pk,
        "ruleset": match.ruleset,
        "game": match.game,
        "options": match.options,
        "status": match.status,
        "version": match.version,
        "deal": match.deal_number,
        "seat_count": match.seat_count,
        "deals": match.deals,
        "target": match.target,
        "turn_seconds": match.turn_seconds,
        "rated": match.rated,
        "practice": bool(match.practice_seed),
        "turn_deadline": match.turn_deadline.isoformat() if match.turn_deadline else None,
        "created_by": match.created_by.get_username(),
        "created_by_bot_account": bot_account(match.created_by),
        "shuffle_commitment": seed_commitment(bytes.fromhex(match.deal_seed))
        if match.deal_seed
        else None,
        "result": match.result,
    }
    engine_seats: list[dict[str, Any]] = []
    if match.status != Match.Status.WAITING:
        engine_view = game.view(seat)
        if match.status != Match.Status.ACTIVE:  # finished or abandoned: nobody is to move
            engine_view["legal_moves"] = []
            engine_view["to_move"] = None
        engine_seats = engine_view.pop("seats", [])
        engine_view.pop("result", None)
        view.update(engine_view)
        view.setdefault("you", {"seat": seat} if seat is not None else None)
    else:
        # As the engines' views will say: a shedding seat holds a hand; an Abbott seat has none.
        you: dict[str, Any] = {"seat": seat}
        if match.game == Match.Game.SHEDDING:
            you["hand"] = []
        view.update({"to_move": None, "you": you if seat is not None else None})
        view["legal_moves"] = []
    view["seats"] = [
        {
            **(engine_seats[s.index] if s.index < len(engine_seats) else {"seat": s.index}),
            "player": s.player.get_username() if s.player else None,
            "name": shown_name(s.player.get_username()) if s.player else None,
            "bot": s.bot_strategy or None,
            "bot_account": bot_account(s.player),
            "resigned": s.resigned,
        }
        for s in loaded.seats
    ]
    return view


def bot_account(user: User | None) -> bool:
    """Whether ``user`` is a bot account (a program playing through the API); False for nobody.
    Reads the player's profile, which the caller's query joins (``…__player``)."""
    player = getattr(user, "player", None) if user is not None else None
    return player is not None and player.bot


def match_view_for(*, match_id: int, user: User) -> dict[str, Any]:
    """The match as ``user`` may see it now (one query)."""
    loaded = match_load(match_id=match_id)
    return match_view(loaded=loaded, seat=viewer_seat(seats=loaded.seats, user=user))


@dataclass(frozen=True)
class LogPage:
    """Events of a match's log as stored, before they are shown to anyone (:func:`events_seen`):
    what every waiter on the match reads alike, so that one read serves them all."""

    seats: tuple[Seat, ...]
    over: bool  # the match was finished or abandoned when read: its whole log may be revealed
    records: tuple[MatchEvent, ...]  # the events after the cursor, oldest first
    count: int | None  # how many there are after it (None: not counted)


def match_log_page(
    *, match_id: int, after: int, incarnation: str, limit: int, counted: bool = True
) -> LogPage:
    """Up to ``limit`` events of the match's log after ``after`` (a cursor of ``incarnation``:
    :func:`cursor_check`), and whether the match is over — read first, so that "over" implies
    that its last event is among those after it (a reader that waits reads the match again each
    time: its status decides what is revealed). Streams need no count, and save its query."""
    match = match_get(match_id=match_id)
    seats = tuple(match.seats.all())
    log = MatchEvent.objects.filter(match=match).order_by("seq")
    pending = log.filter(seq__gt=after)
    count = pending.count() if counted else None
    records = tuple(pending[:limit])
    cursor_check(
        Cursor(after, incarnation),
        first=records[0].seq if records else None,
        last=match.last_event_seq,
        oldest=lambda: log.values_list("seq", flat=True).first(),
    )
    return LogPage(seats, match.status in REVEALED_STATUSES, records, count)


def events_seen(page: LogPage, *, user: User) -> list[dict[str, Any]]:
    """The page's events as ``user`` may see them (no query)."""
    seat = viewer_seat(seats=page.seats, user=user)
    return [event_as_seen(e, seat=seat, reveal_all=page.over) for e in page.records]


@dataclass(frozen=True)
class Cursor:
    """A client's place in a match's log or a feed: the last ``seq`` it has, in the database
    ``incarnation`` that numbered it (:mod:`switchsite.incarnation`)."""

    after: int
    incarnation: str


def cursor_check(
    cursor: Cursor, *, first: int | None, last: int, oldest: Callable[[], int | None]
) -> None:
    """Raise ``CursorExpired`` when the events that follow ``cursor`` cannot be given: it is of
    another incarnation of the database (a restore numbered events again) or beyond ``last`` (the
    log's or feed's last ``seq`` now), or what follows it is gone (retention removed it: the first
    event found is not the next, or none is found though the log goes on to ``last``). Costs no
    query unless it raises: the caller has read the page and the counter; ``oldest()`` reads the
    first ``seq`` still kept."""
    now = incarnation.current()
    if cursor.incarnation != now:
        why = gettext("This cursor is of another incarnation of the database: it was restored.")
    elif cursor.after > last:
        why = gettext("This cursor is beyond the last event.")
    elif cursor.after < last if first is None else first > cursor.after + 1:
        why = gettext("The events after this cursor are no longer kept.")
    else:
        return
    kept = oldest() or last + 1
    bounds = gettext("The oldest event kept is %(oldest)s, the last %(last)s.")
    raise errors.CursorExpired(
        f"{why} {bounds % {'oldest': kept, 'last': last}}",
        oldest=kept,
        last=last,
        incarnation=now,
    )


def match_log(*, match: Match) -> list[dict[str, Any]]:
    """The match's whole event log as stored, oldest first (``{"seq", "type", "seat", "data",
    "private", "at"}``): its rows, or once retention removed them, its archived log. What a
    record or a replay of the match is built from."""
    archived = ArchivedLog.objects.filter(match=match).values_list("events", flat=True).first()
    if archived is not None:
        return list(archived)
    return [
        {
            "seq": e.seq,
            "type": e.type,
            "seat": e.seat,
            "data": e.data,
            "private": e.private,
            "at": e.created_at.isoformat(),
        }
        for e in MatchEvent.objects.filter(match=match).order_by("seq")
    ]


def event_as_seen(
    record: MatchEvent, *, seat: int | None, reveal_all: bool = False
) -> dict[str, Any]:
    event = Event(record.type, record.seat, record.data, record.private)
    seen = event.for_viewer(record.seat if reveal_all else seat)
    return {"seq": record.seq, "at": record.created_at.isoformat(), **seen}


def feed_events(
    *, player: Player, after: int, incarnation: str, limit: int, counted: bool = True
) -> tuple[list[dict[str, Any]], int | None]:
    """The player's feed after ``after`` (a cursor of ``incarnation``: :func:`cursor_check`),
    oldest first, and how many entries (if ``counted``)."""
    feed = FeedEvent.objects.filter(player=player).order_by("seq")
    pending = feed.filter(seq__gt=after)
    count = pending.count() if counted else None
    page = list(pending[:limit])
    # The profile was read when the request came; a stream's cursor moves on past its counter.
    last = max(player.feed_seq, page[-1].seq if page else 0)
    if after > last:
        last = Player.objects.filter(pk=player.pk).values_list("feed_seq", flat=True).get()
    cursor_check(
        Cursor(after, incarnation),
        first=page[0].seq if page else None,
        last=last,
        oldest=lambda: feed.values_list("seq", flat=True).first(),
    )
    return [feed_event_as_seen(e) for e in page], count


def feed_event_as_seen(record: FeedEvent) -> dict[str, Any]:
    """A feed entry as its owner (the only one who sees it) reads it."""
    return {
        "seq": record.seq,
        "at": record.created_at.isoformat(),
        "type": record.type,
        "match": record.match_id,
        "data": record.data,
    }


def player_summary(*, player: Player) -> dict[str, Any]:
    counts = Seat.objects.filter(player=player.user).aggregate(
        matches=Count("match", distinct=True),
        active=Count("match", filter=Q(match__status=Match.Status.ACTIVE), distinct=True),
        finished=Count("match", filter=Q(match__status=Match.Status.FINISHED), distinct=True),
    )
    return {
        "id": player.user.pk,
        "username": player.user.get_username(),
        "name": shown_name(player.user.get_username()),
        "rating": _shedding_rating(player.user_id),
        "matches": counts,
    }


def player_page(*, username: str) -> dict[str, Any]:
    """A player's public page: bot or not, ratings per game, matches played and won."""
    player = Player.objects.select_related("user").filter(user__username=username).first()
    if player is None:
        raise errors.PlayerNotFound(
            gettext("No player is called %(username)s.") % {"username": quoted(username)}
        )
    held = {r.game: r for r in Rating.objects.filter(holder=ratings.user_holder(player.user_id))}
    fresh = ratings.initial_rating()
    finished = Seat.objects.filter(player=player.user, match__status=Match.Status.FINISHED)
    won = sum(
        1
        for index, result in finished.values_list("index", "match__result")
        if result and result.get("winner") == index
    )
    return {
        "username": player.user.get_username(),
        "bot": player.bot,
        "created_at": player.created_at,
        "ratings": {game: _rating_shown(held.get(game), fresh) for game in Match.Game.values},
        "matches": {"played": finished.count(), "won": won},
    }


def _rating_shown(held: Rating | None, fresh: ratings.Rating) -> dict[str, float | int]:
    mu, sigma = (held.mu, held.sigma) if held else (fresh.mu, fresh.sigma)
    return {
        "rating": ratings.conservative_rating(mu, sigma),
        "mu": mu,
        "sigma": sigma,
        "games": held.games if held else 0,
    }


def player_matches(*, username: str, status: str | None = None) -> QuerySet[Match]:
    """A player's matches, newest first (404 for an unknown name)."""
    user = User.objects.filter(username=username, player__isnull=False).first()
    if user is None:
        raise errors.PlayerNotFound(
            gettext("No player is called %(username)s.") % {"username": quoted(username)}
        )
    matches = Match.objects.filter(seats__player=user).select_related("created_by__player")
    if status:
        matches = matches.filter(status=status)
    return matches.order_by("-created_at", "-pk")


# Rated matches a holder needs before the leaderboard shows them.
LEADERBOARD_MINIMUM_GAMES = 5


def leaderboard(*, game: str) -> QuerySet[Rating]:
    """The best ratings of a game (players and server bots with enough rated matches), best
    first: ordered by the ordinal μ − 3σ."""
    return (
        Rating.objects.filter(game=game, games__gte=LEADERBOARD_MINIMUM_GAMES)
        .filter(Q(user__isnull=False) | Q(holder__startswith="bot:"))
        .select_related("user__player")
        .annotate(ordinal=F("mu") - 3 * F("sigma"))
        .order_by("-ordinal", "holder")
    )


def leaderboard_row(rating: Rating) -> dict[str, Any]:
    return {
        "player": rating.user.get_username() if rating.user else rating.holder,
        "bot": rating.user.player.bot if rating.user else True,
        "rating": ratings.conservative_rating(rating.mu, rating.sigma),
        "games": rating.games,
    }


def _shedding_rating(user_id: int) -> dict[str, float]:
    held = Rating.objects.filter(holder=ratings.user_holder(user_id), game=Match.Game.SHEDDING)
    rating = held.first() or ratings.initial_rating()
    return {"mu": rating.mu, "sigma": rating.sigma}


def challenge_list(*, user: User, status: str | None = None) -> QuerySet[Challenge]:
    """The user's challenges, sent and received, newest first."""
    challenges = (
        Challenge.objects.filter(Q(challenger=user) | Q(invitations__player=user))
        .distinct()
        .select_related("challenger__player")
        .prefetch_related(
            Prefetch("invitations", queryset=Invitation.objects.select_related("player__player"))
        )
    )
    return challenges.filter(status=status) if status else challenges


def challenge_get(*, challenge_id: int, user: User) -> Challenge:
    """One of the user's challenges; others' are as good as absent (404)."""
    challenge = challenge_list(user=user).filter(pk=challenge_id).first()
    if challenge is None:
        raise errors.ChallengeNotFound(
            gettext("You have no challenge %(challenge_id)s.") % {"challenge_id": challenge_id}
        )
    return challenge


def challenge_summary(*, challenge: Challenge) -> dict[str, Any]:
    return {
        "id": challenge.pk,
        "from": challenge.challenger.get_username(),
        "from_bot_account": bot_account(challenge.challenger),
        "to": [
            {
                "player": i.player.get_username(),
                "bot_account": bot_account(i.player),
                "answer": i.answer or None,
            }
            for i in challenge.invitations.all()
        ],
        "status": challenge.status,
        "reason": challenge.reason or None,
        "match": challenge.match_id,
        "created_at": challenge.created_at.isoformat(),
        "expires_at": challenge.expires_at.isoformat(),
        "ruleset": challenge.ruleset,
        "seats": challenge.seat_count,
        "options": challenge.options,
        "bots": challenge.bots,
        "deals": challenge.deals,
        "target": challenge.target,
        "turn_seconds": challenge.turn_seconds,
        "rated": challenge.rated,
    }


def api_tokens(*, user: User) -> QuerySet[ApiToken]:
    """The user's named tokens, oldest first."""
    return ApiToken.objects.filter(user=user, account=False).order_by("created_at", "pk")


def holds_seat(*, user: User, match_id: int) -> bool:
    """Whether the user holds a seat of the match (what a seat link may see and move)."""
    return Seat.objects.filter(match_id=match_id, player=user).exists()


def seat_link_secrets(*, user_ids: Iterable[int]) -> dict[int, str]:
    """The seat links' secrets of some guests' users, by user id: each derived again from its nonce
    and ``SECRET_KEY`` (only its hash is kept), the newest that still derives to its hash. A link
    made before seat links were derived, or before ``SECRET_KEY`` changed, has none to print
    (``games.services.seat_links_renew`` gives one beside it)."""
    tokens = (
        ApiToken.objects.filter(user_id__in=list(user_ids), scopes=[ApiToken.Scope.SEAT])
        .exclude(nonce="")
        .order_by("created_at", "pk")
        .values_list("user_id", "nonce", "key_hash")
    )
    secrets = {}
    for user_id, nonce, hashed in tokens:
        secret = seat_link_secret(nonce)
        if key_hash(secret) == hashed:
            secrets[user_id] = secret
    return secrets


# Online: a feed stream or a long poll open now, or within this long (games.presence keeps
# ``Presence.seen_at`` no older than a few seconds while one is open).
ONLINE_WINDOW = timedelta(seconds=60)


def players_online(*, bot: bool | None = None, now: datetime | None = None) -> QuerySet[Presence]:
    """Who is online (see :data:`ONLINE_WINDOW`), by username; ``bot`` keeps bot accounts only
    (true) or people only (false)."""
    since = (now or timezone.now()) - ONLINE_WINDOW
    online = Presence.objects.filter(seen_at__gte=since).select_related("user__player")
    if bot is not None:
        online = online.filter(user__player__bot=bot)
    return online.order_by("user__username")


def online_row(presence: Presence) -> dict[str, Any]:
    player: Player | None = getattr(presence.user, "player", None)
    return {
        "player": presence.user.get_username(),
        "bot": bool(player and player.bot),
        "seen_at": presence.seen_at,
    }
