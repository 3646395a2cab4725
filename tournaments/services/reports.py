"""Results from the players' phones: a player at an offline table reports its result, an opponent
confirms it (then it is recorded as if the desk had entered it) or disputes it (then the desk
settles it by entering the result); in a trusted tournament a report is recorded at once. And
self check-in: an entry marks itself present before its round is seated.

A report goes through the desk's own check (``table_results.result_checked``): the same 400s,
whoever sends it. Who may act is decided here, from the table's seats: the entry's player, the
guest's seat link (its own user), or a director with the power to enter results.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext

from tournaments import errors, selectors
from tournaments.models import Entry, ResultReport, Table, Tournament
from tournaments.services.common import locked_tournament
from tournaments.services.table_results import (
    has_recorded_result,
    open_table,
    result_checked,
    result_write,
    tell_table,
)


def report_create(
    *,
    tournament_id: int,
    round_number: int,
    table_number: int,
    user: User,
    result: dict[str, Any],
    confirm: bool = False,
) -> ResultReport:
    """A table's result as a player at it (or the desk) reports it.

    With ``confirm`` mode it waits for an opponent (``pending``); with ``trust`` it is recorded
    at once (``recorded``). While one is pending, the same result again (or any from the same
    reporter) is refused with 409 ``report_pending`` — confirm it instead — and a different
    result from another player disputes it: both reports are then ``disputed``, for the desk.
    """
    with transaction.atomic():
        tournament = locked_tournament(tournament_id)
        table = _reportable_table(tournament, round_number, table_number)
        reporter = selectors.seated_entry(user, table)
        _require_no_result(table)
        checked = result_checked(tournament, table, result, confirm=confirm)
        waiting = list(table.reports.filter(status__in=ResultReport.OPEN))
        if any(report.status == ResultReport.Status.DISPUTED for report in waiting):
            raise errors.ReportPending(_disputed_words(table))
        pending = next(iter(waiting), None)
        if pending is not None and (
            _same_actor(pending, user, reporter) or pending.result == checked.result
        ):
            raise errors.ReportPending(
                gettext(
                    "A report of this table's result awaits confirmation: another player at the "
                    "table confirms or disputes it."
                )
            )
        report = ResultReport.objects.create(
            table=table, result=checked.result, reported_by=user, reporter=reporter
        )
        if pending is not None:
            _answer(pending, ResultReport.Status.DISPUTED, user, reporter)
            report.status = ResultReport.Status.DISPUTED
            report.save(update_fields=["status"])
        elif tournament.self_report == Tournament.SelfReport.TRUST:
            report.status = ResultReport.Status.RECORDED
            report.save(update_fields=["status"])
            result_write(tournament, table, checked, user=user, report=report)
        tell_table(tournament, table, report)
        return report


def report_confirm(
    *, tournament_id: int, round_number: int, table_number: int, report_id: int, user: User
) -> ResultReport:
    """Another player at the table (or the desk) confirms a pending report: its result is
    recorded as the desk's entry would be, naming who reported and who confirmed."""
    with transaction.atomic():
        tournament = locked_tournament(tournament_id)
        table, report, answerer = _answerable(
            tournament, round_number, table_number, report_id, user
        )
        checked = result_checked(tournament, table, report.result, confirm=True)
        _answer(report, ResultReport.Status.CONFIRMED, user, answerer)
        result_write(tournament, table, checked, user=user, report=report)
        tell_table(tournament, table, report)
        return report


def report_dispute(
    *,
    tournament_id: int,
    round_number: int,
    table_number: int,
    report_id: int,
    user: User,
    reason: str = "",
) -> ResultReport:
    """Another player at the table (or the desk) disputes a pending report: the table then
    waits for the desk, which settles it by entering the result."""
    with transaction.atomic():
        tournament = locked_tournament(tournament_id)
        table, report, answerer = _answerable(
            tournament, round_number, table_number, report_id, user
        )
        report.reason = reason
        _answer(report, ResultReport.Status.DISPUTED, user, answerer)
        tell_table(tournament, table, report)
        return report


def entry_checkin_self(*, tournament_id: int, user: User) -> Entry:
    """The caller's own entry (their player's, or their seat link's) marked present, while its
    next round is not seated yet (409 ``checkin_closed`` during a round, or without self
    check-in)."""
    with transaction.atomic():
        tournament = locked_tournament(tournament_id)
        entry = (
            Entry.objects.filter(tournament=tournament)
            .filter(Q(player=user) | Q(guest_user=user))
            .first()
        )
        if entry is None or not entry.is_active:
            raise errors.NotRegistered(gettext("You have no active entry in this tournament."))
        if not tournament.self_checkin:
            raise errors.CheckinClosed(
                gettext("This tournament has no self check-in: check in at the desk.")
            )
        if tournament.status not in (
            Tournament.Status.REGISTERING,
            Tournament.Status.ROUND_COMPLETE,
        ):
            raise errors.CheckinClosed(
                gettext("Check-in is closed: the round is seated. Check in for the next one.")
            )
        entry.present = True
        entry.save(update_fields=["present"])
        return entry


def _reportable_table(tournament: Tournament, round_number: int, table_number: int) -> Table:
    """A table whose players may report: offline, in a tournament with self-reporting on."""
    if (
        tournament.self_report == Tournament.SelfReport.OFF
        or tournament.play != Tournament.Play.OFFLINE
    ):
        raise errors.SelfReportOff(
            gettext("Results of this tournament are entered at the desk, not reported by players.")
        )
    return open_table(tournament, round_number=round_number, table_number=table_number)


def _require_no_result(table: Table) -> None:
    if has_recorded_result(table):
        raise errors.ResultRecorded(
            gettext(
                "Table %(table)s of round %(round)s has its result already; the desk corrects it "
                "if it is wrong."
            )
            % {"table": table.number, "round": table.round.number}
        )


def _answerable(
    tournament: Tournament, round_number: int, table_number: int, report_id: int, user: User
) -> tuple[Table, ResultReport, Entry | None]:
    """The table, its pending report and the caller's entry, for a confirmation or a dispute:
    never by the reporter, never once the table has its result or the report was answered."""
    table = _reportable_table(tournament, round_number, table_number)
    report = table.reports.filter(pk=report_id).first()
    if report is None:
        raise errors.ReportNotFound(
            gettext("Table %(table)s has no report %(report)s.")
            % {"table": table_number, "report": report_id}
        )
    answerer = selectors.seated_entry(user, table)
    if _same_actor(report, user, answerer):
        raise errors.NotAtTable(
            gettext("You reported this result: another player at the table confirms it.")
        )
    _require_no_result(table)
    if report.status != ResultReport.Status.PENDING:
        raise errors.ReportPending(_disputed_words(table))
    return table, report, answerer


def _same_actor(report: ResultReport, user: User, entry: Entry | None) -> bool:
    """Whether the caller is the one who reported: the same entry, or the same desk user."""
    if entry is not None or report.reporter_id is not None:
        return entry is not None and report.reporter_id == entry.pk
    return report.reported_by_id == user.pk


def _answer(report: ResultReport, status: str, user: User, entry: Entry | None) -> None:
    report.status = status
    report.answered_by, report.answerer, report.answered_at = user, entry, timezone.now()
    report.save(update_fields=["status", "answered_by", "answerer", "answered_at", "reason"])


def _disputed_words(table: Table) -> str:
    return gettext(
        "The result of table %(table)s is disputed: the desk settles it by entering the result."
    ) % {"table": table.number}
