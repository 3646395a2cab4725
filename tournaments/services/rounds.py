"""Rounds: drafted, edited, published (online: one started match per table)."""

from __future__ import annotations

import secrets
from collections.abc import Sequence

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from games import services as game_services
from games.models import Match
from switchgame.tournament import meetings, seating
from switchgame.tournament.seating import SeatingMode
from switchsite.problems import said
from tournaments import errors, selectors
from tournaments.models import Bye, Entry, Round, Table, TableSeat, Tournament
from tournaments.powers import Power, require_power
from tournaments.services.common import (
    SEED_BITS,
    bot_entry_ids,
    entry_names,
    fills_tables,
    locked_tournament,
    rounds_played,
    seating_history,
    table_bounds,
)
from tournaments.services.seat_links import seat_holder


def tournament_start(*, tournament_id: int, user: User) -> Round:
    """Seat round 1 and start its tables (or publish the organiser's draft of it)."""
    require_power(user, Power.SEAT)
    with transaction.atomic():
        tournament = locked_tournament(tournament_id)
        if tournament.status == Tournament.Status.CANCELLED:
            raise errors.TournamentCancelled(
                gettext("%(name)s is cancelled.") % {"name": tournament.name}
            )
        if tournament.status != Tournament.Status.REGISTERING:
            raise errors.AlreadyStarted(gettext("The tournament has already started."))
        return _publish(tournament, organiser=user)


def round_next(*, tournament_id: int, user: User) -> Round:
    """Seat the next round and start its tables, once every table of the last one is finished."""
    require_power(user, Power.SEAT)
    with transaction.atomic():
        tournament = locked_tournament(tournament_id)
        _require_round_complete(tournament)
        return _publish(tournament, organiser=user)


def round_draft(*, tournament_id: int, user: User) -> Round:
    """Seat the next round as a draft for the organiser to review; replaces an earlier draft."""
    require_power(user, Power.SEAT)
    with transaction.atomic():
        tournament = locked_tournament(tournament_id)
        if tournament.status != Tournament.Status.REGISTERING:
            _require_round_complete(tournament)
        return _draft(tournament)


def round_publish(*, tournament_id: int, user: User) -> Round:
    """Check the drafted round (as the organiser may have edited it) and start its tables."""
    require_power(user, Power.SEAT)
    with transaction.atomic():
        tournament = locked_tournament(tournament_id)
        if not tournament.rounds.filter(status=Round.Status.DRAFT).exists():
            raise errors.NoDraftRound(gettext("There is no drafted round to publish."))
        if tournament.status != Tournament.Status.REGISTERING:
            _require_round_complete(tournament)
        return _publish(tournament, organiser=user)


def _require_round_complete(tournament: Tournament) -> None:
    if tournament.status == Tournament.Status.REGISTERING:
        raise errors.NotStarted(gettext("The tournament has not started: start it first."))
    if tournament.status == Tournament.Status.RUNNING:
        raise errors.RoundInProgress(gettext("Tables of the current round are still playing."))
    if tournament.status == Tournament.Status.FINISHED:
        raise errors.TournamentFinished(gettext("Every round has been played."))
    if tournament.status == Tournament.Status.CANCELLED:
        raise errors.TournamentCancelled(
            gettext("%(name)s is cancelled.") % {"name": tournament.name}
        )


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
    require_power(user, Power.SEAT)
    with transaction.atomic():
        tournament = locked_tournament(tournament_id)
        drafted = tournament.rounds.filter(status=Round.Status.DRAFT).first()
        if drafted is None:
            raise errors.NoDraftRound(gettext("There is no drafted round to edit."))
        proposed = meetings.RoundSeating(
            tables=tuple(tuple(table) for table in tables if table), byes=tuple(byes)
        )
        report = _reviewed(tournament, drafted.number, proposed)
        drafted.tables.all().delete()
        drafted.byes.all().delete()
        _seating_write(drafted, proposed, report)
        return drafted


def _draft(tournament: Tournament) -> Round:
    number = rounds_played(tournament) + 1
    tournament.rounds.filter(status=Round.Status.DRAFT).delete()
    bounds = table_bounds(tournament)
    entries = selectors.seatable_entries(tournament=tournament, number=number)
    if selectors.entries_missing(tournament=tournament):
        raise errors.NotEnoughEntries(
            gettext("%(present)s active entries present; a table of %(ruleset)s needs %(needed)s.")
            % {"present": len(entries), "ruleset": tournament.ruleset, "needed": bounds.min_players}
        )
    if tournament.seating == SeatingMode.SWISS:
        order = {
            row.entry: row.rank for row in selectors.tournament_standings(tournament=tournament)
        }
        entries.sort(key=lambda entry: order.get(entry, len(order)))
    history = seating_history(tournament)
    seed = secrets.randbits(SEED_BITS)
    draw = seating.draw_round(
        entries,
        mode=tournament.seating,
        bounds=bounds,
        history=history,
        seed=seed,
        rounds_left=tournament.planned_rounds - number + 1,
        bots=bot_entry_ids(tournament),
        fill=fills_tables(tournament),
    )
    drafted = Round.objects.create(tournament=tournament, number=number, seed=seed)
    this_round = draw.rounds[0]
    # A draw of one round has reported on it already (the exact fewest is worth not repeating).
    alone = draw.report if len(draw.rounds) == 1 else None
    _seating_write(drafted, this_round, alone or meetings.repeat_report([this_round], history))
    return drafted


def _seating_write(
    drafted: Round, seated: meetings.RoundSeating[int], report: meetings.RepeatReport
) -> None:
    tournament = drafted.tournament
    size = tournament.table_size if fills_tables(tournament) else 0
    tables = Table.objects.bulk_create(
        Table(round=drafted, number=number, fill_bots=max(size - len(members), 0))
        for number, members in enumerate(seated.tables, start=1)
    )
    TableSeat.objects.bulk_create(
        TableSeat(round=drafted, table=table, seat=seat, entry_id=entry)
        for table, members in zip(tables, seated.tables, strict=True)
        for seat, entry in enumerate(members)
    )
    Bye.objects.bulk_create(Bye(round=drafted, entry_id=entry) for entry in seated.byes)
    drafted.save(update_fields=_repeats_note(drafted, report))


def _repeats_note(drafted: Round, report: meetings.RepeatReport) -> list[str]:
    """Note the round's repeats on it, as the desk shows them; returns the fields changed."""
    drafted.repeats, drafted.repeat_lower_bound = report.repeats, report.lower_bound
    drafted.repeat_verdict = report.verdict
    return ["repeats", "repeat_lower_bound", "repeat_verdict"]


def _reviewed(
    tournament: Tournament, number: int, proposed: meetings.RoundSeating[int]
) -> meetings.RepeatReport:
    try:
        return seating.review_round(
            proposed,
            entries=selectors.seatable_entries(tournament=tournament, number=number),
            bounds=table_bounds(tournament),
            history=seating_history(tournament),
            bots=bot_entry_ids(tournament),
            fill=fills_tables(tournament),
            name=entry_names(tournament).__getitem__,
        )
    except seating.SeatingError as error:
        raise errors.InvalidSeating(
            gettext("round %(number)s: %(error)s") % {"number": number, "error": said(error)}
        ) from None


def _publish(tournament: Tournament, *, organiser: User) -> Round:
    """Publish the draft (seating one first if there is none): online, one started match per
    table; offline, the tables wait for their results from the desk.

    The draft is checked again: entries may have joined or withdrawn since it was seated.
    """
    drafted = tournament.rounds.filter(status=Round.Status.DRAFT).first() or _draft(tournament)
    tables = list(
        drafted.tables.prefetch_related(
            "seats__entry__player", "seats__entry__guest_user"
        ).order_by("number")
    )
    members = [[seat.entry for seat in table.seats.all()] for table in tables]  # in seat order
    proposed = meetings.RoundSeating(
        tables=tuple(tuple(entry.pk for entry in seated) for seated in members),
        byes=tuple(drafted.byes.values_list("entry_id", flat=True)),
    )
    report = _reviewed(tournament, drafted.number, proposed)
    online = tournament.play == Tournament.Play.ONLINE
    for table, seated in zip(tables, members, strict=True):
        table.match = (
            _table_match_start(tournament, table, seated, organiser=organiser) if online else None
        )
        for seat, entry in enumerate(seated):
            holder = seat_holder(entry) if selectors.guests_have_links(tournament) else entry.player
            if holder is not None:
                game_services.player_notify(
                    user_id=holder.pk,
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
    drafted.save(update_fields=["status", "published_at", *_repeats_note(drafted, report)])
    tournament.status = Tournament.Status.RUNNING
    tournament.save(update_fields=["status"])
    return drafted


def _table_match_start(
    tournament: Tournament, table: Table, seated: Sequence[Entry], *, organiser: User
) -> Match:
    """The table's match: its entries in their seats, then the server bots filling it."""
    bots_wanted = [
        {"seat": seat, "strategy": entry.bot_strategy}
        for seat, entry in enumerate(seated)
        if entry.bot_strategy
    ]
    fill_seats = range(len(seated), len(seated) + table.fill_bots)
    bots_wanted += [{"seat": seat, "strategy": tournament.fill_with_bots} for seat in fill_seats]
    match = game_services.match_create(
        creator=organiser,
        ruleset=tournament.ruleset,
        seats=len(seated) + table.fill_bots,
        options=tournament.options,
        bots_wanted=bots_wanted,
        deals=tournament.deals_per_round or 1,
        target=tournament.target,
        players=[seat_holder(entry) for entry in seated] + [None] * table.fill_bots,
    )
    return game_services.match_start(match_id=match.pk, user=organiser).match
