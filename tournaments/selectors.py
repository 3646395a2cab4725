"""Reads: tournaments as the API and the admin show them, and the standings.

Every function here runs a fixed number of queries whatever the size of the field (the standings
page of a sixty-player event costs what a six-player one does): rows are fetched per kind, never
per entry or table, and put together in Python.
"""

from __future__ import annotations

import csv
import io
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from typing import TYPE_CHECKING, Any, TypedDict

from django.contrib.auth.models import User
from django.db.models import Count, Prefetch, Q, QuerySet, Sum
from django.template.defaultfilters import floatformat
from django.urls import reverse
from django.utils import translation
from django.utils.text import slugify
from django.utils.translation import gettext
from openpyxl import Workbook

from games import selectors as game_selectors
from games.models import Rating
from switchgame import catalog, ratings
from switchgame.shedding.game import SheddingGame
from switchgame.shedding.scoring import french_tally
from switchgame.tournament import results
from switchgame.tournament.scoring import Bye as ByeResult
from switchgame.tournament.scoring import (
    Ranking,
    Scoring,
    StandingRow,
    TableResult,
    standings,
    tiebreak_order,
)
from switchsite.spreadsheets import inert_text
from tournaments import errors
from tournaments.models import (
    Bye,
    Entry,
    ResultEntry,
    ResultReport,
    Round,
    ScoreLine,
    Table,
    TableSeat,
    Tournament,
)
from tournaments.powers import Power, has_power

SLIP_BOXES_TO_TARGET = 8
# The CSV's columns and the decimals each is rounded to (None: as it is).
CSV_COLUMNS = (
    ("rank", None),
    ("player", None),
    ("kind", None),
    ("score", 3),
    ("points", 2),
    ("deals_won", None),
    ("played", None),
    ("byes", None),
    ("withdrawn", None),
    ("present", None),
    ("rating", 2),
)
CSV_TIEBREAKS = (
    ("conceded", None),
    ("table_share", 3),
    ("opponents_score", 3),
    ("head_to_head", 3),
    ("lot", 4),
)
# Excel reads a CSV file as UTF-8 (names such as "Chloé") only when it starts with this mark.
BYTE_ORDER_MARK = "\ufeff"


def tournament_get(*, tournament_id: int) -> Tournament:
    try:
        return Tournament.objects.select_related("created_by").get(pk=tournament_id)
    except Tournament.DoesNotExist:
        raise errors.TournamentNotFound(
            gettext("There is no tournament %(tournament_id)s.") % {"tournament_id": tournament_id}
        ) from None


class TournamentCounts(TypedDict):
    """What :func:`tournament_list` adds to each tournament."""

    entry_count: int
    current_round: int


if TYPE_CHECKING:
    from django_stubs_ext import WithAnnotations

    ListedTournament = WithAnnotations[Tournament, TournamentCounts]


def tournament_list(*, public_only: bool = False) -> QuerySet[ListedTournament]:
    """Newest first, with the number of entries and of rounds published so far."""
    listed = Tournament.objects.all()
    if public_only:
        listed = listed.filter(public=True).exclude(status=Tournament.Status.CANCELLED)
    return listed.annotate(
        entry_count=Count(
            "entries", filter=Q(entries__withdrawn_after__isnull=True), distinct=True
        ),
        current_round=Count("rounds", filter=~Q(rounds__status=Round.Status.DRAFT), distinct=True),
    ).order_by("-created_at", "-pk")


def has_results(*, tournament: Tournament) -> bool:
    """Whether any table of the tournament has a recorded result (it can then not be deleted)."""
    return Table.objects.filter(
        Q(score_lines__isnull=False) | Q(result_entries__isnull=False),
        round__tournament=tournament,
    ).exists()


def tournament_detail(
    *, tournament: Tournament, absolute: Callable[[str], str] = str, seat_links: bool = False
) -> dict[str, Any]:
    """The event, its entries and its published rounds with their tables, seats and results.

    ``absolute`` makes the public page's path a full URL (the request's ``build_absolute_uri``);
    with ``seat_links`` (for staff) each guest of an online tournament carries its ``play_url``.
    """
    entries = {e.pk: e for e in tournament.entries.select_related("player__player").order_by("pk")}
    secrets = (
        game_selectors.seat_link_secrets(
            user_ids=[e.guest_user_id for e in entries.values() if e.guest_user_id is not None]
        )
        if seat_links
        else {}
    )
    rounds = list(_seated_rounds(tournament.rounds.filter(status__in=Round.PLAYED)))
    outcomes = _TableResults(Table.objects.filter(round__in=rounds), entries, tournament.scoring)
    public_url = reverse("tournament-public", args=[tournament.pk]) if tournament.public else None
    return {
        "id": tournament.pk,
        "name": tournament.name,
        "ruleset": tournament.ruleset,
        "options": tournament.options,
        "scoring": tournament.scoring,
        "planned_rounds": tournament.planned_rounds,
        "table_size": tournament.table_size,
        "deals_per_round": tournament.deals_per_round,
        "target": tournament.target,
        "seating": tournament.seating,
        "bye_policy": tournament.bye_policy,
        "play": tournament.play,
        "fill_with_bots": tournament.fill_with_bots or None,
        "ranking": tournament.ranking,
        "self_report": tournament.self_report,
        "self_checkin": tournament.self_checkin,
        "tiebreaks": list(tiebreak_order(tournament.scoring)),
        "public": tournament.public,
        "public_url": absolute(public_url) if public_url else None,
        "language": tournament.language,
        "status": tournament.status,
        "created_by": tournament.created_by.get_username(),
        "created_at": tournament.created_at.isoformat(),
        "entries": [
            _entry_summary(entry, secrets.get(entry.guest_user_id or 0), absolute)
            for entry in entries.values()
        ],
        "rounds": [_round_summary(r, entries, outcomes, tournament.play) for r in rounds],
    }


def _seated_rounds(rounds: QuerySet[Round]) -> QuerySet[Round]:
    """Rounds in order, with their tables, seats (in seat order) and byes."""
    return rounds.order_by("number").prefetch_related(
        Prefetch("tables", queryset=Table.objects.order_by("number")),
        Prefetch("seats", queryset=TableSeat.objects.order_by("seat")),
        "byes",
    )


def draft_seating(*, tournament: Tournament) -> dict[str, Any] | None:
    """The drafted round, not published yet, as the desk shows it (its tables, byes and
    repeats, in the shape of the detail's ``rounds``, and its ``id``), or ``None``."""
    drafted = _seated_rounds(tournament.rounds.filter(status=Round.Status.DRAFT)).first()
    if drafted is None:
        return None
    entries = {e.pk: e for e in tournament.entries.select_related("player__player")}
    no_results = _TableResults(Table.objects.none(), entries, tournament.scoring)
    return {**_round_summary(drafted, entries, no_results, tournament.play), "id": drafted.pk}


def round_seating(*, rounds: list[dict[str, Any]], number: int | None) -> dict[str, Any] | None:
    """One of the tournament detail's ``rounds`` (the latest when ``number`` is None), plus
    ``by_name``: everyone alphabetically with their table and seat (``None``: a bye)."""
    chosen = next((r for r in reversed(rounds) if number in (None, r["number"])), None)
    if chosen is None:
        return None
    places = [
        {"name": seat["name"], "table": table["number"], "seat": seat["seat"]}
        for table in chosen["tables"]
        for seat in table["seats"]
    ]
    places += [{"name": bye["name"], "table": None, "seat": None} for bye in chosen["byes"]]
    return {**chosen, "by_name": sorted(places, key=lambda place: place["name"].casefold())}


def seatable_entries(*, tournament: Tournament, number: int) -> list[int]:
    """Ids of the entries to seat in round ``number`` (active, present, joined by then), in id
    order (the draw needs a stable one)."""
    return list(
        tournament.entries.filter(
            withdrawn_after__isnull=True, present=True, joined_round__lte=number
        )
        .order_by("pk")
        .values_list("pk", flat=True)
    )


def entries_missing(*, tournament: Tournament) -> int:
    """How many more present entries the next round needs before a table of it can be seated
    (0: enough; one is enough when server bots fill the tables)."""
    number = tournament.rounds.exclude(status=Round.Status.DRAFT).count() + 1
    fewest = 1 if tournament.fill_with_bots else catalog.find_ruleset(tournament.ruleset).players[0]
    return max(0, fewest - len(seatable_entries(tournament=tournament, number=number)))


def slip_columns(*, tournament: Tournament) -> int:
    """Boxes a result slip gives each player: one per deal, or enough for a game to a target."""
    return tournament.deals_per_round or SLIP_BOXES_TO_TARGET


def table_of(*, tournament: Tournament, round_number: int, table_number: int) -> Table:
    """A table of a published round, by the numbers the desk and the API use."""
    table = (
        Table.objects.select_related("round", "match")
        .filter(
            round__tournament=tournament,
            round__number=round_number,
            number=table_number,
            round__status__in=Round.PLAYED,
        )
        .first()
    )
    if table is None:
        raise errors.TableNotFound(
            gettext("Round %(round)s has no table %(table)s (or is not published).")
            % {"round": round_number, "table": table_number}
        )
    return table


def own_entries(*, user: User, limit: int = 20) -> list[dict[str, Any]]:
    """The caller's entries (their player's, or their seat link's) in tournaments not cancelled,
    newest first, each with its table in the latest published round: what a player's own page,
    or a guest's seat page, shows — whether to check in, where to sit, what to report."""
    entries = list(
        Entry.objects.filter(Q(player=user) | Q(guest_user=user), withdrawn_after__isnull=True)
        .exclude(tournament__status=Tournament.Status.CANCELLED)
        .select_related("tournament")
        .order_by("-tournament__created_at", "-tournament_id")[:limit]
    )
    latest = {
        seat.entry_id: seat
        for seat in TableSeat.objects.filter(entry__in=entries, round__status__in=Round.PLAYED)
        .select_related("round", "table")
        .order_by("round__number")
    }
    return [
        {
            "tournament": entry.tournament_id,
            "name": entry.tournament.name,
            "status": entry.tournament.status,
            "play": entry.tournament.play,
            "self_report": entry.tournament.self_report,
            "self_checkin": entry.tournament.self_checkin,
            "entry": entry.name,
            "present": entry.present,
            "table": (
                {
                    "round": latest[entry.pk].round.number,
                    "table": latest[entry.pk].table.number,
                    "seat": latest[entry.pk].seat,
                }
                if entry.pk in latest
                else None
            ),
        }
        for entry in entries
    ]


def guests_have_links(tournament: Tournament) -> bool:
    """Whether the tournament's guests get seat links: online they play through them; offline
    they report results and check in through them, when the tournament lets players do so."""
    return (
        tournament.play == Tournament.Play.ONLINE
        or tournament.self_report != Tournament.SelfReport.OFF
        or tournament.self_checkin
    )


def holds_guest_entry(user: User, *, tournament_id: int) -> bool:
    """Whether the user is the seat-link user of a guest of this tournament (the API lets its
    token read the tournament, report, confirm, dispute and check in; the services then let it
    act only for its own entry)."""
    return Entry.objects.filter(guest_user=user, tournament_id=tournament_id).exists()


def seated_entry(user: User, table: Table) -> Entry | None:
    """The caller's entry at the table (their player's, or their seat link's); none for a
    director acting as the desk; 403 ``not_at_table`` for anyone else."""
    entry = (
        Entry.objects.filter(seats__table=table).filter(Q(player=user) | Q(guest_user=user)).first()
    )
    if entry is None and not has_power(user, Power.RESULTS):
        raise errors.NotAtTable(
            gettext("Only the players at table %(table)s (or the desk) may do this.")
            % {"table": table.number}
        )
    return entry


def table_reports(
    *, tournament: Tournament, round_number: int, table_number: int, user: User
) -> list[ResultReport]:
    """A table's reports from the players' phones, oldest first: for its players and the desk."""
    table = table_of(tournament=tournament, round_number=round_number, table_number=table_number)
    seated_entry(user, table)
    return list(
        table.reports.select_related("table__round", "reporter", "answerer", "reported_by")
        .select_related("answered_by")
        .order_by("reported_at", "pk")
    )


def report_summary(report: ResultReport) -> dict[str, Any]:
    """A report as the API shows it: who reported (the entry's name, or the desk user's) and
    when, its result body, its status and who confirmed or disputed it."""
    return {
        "id": report.pk,
        "round": report.table.round.number,
        "table": report.table.number,
        "by": _actor_name(report.reporter, report.reported_by),
        "at": report.reported_at.isoformat(),
        "result": report.result,
        "status": report.status,
        "answered_by": (
            _actor_name(report.answerer, report.answered_by) if report.answered_by else None
        ),
        "answered_at": report.answered_at.isoformat() if report.answered_at else None,
        "reason": report.reason,
    }


def _actor_name(entry: Entry | None, user: User | None) -> str:
    """A person as others read them: the entry's display name, else the desk user's name."""
    if entry is not None:
        return entry.name
    return user.get_username() if user is not None else ""


def table_detail(*, table: Table) -> dict[str, Any]:
    """One table as the tournament detail shows it: seats, result and score lines."""
    table = Table.objects.select_related("round__tournament").get(pk=table.pk)
    tournament = table.round.tournament
    entries = {e.pk: e for e in tournament.entries.select_related("player__player").order_by("pk")}
    seats = list(table.seats.order_by("seat"))
    outcomes = _TableResults(Table.objects.filter(pk=table.pk), entries, tournament.scoring)
    return _table_summary(table, seats, entries, outcomes, tournament.play)


def _entry_summary(
    entry: Entry, seat_secret: str | None, absolute: Callable[[str], str]
) -> dict[str, Any]:
    play_url = reverse("play-seat", args=[seat_secret]) if seat_secret else None
    return {
        "id": entry.pk,
        "name": entry.name,
        "kind": entry.kind,
        "player": entry.player.get_username() if entry.player else None,
        "bot": entry.bot_strategy or None,
        "bot_account": game_selectors.bot_account(entry.player),
        "joined_round": entry.joined_round,
        "withdrawn": not entry.is_active,
        "play_url": absolute(play_url) if play_url else None,
        "present": entry.present,
    }


def _seated(entry: Entry) -> dict[str, Any]:
    return {
        "entry": entry.pk,
        "name": entry.name,
        "bot": entry.bot_strategy or None,
        "bot_account": game_selectors.bot_account(entry.player),
    }


def _round_summary(
    played: Round, entries: dict[int, Entry], outcomes: _TableResults, play: str
) -> dict[str, Any]:
    seats_by_table: defaultdict[int, list[TableSeat]] = defaultdict(list)
    for seat in played.seats.all():
        seats_by_table[seat.table_id].append(seat)
    return {
        "number": played.number,
        "status": played.status,
        "seed": played.seed,
        "repeats": played.repeats,
        "repeat_lower_bound": played.repeat_lower_bound,
        "repeat_verdict": played.repeat_verdict,
        "published_at": played.published_at.isoformat() if played.published_at else None,
        "clock": round_clock(played),
        "tables": [
            _table_summary(table, seats_by_table[table.pk], entries, outcomes, play)
            for table in played.tables.all()
        ],
        "byes": [_seated(entries[bye.entry_id]) for bye in played.byes.all()],
    }


def round_clock(played: Round) -> dict[str, Any]:
    """The round clock as the API shows it: when it ends (running) or the seconds left (paused)."""
    remaining = played.clock_paused_remaining
    return {
        "ends_at": played.clock_ends_at.isoformat() if played.clock_ends_at else None,
        "paused_remaining": remaining.total_seconds() if remaining is not None else None,
    }


def _table_summary(
    table: Table,
    seats: list[TableSeat],
    entries: dict[int, Entry],
    outcomes: _TableResults,
    play: str,
) -> dict[str, Any]:
    return {
        "number": table.number,
        "match": table.match_id,
        "played": play,
        "recorded": table.recorded_at is not None,
        "seats": [{"seat": s.seat, **_seated(entries[s.entry_id])} for s in seats],
        "fill_bots": table.fill_bots,
        "result": outcomes.of(table, [entries[s.entry_id].name for s in seats]),
        "report_status": outcomes.open_reports.get(table.pk),
    }


class _TableResults:
    """The results of some tables in three queries (score lines, desk entries, players' open
    reports), whatever their number: deals with each name's points (French scoring: and the
    tallies each was left holding), totals, who entered the result and when (and who reported
    and confirmed it from their phones), and the tables whose report awaits an answer."""

    def __init__(self, tables: QuerySet[Table], entries: dict[int, Entry], scoring: str) -> None:
        self.french = scoring == Scoring.FRENCH
        self.lines: defaultdict[int, defaultdict[int, dict[str, Any]]] = defaultdict(
            lambda: defaultdict(
                lambda: {"winner": None, "points": {}, **({"tallies": {}} if self.french else {})}
            )
        )
        for table_id, deal, entry_id, points, won, conceded in (
            ScoreLine.objects.filter(table__in=tables)
            .order_by("deal", "entry_id")
            .values_list("table_id", "deal", "entry_id", "points", "won", "conceded")
        ):
            line = self.lines[table_id][deal]
            name = entries[entry_id].name
            line["points"][name] = points
            if self.french:
                line["tallies"][name] = conceded
            if won:
                line["winner"] = name
        self.entered: defaultdict[int, list[ResultEntry]] = defaultdict(list)
        for entered in (
            ResultEntry.objects.filter(table__in=tables)
            .select_related("entered_by", "report__reporter", "report__reported_by")
            .select_related("report__answerer", "report__answered_by")
            .order_by("entered_at", "pk")
        ):
            self.entered[entered.table_id].append(entered)
        # A table waits for an opponent's confirmation (``pending``) or for the desk
        # (``disputed``: which wins when a table has both).
        self.open_reports: dict[int, str] = {}
        for table_id, status in (
            ResultReport.objects.filter(table__in=tables, status__in=ResultReport.OPEN)
            .order_by("status")  # "disputed" before "pending"
            .values_list("table_id", "status")
        ):
            self.open_reports.setdefault(table_id, status)

    def of(self, table: Table, names: list[str]) -> dict[str, Any] | None:
        if table.recorded_at is None:
            return None
        deals = [{"number": n, **deal} for n, deal in sorted(self.lines[table.pk].items())]
        history = self.entered[table.pk] if table.outcome == Table.Outcome.ENTERED else []
        latest = history[-1] if history else None
        held = (
            {"conceded": {n: sum(deal["tallies"].get(n, 0) for deal in deals) for n in names}}
            if self.french
            else {}
        )
        return {
            "source": table.outcome,
            "totals": {name: sum(deal["points"].get(name, 0) for deal in deals) for name in names},
            **held,
            "deals": deals,
            "entered": latest.result if latest else None,
            "entered_by": _entered_by(latest) if latest else None,
            "entered_at": latest.entered_at.isoformat() if latest else None,
            "corrections": max(len(history) - 1, 0),
            "history": [
                {
                    "entered_by": _entered_by(version),
                    "entered_at": version.entered_at.isoformat(),
                    "reason": version.reason,
                    **_reported(version.report),
                }
                for version in history
            ],
        }


def _entered_by(version: ResultEntry) -> str:
    """Who entered a result: the desk user, or the player whose report or confirmation recorded
    it, by their entry's name (a guest's seat-link user has a name people are not shown)."""
    report = version.report
    if report is None:
        return version.entered_by.get_username()
    confirmed = report.status == ResultReport.Status.CONFIRMED
    entry = report.answerer if confirmed else report.reporter
    return _actor_name(entry, version.entered_by)


def _reported(report: ResultReport | None) -> dict[str, str | None]:
    """Who reported a result from their phone and who confirmed it (none: the desk entered it;
    no confirmer: recorded at once in a trusted tournament)."""
    if report is None:
        return {"reported_by": None, "confirmed_by": None}
    confirmed = report.status == ResultReport.Status.CONFIRMED
    return {
        "reported_by": _actor_name(report.reporter, report.reported_by),
        "confirmed_by": _actor_name(report.answerer, report.answered_by) if confirmed else None,
    }


def table_format(*, tournament: Tournament, names: Sequence[str]) -> results.TableFormat:
    """What a result of this tournament's tables must fit (names in seat order)."""
    target = tournament.target
    if tournament.scoring == Scoring.ABBOTT and target is None:
        target = catalog.find_ruleset(tournament.ruleset).options["target"]
    deck_tally = None
    if tournament.scoring == Scoring.FRENCH:
        game = catalog.new_game(tournament.ruleset, tournament.table_size, tournament.options)
        assert isinstance(game, SheddingGame)  # French scoring is for shedding rulesets
        deck_tally = french_tally(game.rules.deck)
    return results.TableFormat(
        scoring=Scoring(tournament.scoring),
        names=tuple(names),
        deals=tournament.deals_per_round,
        target=target,
        deck_tally=deck_tally,
    )


def result_preview(
    *, tournament: Tournament, names: Sequence[str], result: dict[str, Any]
) -> list[dict[str, Any]]:
    """What a result would score, deal by deal, with running totals — before it is saved.

    Raises :class:`~switchgame.tournament.results.ResultInvalid` when it cannot be right.
    """
    scoring = Scoring(tournament.scoring)
    hands = results.hands_from_result(table_format(tournament=tournament, names=names), result)
    totals = [0] * len(names)
    preview = []
    for hand in hands:
        points = results.hand_points(scoring, hand)
        totals = [total + p for total, p in zip(totals, points, strict=True)]
        preview.append(
            {
                "number": hand.number,
                "winner": None if hand.winner is None else names[hand.winner],
                "points": list(points),
                "totals": list(totals),
            }
        )
    return preview


# --- standings -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Standings:
    """Standings rows ready to show (the API shape plus per-round points), the round numbers, and
    each entry's ranking score after each round (``None`` before it first played) for the chart."""

    rows: list[dict[str, Any]]
    round_numbers: list[int]
    score_history: dict[str, list[float | None]]


def tournament_standings(*, tournament: Tournament) -> list[StandingRow]:
    """The pure standings (entry ids) from the recorded tables and the byes of complete rounds."""
    return _standings_inputs(tournament).rows


def standings_table(*, tournament: Tournament) -> Standings:
    """The standings as the API, the CSV export and the pages show them (the API guide)."""
    inputs = _standings_inputs(tournament)
    holders = {pk: entry.rating_holder for pk, entry in inputs.entries.items()}
    held = {
        holder: ratings.Rating(mu=mu, sigma=sigma)
        for holder, mu, sigma in Rating.objects.filter(
            game=catalog.find_ruleset(tournament.ruleset).game, holder__in=holders.values()
        ).values_list("holder", "mu", "sigma")
    }
    fresh = ratings.initial_rating()
    rows, history = [], {}
    for row in inputs.rows:
        entry = inputs.entries[row.entry]
        rating = held.get(holders[row.entry], fresh)
        rows.append(
            {
                "rank": row.rank,
                "entry": row.entry,
                "player": entry.name,
                "kind": entry.kind,
                "bot": entry.bot_strategy or None,
                "score": row.score,
                "points": row.points,
                "deals_won": row.deals_won,
                "played": row.played,
                "byes": row.byes,
                "withdrawn": not entry.is_active,
                "present": entry.present,
                "tiebreaks": row.tiebreaks,
                "rating": rating.ordinal,
                "round_points": {number: row.round_points.get(number) for number in inputs.rounds},
            }
        )
        history[entry.name] = _running_scores(row.round_scores, inputs.rounds, tournament.ranking)
    return Standings(rows=rows, round_numbers=inputs.rounds, score_history=history)


def _running_scores(
    by_round: dict[int, float], rounds: list[int], ranking: str
) -> list[float | None]:
    """The ranking score after each round — the round scores so far added up (``total``) or
    averaged — ``None`` until the first one."""
    running, total, count = [], 0.0, 0
    for number in rounds:
        if number in by_round:
            total, count = total + by_round[number], count + 1
        mean = total / count if count else None
        running.append(total if count and ranking == Ranking.TOTAL else mean)
    return running


# The CSV dialects of the exports: the language their figures and words are written in, and the
# separator of their cells (a spreadsheet in French reads ``;`` and a decimal comma).
CSV_DIALECTS = {"excel": ("en", ","), "excel-fr": ("fr", ";")}


def csv_dialect(language: str) -> str:
    """The dialect of a page in ``language``: a French page's export opens in French Excel."""
    return "excel-fr" if language == "fr" else "excel"


def standings_csv(*, standings: Standings, dialect: str = "excel") -> str:
    """The standings as CSV (UTF-8 with a byte-order mark) in ``dialect``: one column per figure
    (each tie-break once, per-round points last), rounded as the pages round them, with the
    dialect's decimal separator and yes/no in its language."""
    language, delimiter = CSV_DIALECTS[dialect]
    out = io.StringIO()
    out.write(BYTE_ORDER_MARK)
    writer = csv.writer(out, delimiter=delimiter)
    with translation.override(language):
        writer.writerow(standings_header(standings=standings))
        for row in standings.rows:
            writer.writerow(_cell(value, places) for value, places in _export_row(standings, row))
    return out.getvalue()


def standings_xlsx(*, standings: Standings) -> bytes:
    """The standings as a spreadsheet (.xlsx), the CSV's columns with typed cells: numbers (rounded
    as the pages round them), true/false, and text that is never a formula."""
    workbook = Workbook()
    sheet = workbook.active
    assert sheet is not None  # a new workbook has its sheet
    sheet.title = "standings"
    sheet.append(standings_header(standings=standings))
    for number, row in enumerate(standings.rows, start=2):
        for column, (value, places) in enumerate(_export_row(standings, row), start=1):
            cell = sheet.cell(row=number, column=column, value=_typed(value, places))
            if isinstance(value, str):
                cell.data_type = "s"  # text as it is: openpyxl would read "=…" as a formula
    out = io.BytesIO()
    workbook.save(out)
    return out.getvalue()


def standings_header(*, standings: Standings) -> list[str]:
    """The exports' column names: the API's field names, in every language."""
    return [
        *(name for name, _ in CSV_COLUMNS),
        *(name for name, _ in CSV_TIEBREAKS),
        *(f"round_{n}" for n in standings.round_numbers),
    ]


def _export_row(standings: Standings, row: dict[str, Any]) -> list[tuple[Any, int | None]]:
    """A row of the exports: each value with the decimal places the pages show it with."""
    return [
        *((row[name], places) for name, places in CSV_COLUMNS),
        *((row["tiebreaks"].get(name), places) for name, places in CSV_TIEBREAKS),
        *((row["round_points"][n], 2) for n in standings.round_numbers),
    ]


def _typed(value: Any, places: int | None) -> Any:
    """A spreadsheet cell's value: a figure rounded as the pages round it, else as it is."""
    if places is None or not isinstance(value, float):
        return value
    return float(Decimal(repr(value)).quantize(Decimal(1).scaleb(-places), ROUND_HALF_UP))


def standings_filename(*, tournament: Tournament, extension: str = "csv") -> str:
    """The export's file name: the tournament's name, so a download says what it is."""
    return f"{slugify(tournament.name) or f'tournament-{tournament.pk}'}-standings.{extension}"


def _cell(value: Any, places: int | None) -> Any:
    """A CSV cell: ``None`` empty, a figure rounded by the pages' own rounding (``floatformat``:
    half away from zero, whole numbers without decimals), so the file and the pages agree; text
    (a name) never read as a formula."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return gettext("yes") if value else gettext("no")
    if isinstance(value, str):
        return inert_text(value)
    if places is None or not isinstance(value, float):
        return value
    return floatformat(value, -places)


def _fill_bot_key(table_id: int, number: int) -> int:
    """A key for a server bot filling a table: negative, so never an entry's id. It counts as an
    opponent at its table and is never ranked."""
    return -(table_id * 16 + number + 1)


@dataclass(frozen=True)
class _Inputs:
    rows: list[StandingRow]
    entries: dict[int, Entry]
    rounds: list[int]


def _standings_inputs(tournament: Tournament) -> _Inputs:
    """Five queries: entries, recorded tables, their seats, summed lines, byes (and the
    standings a sixth: the ratings)."""
    entries = {e.pk: e for e in Entry.objects.filter(tournament=tournament).order_by("pk")}
    tables: dict[int, tuple[int, bool]] = {}
    points: defaultdict[int, dict[int, float]] = defaultdict(dict)
    for pk, number, outcome, fill_points in Table.objects.filter(
        round__tournament=tournament, recorded_at__isnull=False
    ).values_list("pk", "round__number", "outcome", "fill_points"):
        tables[pk] = (number, outcome == Table.Outcome.FORFEITED)
        points[pk] = {_fill_bot_key(pk, seat): p for seat, p in enumerate(fill_points or ())}
    for table_id, entry_id in TableSeat.objects.filter(table_id__in=tables).values_list(
        "table_id", "entry_id"
    ):
        points[table_id][entry_id] = 0  # a forfeited table has no lines
    deals_won: defaultdict[int, dict[int, int]] = defaultdict(dict)
    conceded: defaultdict[int, dict[int, int]] = defaultdict(dict)
    sums = (
        ScoreLine.objects.filter(table_id__in=tables)
        .values("table_id", "entry_id")
        .annotate(
            total=Sum("points"), won=Count("pk", filter=Q(won=True)), conceded=Sum("conceded")
        )
    )
    for line in sums:
        points[line["table_id"]][line["entry_id"]] = line["total"]
        deals_won[line["table_id"]][line["entry_id"]] = line["won"]
        conceded[line["table_id"]][line["entry_id"]] = line["conceded"]
    byes = [
        ByeResult(round_number=number, entry=entry_id)
        for number, entry_id in Bye.objects.filter(
            round__tournament=tournament, round__status=Round.Status.COMPLETE
        ).values_list("round__number", "entry_id")
    ]
    table_results = [
        TableResult(
            number,
            points[table_id],
            deals_won[table_id],
            forfeited=forfeited,
            conceded=conceded[table_id],
        )
        for table_id, (number, forfeited) in sorted(tables.items())
        if len(points[table_id]) >= 2
    ]
    in_play = {entry for result in table_results for entry in result.points} | {
        b.entry for b in byes
    }
    field = [pk for pk, entry in entries.items() if entry.is_active or pk in in_play]
    rows = standings(
        field,
        table_results,
        byes,
        bye_policy=tournament.bye_policy,
        seed=tournament.seed,
        ranking=tournament.ranking,
        with_conceded=tournament.scoring == Scoring.FRENCH,
    )
    rounds = sorted(
        {result.round_number for result in table_results} | {b.round_number for b in byes}
    )
    return _Inputs(rows=rows, entries=entries, rounds=rounds)
