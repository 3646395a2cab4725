"""What every write of the tournament service shares: the tournament row locked first, and how
the published rounds are read for seating (the director's powers: ``tournaments.powers``)."""

from __future__ import annotations

from collections import defaultdict

from django.utils.translation import gettext

from games import errors as game_errors
from switchgame import bots, catalog
from switchgame.tournament import meetings, seating
from switchgame.words import quoted
from tournaments import errors, live
from tournaments.models import Bye, Round, TableSeat, Tournament

SEED_BITS = 62


def locked_tournament(tournament_id: int) -> Tournament:
    """The tournament row, locked for this write's transaction. Every write starts here, so the
    tournament's live pages are told of it at commit (``tournaments.live``)."""
    try:
        tournament = Tournament.objects.select_for_update().get(pk=tournament_id)
    except Tournament.DoesNotExist:
        raise errors.TournamentNotFound(
            gettext("There is no tournament %(tournament_id)s.") % {"tournament_id": tournament_id}
        ) from None
    live.changed(tournament)
    return tournament


def rounds_played(tournament: Tournament) -> int:
    """Rounds published so far (a draft is not played yet)."""
    return tournament.rounds.exclude(status=Round.Status.DRAFT).count()


def bot_entry_ids(tournament: Tournament) -> set[int]:
    return set(tournament.entries.exclude(bot_strategy="").values_list("pk", flat=True))


def entry_names(tournament: Tournament) -> dict[int, str]:
    """Display names by entry id: refusals name people, not ids."""
    return dict(tournament.entries.values_list("pk", "name"))


def fills_tables(tournament: Tournament) -> bool:
    return bool(tournament.fill_with_bots)


def table_bounds(tournament: Tournament) -> seating.TableBounds:
    low, high = catalog.find_ruleset(tournament.ruleset).players
    return seating.TableBounds(low, high, preferred=tournament.table_size)


def seating_history(tournament: Tournament) -> meetings.SeatingHistory[int]:
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


def bot_strategy(game: str, strategy: str, *, play: str) -> str:
    """A bot strategy's name as the game knows it: bots (entrants or filling tables) play online."""
    if play == Tournament.Play.OFFLINE:
        raise errors.BotsNeedOnlinePlay(
            gettext("Bots need online play: this tournament is played offline, with real cards.")
        )
    known = bots.strategy_named(game, strategy)
    if known is None:
        names = ", ".join(bots.strategies_for(game))
        raise game_errors.InvalidBots(
            gettext("unknown bot strategy %(strategy)s; known: %(names)s")
            % {"strategy": quoted(strategy), "names": names}
        )
    return known
