"""Every write of the tournament service.

Each public function is one transaction that locks the tournament row (``select_for_update``)
first — table results, seating and corrections of one event therefore queue behind each other, and
locks on players' ratings are always taken after it, in id order. Functions raise a
:class:`~switchsite.problems.ServiceError` and write nothing when a rule forbids the change.

The flow of a round: :func:`round_draft` seats it (the organiser may then edit the tables in the
admin), :func:`round_publish` checks the seating and, online, creates and starts one match per
table; the API's ``start/`` and ``next-round/`` do both at once. When a table's match ends,
:func:`table_result_record` (run by a task) writes its score lines and rating updates; offline
tables (real cards), and online tables the desk adjudicates, get theirs from
:func:`table_result_enter`. The round closes once every table is in. Standings are computed from
the score lines when read.
"""

from __future__ import annotations

import secrets
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from games import bots, catalog
from games import errors as game_errors
from games import services as game_services
from games.engine import protocol
from games.models import Match, Player
from switchsite.problems import ServiceError
from switchsite.tasks import publish_after_commit
from tournaments import errors, selectors
from tournaments.core import meetings, ratings, results, seating
from tournaments.core.scoring import ByePolicy, Scoring
from tournaments.core.seating import SeatingMode
from tournaments.models import (
    Bye,
    Entry,
    RatedGame,
    ResultEntry,
    Round,
    ScoreLine,
    Table,
    TableSeat,
    Tournament,
)

SEED_BITS = 62
SCORINGS_OF_GAME = {
    catalog.SHEDDING: {Scoring.FRENCH, Scoring.PLACEMENT},
    catalog.ABBOTT: {Scoring.ABBOTT},
}
ENDED = (Match.Status.FINISHED, Match.Status.ABANDONED)
WHOLE_TABLE = 0  # RatedGame.hand of a table rated as a whole


# --- the event and its entries -------------------------------------------------------------------


def tournament_create(
    *,
    creator: User,
    name: str,
    ruleset: str,
    scoring: str,
    planned_rounds: int,
    table_size: int,
    deals_per_round: int | None = None,
    target: int | None = None,
    seating_mode: str = SeatingMode.BALANCED,
    bye_policy: str = ByePolicy.ZERO,
    options: dict[str, Any] | None = None,
    play: str = Tournament.Play.ONLINE,
    public: bool = False,
) -> Tournament:
    """A tournament open for registration. The house rules are checked now, not at round one."""
    _require_staff(creator, "create a tournament")
    info = catalog.find_ruleset(ruleset)
    if scoring not in SCORINGS_OF_GAME[info.game]:
        allowed = ", ".join(sorted(SCORINGS_OF_GAME[info.game]))
        raise errors.InvalidScoring(f"{ruleset} tournaments are scored {allowed}, not '{scoring}'")
    if deals_per_round is not None and target is not None:
        raise protocol.InvalidOptions("give deals_per_round or target, not both")
    if target is None and deals_per_round is None and info.game == catalog.SHEDDING:
        deals_per_round = 1
    try:
        seating.TableBounds(*info.players, preferred=table_size)
    except seating.SeatingError as error:
        message = f"{ruleset}: {error}."
        raise errors.InvalidSettings(message, errors={"table_size": [message]}) from None
    catalog.new_game(ruleset, table_size, options, deals=deals_per_round or 1, target=target)
    return Tournament.objects.create(
        name=name,
        ruleset=ruleset,
        options=dict(options or {}),
        scoring=scoring,
        planned_rounds=planned_rounds,
        table_size=table_size,
        deals_per_round=deals_per_round,
        target=target,
        seating=seating_mode,
        bye_policy=bye_policy,
        play=play,
        public=public,
        seed=secrets.randbits(SEED_BITS),
        created_by=creator,
    )


@dataclass(frozen=True)
class Entrant:
    """Who to register: nobody named (the caller), a ``player`` by username, a ``guest`` by
    display name, or a ``bot`` strategy with an optional display ``name``."""

    player: str | None = None
    guest: str | None = None
    bot: str | None = None
    name: str | None = None


def entry_register(*, tournament_id: int, user: User, entrant: Entrant) -> Entry:
    """Register the caller, or (staff) a player, a guest or a bot entrant.

    Registering after the start is a late entry: the entry is seated from the next round on. A
    withdrawn player who registers again comes back the same way, with their results so far.
    """
    with transaction.atomic():
        tournament = _locked_tournament(tournament_id)
        return _entry_add(tournament, user, entrant)


def entries_register(*, tournament_id: int, user: User, entrants: Sequence[Entrant]) -> list[Entry]:
    """Register many entrants at once (staff), all or none: every refusal is reported, by item."""
    _require_staff(user, "register entries in bulk")
    with transaction.atomic():
        tournament = _locked_tournament(tournament_id)
        entries, refused = [], {}
        for index, entrant in enumerate(entrants):
            try:
                entries.append(_entry_add(tournament, user, entrant))
            except ServiceError as error:
                refused[f"entries[{index}]"] = [error.detail]
        if refused:
            raise errors.InvalidEntries(
                f"{len(refused)} of {len(entrants)} entries refused; nobody was registered.",
                errors=refused,
            )
        return entries


def _entry_add(tournament: Tournament, user: User, entrant: Entrant) -> Entry:
    if tournament.status == Tournament.Status.FINISHED:
        raise errors.NotRegistering("The tournament is finished.")
    next_round = _rounds_played(tournament) + 1
    if entrant.bot is not None:
        _require_staff(user, "enter a bot")
        return _bot_entry_create(tournament, entrant, joined_round=next_round)
    if entrant.guest is not None:
        _require_staff(user, "enter a guest")
        display = _free_name(tournament, entrant.guest)
        return Entry.objects.create(tournament=tournament, name=display, joined_round=next_round)
    player = _entrant(user, entrant.player)
    entry = Entry.objects.filter(tournament=tournament, player=player).first()
    if entry is not None and entry.is_active:
        raise errors.AlreadyRegistered(f"{entry.name} is already registered.")
    if entry is not None:
        entry.withdrawn_after = None
        entry.joined_round = max(entry.joined_round, next_round)
        entry.save(update_fields=["withdrawn_after", "joined_round"])
        return entry
    display = _free_name(tournament, player.get_username())
    return Entry.objects.create(
        tournament=tournament, player=player, name=display, joined_round=next_round
    )


def entry_withdraw(
    *,
    tournament_id: int,
    user: User,
    player: str | None = None,
    name: str | None = None,
) -> Entry:
    """Withdraw the caller, or (staff) a player by username or any entry by its display name.

    The entry keeps its results and its place in the standings; it is not seated again.
    """
    with transaction.atomic():
        tournament = _locked_tournament(tournament_id)
        if tournament.status == Tournament.Status.FINISHED:
            raise errors.NotRegistering("The tournament is finished.")
        if name is not None:
            _require_staff(user, "withdraw another entry")
            entry = Entry.objects.filter(tournament=tournament, name__iexact=name.strip()).first()
        else:
            entry = Entry.objects.filter(
                tournament=tournament, player=_entrant(user, player)
            ).first()
        if entry is None or not entry.is_active:
            raise errors.NotRegistered("There is no such active entry in this tournament.")
        entry.withdrawn_after = _rounds_played(tournament)
        entry.save(update_fields=["withdrawn_after"])
        return entry


# --- rounds --------------------------------------------------------------------------------------


def tournament_start(*, tournament_id: int, user: User) -> Round:
    """Seat round 1 and start its tables (or publish the organiser's draft of it)."""
    _require_staff(user, "start a tournament")
    with transaction.atomic():
        tournament = _locked_tournament(tournament_id)
        if tournament.status != Tournament.Status.REGISTERING:
            raise errors.AlreadyStarted("The tournament has already started.")
        return _publish(tournament, organiser=user)


def round_next(*, tournament_id: int, user: User) -> Round:
    """Seat the next round and start its tables, once every table of the last one is finished."""
    _require_staff(user, "seat the next round")
    with transaction.atomic():
        tournament = _locked_tournament(tournament_id)
        _require_round_complete(tournament)
        return _publish(tournament, organiser=user)


def round_draft(*, tournament_id: int, user: User) -> Round:
    """Seat the next round as a draft for the organiser to review; replaces an earlier draft."""
    _require_staff(user, "seat a round")
    with transaction.atomic():
        tournament = _locked_tournament(tournament_id)
        if tournament.status != Tournament.Status.REGISTERING:
            _require_round_complete(tournament)
        return _draft(tournament)


def round_publish(*, tournament_id: int, user: User) -> Round:
    """Check the drafted round (as the organiser may have edited it) and start its tables."""
    _require_staff(user, "publish a round")
    with transaction.atomic():
        tournament = _locked_tournament(tournament_id)
        if not tournament.rounds.filter(status=Round.Status.DRAFT).exists():
            raise errors.NoDraftRound("There is no drafted round to publish.")
        if tournament.status != Tournament.Status.REGISTERING:
            _require_round_complete(tournament)
        return _publish(tournament, organiser=user)


def _require_round_complete(tournament: Tournament) -> None:
    if tournament.status == Tournament.Status.REGISTERING:
        raise errors.NotStarted("The tournament has not started: start it first.")
    if tournament.status == Tournament.Status.RUNNING:
        raise errors.RoundInProgress("Tables of the current round are still playing.")
    if tournament.status == Tournament.Status.FINISHED:
        raise errors.TournamentFinished("Every round has been played.")


def round_edit(
    *,
    tournament_id: int,
    user: User,
    tables: Sequence[Sequence[int]],
    byes: Sequence[int] = (),
) -> Round:
    """The organiser's edit of the drafted round: its tables (entry ids in seat order) and byes.

    Checked against the rules at once (every active entry placed once, tables within the
    ruleset's sizes), so a bad edit is refused here rather than when publishing.
    """
    _require_staff(user, "edit a round")
    with transaction.atomic():
        tournament = _locked_tournament(tournament_id)
        drafted = tournament.rounds.filter(status=Round.Status.DRAFT).first()
        if drafted is None:
            raise errors.NoDraftRound("There is no drafted round to edit.")
        proposed = meetings.RoundSeating(
            tables=tuple(tuple(table) for table in tables if table), byes=tuple(byes)
        )
        report = _reviewed(tournament, drafted.number, proposed)
        drafted.tables.all().delete()
        drafted.byes.all().delete()
        _seating_write(drafted, proposed, report)
        return drafted


def _draft(tournament: Tournament) -> Round:
    number = _rounds_played(tournament) + 1
    tournament.rounds.filter(status=Round.Status.DRAFT).delete()
    bounds = _bounds(tournament)
    entries = _seatable(tournament, number)
    if len(entries) < bounds.min_players:
        raise errors.NotEnoughEntries(
            f"{len(entries)} active entries; a table of {tournament.ruleset} needs {bounds.min_players}."
        )
    if tournament.seating == SeatingMode.SWISS:
        order = {
            row.entry: row.rank for row in selectors.tournament_standings(tournament=tournament)
        }
        entries.sort(key=lambda entry: order.get(entry, len(order)))
    history = _history(tournament)
    seed = secrets.randbits(SEED_BITS)
    draw = seating.draw_round(
        entries,
        mode=tournament.seating,
        bounds=bounds,
        history=history,
        seed=seed,
        rounds_left=tournament.planned_rounds - number + 1,
        bots=_bot_ids(tournament),
    )
    drafted = Round.objects.create(tournament=tournament, number=number, seed=seed)
    this_round = draw.rounds[0]
    _seating_write(drafted, this_round, meetings.repeat_report([this_round], history))
    return drafted


def _seating_write(
    drafted: Round, seated: meetings.RoundSeating[int], report: meetings.RepeatReport
) -> None:
    tables = Table.objects.bulk_create(
        Table(round=drafted, number=number) for number in range(1, len(seated.tables) + 1)
    )
    TableSeat.objects.bulk_create(
        TableSeat(round=drafted, table=table, seat=seat, entry_id=entry)
        for table, members in zip(tables, seated.tables, strict=True)
        for seat, entry in enumerate(members)
    )
    Bye.objects.bulk_create(Bye(round=drafted, entry_id=entry) for entry in seated.byes)
    drafted.repeats, drafted.repeat_lower_bound = report.repeats, report.lower_bound
    drafted.save(update_fields=["repeats", "repeat_lower_bound"])


def _reviewed(
    tournament: Tournament, number: int, proposed: meetings.RoundSeating[int]
) -> meetings.RepeatReport:
    try:
        return seating.review_round(
            proposed,
            entries=_seatable(tournament, number),
            bounds=_bounds(tournament),
            history=_history(tournament),
            bots=_bot_ids(tournament),
        )
    except seating.SeatingError as error:
        raise errors.InvalidSeating(f"round {number}: {error}") from None


def _publish(tournament: Tournament, *, organiser: User) -> Round:
    """Publish the draft (seating one first if there is none): online, one started match per
    table; offline, the tables wait for their results from the desk.

    The draft is checked again: entries may have joined or withdrawn since it was seated.
    """
    drafted = tournament.rounds.filter(status=Round.Status.DRAFT).first() or _draft(tournament)
    tables = list(drafted.tables.prefetch_related("seats__entry__player").order_by("number"))
    members = [[seat.entry for seat in table.seats.all()] for table in tables]  # in seat order
    proposed = meetings.RoundSeating(
        tables=tuple(tuple(entry.pk for entry in seated) for seated in members),
        byes=tuple(drafted.byes.values_list("entry_id", flat=True)),
    )
    report = _reviewed(tournament, drafted.number, proposed)
    online = tournament.play == Tournament.Play.ONLINE
    for table, seated in zip(tables, members, strict=True):
        table.match = (
            _table_match_start(tournament, seated, organiser=organiser) if online else None
        )
        for seat, entry in enumerate(seated):
            if entry.player_id is not None:
                game_services.player_notify(
                    user_id=entry.player_id,
                    event_type="round_seated",
                    match=table.match,
                    data={
                        "tournament": tournament.pk,
                        "round": drafted.number,
                        "table": table.number,
                        "seat": seat,
                    },
                )
    Table.objects.bulk_update(tables, ["match"])
    drafted.status = Round.Status.PUBLISHED
    drafted.published_at = timezone.now()
    drafted.repeats, drafted.repeat_lower_bound = report.repeats, report.lower_bound
    drafted.save(update_fields=["status", "published_at", "repeats", "repeat_lower_bound"])
    tournament.status = Tournament.Status.RUNNING
    tournament.save(update_fields=["status"])
    return drafted


def _table_match_start(
    tournament: Tournament, seated: Sequence[Entry], *, organiser: User
) -> Match:
    match = game_services.match_create(
        creator=organiser,
        ruleset=tournament.ruleset,
        seats=len(seated),
        options=tournament.options,
        bots_wanted=[
            {"seat": seat, "strategy": entry.bot_strategy}
            for seat, entry in enumerate(seated)
            if entry.bot_strategy
        ],
        deals=tournament.deals_per_round or 1,
        target=tournament.target,
        players=[entry.player for entry in seated],
    )
    return game_services.match_start(match_id=match.pk, user=organiser).match


# --- results -------------------------------------------------------------------------------------


def table_result_record(*, match_id: int) -> bool:
    """Write the score lines and rating updates of a tournament table whose match has ended.

    Safe to run twice: the lines are rewritten as they were, ratings are updated once per table
    (or Abbott hand). A table whose result the desk entered is left alone. A match abandoned with
    no outcome forfeits the table (docs/rules.md §5: everyone at it lost). Closes the round when
    it was the last table, and the tournament after its last round. Returns whether the table was
    newly recorded.
    """
    tournament_id = (
        Table.objects.filter(match_id=match_id)
        .values_list("round__tournament_id", flat=True)
        .first()
    )
    if tournament_id is None:
        return False
    with transaction.atomic():
        tournament = _locked_tournament(tournament_id)
        table = Table.objects.select_related("round", "match").get(match_id=match_id)
        match = table.match
        assert match is not None  # found by its match
        if match.status not in ENDED or table.outcome == Table.Outcome.ENTERED:
            return False
        newly = table.recorded_at is None
        _record_played(tournament, table)
        _close_round_if_done(tournament, table.round)
    return newly


def unscored_matches(*, quiet_for: timedelta) -> list[int]:
    """Matches of tournament tables that ended more than ``quiet_for`` ago and were never scored
    (the task that should have scored them was lost): the sweep publishes their scoring again."""
    ended_before = timezone.now() - quiet_for
    return list(
        Table.objects.filter(
            recorded_at__isnull=True, match__status__in=ENDED, match__finished_at__lte=ended_before
        ).values_list("match_id", flat=True)
    )


def table_result_enter(
    *,
    tournament_id: int,
    round_number: int,
    table_number: int,
    user: User,
    result: dict[str, Any],
    replace: bool = False,
) -> Table:
    """The desk's result of one table: checked against the table and the tournament's format,
    then scored exactly as a played match. An online table still playing is adjudicated: its
    match is abandoned. A table with a result already needs ``replace`` (a correction); every
    version is kept (:class:`ResultEntry`) and ratings are replayed after commit.
    """
    from tournaments import tasks  # tasks import this module

    _require_staff(user, "enter a table's result")
    with transaction.atomic():
        tournament = _locked_tournament(tournament_id)
        table = selectors.table_of(
            tournament=tournament, round_number=round_number, table_number=table_number
        )
        has_result = table.outcome in (Table.Outcome.PLAYED, Table.Outcome.ENTERED)
        if has_result and not replace:
            raise errors.ResultRecorded(
                f"Table {table_number} of round {round_number} has a result; "
                'send "replace": true to correct it.'
            )
        names = [seat.entry.name for seat in table.seats.select_related("entry").order_by("seat")]
        try:
            hands = results.hands_from_result(
                selectors.table_format(tournament=tournament, names=names), result
            )
        except results.ResultInvalid as error:
            raise errors.InvalidResult(
                "The result cannot be right: see errors.", errors=error.errors
            ) from None
        if table.match is not None and table.match.status == Match.Status.ACTIVE:
            game_services.match_abandon(
                match_id=table.match.pk, reason="adjudicated by the tournament desk"
            )
        ResultEntry.objects.create(table=table, result=result, entered_by=user)
        rewritten = _table_write(tournament, table, hands, outcome=Table.Outcome.ENTERED)
        _close_round_if_done(tournament, table.round)
        if rewritten:
            publish_after_commit(tasks.recompute_tournament, tournament_id)
    return table


def standings_recompute(*, tournament_id: int) -> None:
    """The full recompute (after a correction, or a lost task).

    Records every ended match whose table is not recorded yet, then replays every rating update of
    the service in date order, because a rating depends on the whole history before it. Standings
    themselves are computed from the score lines when read, so they are right at once.
    """
    with transaction.atomic():
        tournament = _locked_tournament(tournament_id)
        tables = Table.objects.filter(
            round__tournament=tournament, match__status__in=ENDED, recorded_at__isnull=True
        ).select_related("round", "match")
        for table in tables:
            _record_played(tournament, table)
            _close_round_if_done(tournament, table.round)
        _ratings_replay()


def _record_played(tournament: Tournament, table: Table) -> None:
    """Score an ended match: its outcome, or a forfeit when it was abandoned with none."""
    assert table.match is not None  # only online tables are played
    result = table.match.result or {}
    if result.get("abandoned") or "hands" not in result:
        table.outcome, table.recorded_at = Table.Outcome.FORFEITED, timezone.now()
        table.save(update_fields=["outcome", "recorded_at"])
        return
    hands = protocol.Outcome.from_json(result).hands
    _table_write(tournament, table, hands, outcome=Table.Outcome.PLAYED)


def _table_write(
    tournament: Tournament,
    table: Table,
    hands: Sequence[protocol.HandOutcome],
    *,
    outcome: str,
) -> bool:
    """Write a table's score lines and rating updates from its deals (or hands), in seat order.

    Returns whether rating updates were replaced — ratings must then be replayed; new ones are
    applied at once, and a rerun of the same result leaves the ratings alone.
    """
    seats = list(table.seats.order_by("seat").values_list("entry_id", flat=True))
    points = [results.hand_points(Scoring(tournament.scoring), hand) for hand in hands]
    ScoreLine.objects.filter(table=table).delete()
    ScoreLine.objects.bulk_create(
        ScoreLine(
            table=table,
            entry_id=entry,
            deal=hand.number,
            points=scored[seat],
            won=seat == hand.winner,
        )
        for hand, scored in zip(hands, points, strict=True)
        for seat, entry in enumerate(seats)
    )
    earlier = list(table.rated_games.all())
    rewritten = bool(earlier) and outcome == Table.Outcome.ENTERED
    if not earlier or rewritten:
        played_at = min((game.played_at for game in earlier), default=None)
        table.rated_games.all().delete()
        created = RatedGame.objects.bulk_create(
            RatedGame(
                table=table,
                hand=hand,
                teams=teams,
                ranks=_team_ranks(teams, scored),
                played_at=played_at or timezone.now(),
            )
            for hand, teams, scored in _rated_games(tournament, hands, points, seats)
        )
        if not rewritten:  # a rewritten history is replayed whole, after commit
            _ratings_apply(created)
    table.outcome = outcome
    table.recorded_at = table.recorded_at or timezone.now()
    table.save(update_fields=["outcome", "recorded_at"])
    return rewritten


def _rated_games(
    tournament: Tournament,
    hands: Sequence[protocol.HandOutcome],
    points: Sequence[Sequence[int]],
    seats: Sequence[int],
) -> list[tuple[int, list[list[int]], dict[int, int]]]:
    """(hand, teams of entry ids, points by entry) per rating update: Abbott is rated hand by hand,
    each hand's alliance a team; a shedding table as a whole on its total points."""
    if tournament.scoring == Scoring.ABBOTT:
        return [
            (
                hand.number,
                [[seats[seat] for seat in team] for team in hand.teams],
                dict(zip(seats, scored, strict=True)),
            )
            for hand, scored in zip(hands, points, strict=True)
        ]
    totals = [sum(column) for column in zip(*points, strict=True)]
    return [(WHOLE_TABLE, [[entry] for entry in seats], dict(zip(seats, totals, strict=True)))]


def _team_ranks(teams: Sequence[Sequence[int]], points: dict[int, int]) -> list[int]:
    """Each team's place by its members' points (1 best; equal points share a place)."""
    totals = [sum(points.get(entry, 0) for entry in team) for team in teams]
    return [1 + sum(other > own for other in totals) for own in totals]


def _close_round_if_done(tournament: Tournament, played: Round) -> None:
    if played.status != Round.Status.PUBLISHED:
        return
    if played.tables.filter(recorded_at__isnull=True).exists():
        return
    played.status = Round.Status.COMPLETE
    played.save(update_fields=["status"])
    last = played.number >= tournament.planned_rounds
    tournament.status = Tournament.Status.FINISHED if last else Tournament.Status.ROUND_COMPLETE
    tournament.save(update_fields=["status"])


# --- ratings -------------------------------------------------------------------------------------


def _ratings_apply(games: Iterable[RatedGame]) -> None:
    """Update the ratings of the players of ``games`` (new rating updates), in date order."""
    games = sorted(games, key=lambda g: (g.played_at, g.table_id, g.hand))
    if not games:
        return
    holders = _RatingHolders(games)
    for game in games:
        holders.current.update(ratings.rate_match(holders.rated_match(game), holders.current))
    holders.store()


def _ratings_replay() -> None:
    """Every rating from scratch: all rating updates of the service replayed in date order."""
    games = list(RatedGame.objects.order_by("played_at", "table_id", "hand"))
    holders = _RatingHolders(games, start_fresh=True)
    holders.current.update(ratings.recompute_ratings(holders.rated_match(g) for g in games))
    holders.store()


class _RatingHolders:
    """Where the ratings of the entries in some rating updates live: a player's on their game
    profile (one rating across tournaments), a guest's or a bot entrant's on the entry. Rows are locked in id
    order, after the tournament, so concurrent updates queue instead of deadlocking."""

    def __init__(self, games: Sequence[RatedGame], *, start_fresh: bool = False) -> None:
        entry_ids = {entry for game in games for team in game.teams for entry in team}
        self.entries = {
            e.pk: e
            for e in Entry.objects.select_for_update().filter(pk__in=entry_ids).order_by("pk")
        }
        user_ids = {e.player_id for e in self.entries.values() if e.player_id is not None}
        profiled = set(
            Player.objects.filter(user_id__in=user_ids).values_list("user_id", flat=True)
        )
        Player.objects.bulk_create(Player(user_id=user_id) for user_id in user_ids - profiled)
        self.players = {
            p.user_id: p
            for p in Player.objects.select_for_update().filter(user_id__in=user_ids).order_by("pk")
        }
        self.current: dict[Any, ratings.Rating] = {}
        if start_fresh:
            return
        for entry in self.entries.values():
            if entry.player_id is not None:
                player = self.players[entry.player_id]
                self.current[self.key(entry.pk)] = _rating(player.rating_mu, player.rating_sigma)
            elif entry.rating_mu is not None and entry.rating_sigma is not None:
                self.current[self.key(entry.pk)] = _rating(entry.rating_mu, entry.rating_sigma)

    def key(self, entry_id: int) -> tuple[str, int]:
        entry = self.entries[entry_id]
        return ("player", entry.player_id) if entry.player_id else ("entry", entry.pk)

    def rated_match(self, game: RatedGame) -> ratings.RatedMatch:
        return ratings.RatedMatch(
            teams=[[self.key(entry) for entry in team] for team in game.teams], ranks=game.ranks
        )

    def store(self) -> None:
        fresh = ratings.initial_rating()
        for entry in self.entries.values():
            rating = self.current.get(self.key(entry.pk), fresh)
            holder = self.players[entry.player_id] if entry.player_id else entry
            holder.rating_mu, holder.rating_sigma = rating.mu, rating.sigma
        Player.objects.bulk_update(self.players.values(), ["rating_mu", "rating_sigma"])
        own_rating = [e for e in self.entries.values() if e.player_id is None]
        Entry.objects.bulk_update(own_rating, ["rating_mu", "rating_sigma"])


def _rating(mu: float, sigma: float) -> ratings.Rating:
    return ratings.Rating(mu=mu, sigma=sigma)


# --- helpers -------------------------------------------------------------------------------------


def _require_staff(user: User, doing: str) -> None:
    if not user.is_staff:
        raise errors.StaffOnly(f"Only staff may {doing}.")


def _locked_tournament(tournament_id: int) -> Tournament:
    try:
        return Tournament.objects.select_for_update().get(pk=tournament_id)
    except Tournament.DoesNotExist:
        raise errors.TournamentNotFound(f"There is no tournament {tournament_id}.") from None


def _entrant(user: User, username: str | None) -> User:
    """The user an entry is for: the caller, or (staff only) the player named."""
    if username is None:
        return user
    _require_staff(user, "register or withdraw another player")
    entrant = get_user_model().objects.filter(username=username).first()
    if entrant is None:
        raise errors.UnknownPlayer(f"There is no player {username!r}.")
    return entrant


def _bot_entry_create(tournament: Tournament, entrant: Entrant, *, joined_round: int) -> Entry:
    if tournament.play == Tournament.Play.OFFLINE:
        raise errors.BotsNeedOnlinePlay(
            "Bots need online play: this tournament is played offline, with real cards."
        )
    game = catalog.find_ruleset(tournament.ruleset).game
    if entrant.bot not in bots.strategies_for(game):
        known = ", ".join(bots.strategies_for(game))
        raise game_errors.InvalidBots(f"unknown bot strategy {entrant.bot!r}; known: {known}")
    display = _free_name(
        tournament, entrant.name or f"{entrant.bot} bot {tournament.entries.count() + 1}"
    )
    return Entry.objects.create(
        tournament=tournament, bot_strategy=entrant.bot, name=display, joined_round=joined_round
    )


def _free_name(tournament: Tournament, name: str) -> str:
    """``name`` without surrounding spaces, if no entry has it yet (whatever the letter case)."""
    display = " ".join(name.split())
    if not display:
        raise errors.InvalidEntries("A display name cannot be blank.")
    if Entry.objects.filter(tournament=tournament, name__iexact=display).exists():
        raise errors.NameTaken(f"An entry named {display!r} is already registered.")
    return display


def _rounds_played(tournament: Tournament) -> int:
    """Rounds published so far (a draft is not played yet)."""
    return tournament.rounds.exclude(status=Round.Status.DRAFT).count()


def _seatable(tournament: Tournament, number: int) -> list[int]:
    """Ids of the entries to seat in round ``number``, in id order (the draw needs a stable one)."""
    return list(
        tournament.entries.filter(withdrawn_after__isnull=True, joined_round__lte=number)
        .order_by("pk")
        .values_list("pk", flat=True)
    )


def _bot_ids(tournament: Tournament) -> set[int]:
    return set(tournament.entries.exclude(bot_strategy="").values_list("pk", flat=True))


def _bounds(tournament: Tournament) -> seating.TableBounds:
    low, high = catalog.find_ruleset(tournament.ruleset).players
    return seating.TableBounds(low, high, preferred=tournament.table_size)


def _history(tournament: Tournament) -> meetings.SeatingHistory[int]:
    """The published rounds as the seating module sees them."""
    played = Round.PLAYED
    tables: defaultdict[int, defaultdict[int, list[int]]] = defaultdict(lambda: defaultdict(list))
    seats = TableSeat.objects.filter(round__tournament=tournament, round__status__in=played)
    for number, table, entry in seats.order_by(
        "round__number", "table__number", "seat"
    ).values_list("round__number", "table__number", "entry_id"):
        tables[number][table].append(entry)
    byes: defaultdict[int, list[int]] = defaultdict(list)
    for number, entry in Bye.objects.filter(
        round__tournament=tournament, round__status__in=played
    ).values_list("round__number", "entry_id"):
        byes[number].append(entry)
    return meetings.SeatingHistory.from_rounds(
        meetings.RoundSeating(
            tables=tuple(tuple(members) for members in tables[number].values()),
            byes=tuple(byes[number]),
        )
        for number in sorted(set(tables) | set(byes))
    )
