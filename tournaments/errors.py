"""The domain errors of the tournament service, each with a stable ``code`` and HTTP status.

The API contract names ``round_in_progress``, ``invalid_result``, ``result_recorded``,
``bots_need_online_play``, ``round_has_results``, ``has_results``, ``implausible_tally``, and for
the players' reports ``not_at_table``, ``report_pending``, ``self_report_off`` and
``checkin_closed``; the others are listed in docs/api.md ("Tournaments").
"""

from typing import Self

from django.utils.translation import gettext

from switchsite.problems import ServiceError


class TournamentNotFound(ServiceError):
    status, code = 404, "not_found"


class StaffOnly(ServiceError):
    status, code = 403, "staff_only"


class InvalidScoring(ServiceError):
    status, code = 400, "invalid_scoring"


class UnknownPlayer(ServiceError):
    status, code = 400, "unknown_player"


class NotRegistering(ServiceError):
    status, code = 409, "not_registering"

    @classmethod
    def closed(cls, status: str) -> Self:
        """The refusal of an entry or a withdrawal once the tournament is over or cancelled."""
        said = (
            gettext("The tournament is cancelled: its entries are closed.")
            if status == "cancelled"
            else gettext("The tournament is over: its entries are closed.")
        )
        return cls(said)


class AlreadyRegistered(ServiceError):
    status, code = 409, "already_registered"


class NameTaken(ServiceError):
    status, code = 409, "name_taken"


class NotRegistered(ServiceError):
    status, code = 409, "not_registered"


class AlreadyStarted(ServiceError):
    status, code = 409, "already_started"


class NotStarted(ServiceError):
    status, code = 409, "not_started"


class NotEnoughEntries(ServiceError):
    status, code = 409, "not_enough_entries"


class RoundInProgress(ServiceError):
    status, code = 409, "round_in_progress"


class TournamentFinished(ServiceError):
    status, code = 409, "tournament_finished"


class NoDraftRound(ServiceError):
    status, code = 409, "no_draft_round"


class InvalidSeating(ServiceError):
    status, code = 400, "invalid_seating"


class TableNotFound(ServiceError):
    status, code = 404, "not_found"


class InvalidSettings(ServiceError):
    status, code = 400, "invalid"


class InvalidEntries(ServiceError):
    status, code = 400, "invalid_entries"


class BotsNeedOnlinePlay(ServiceError):
    status, code = 400, "bots_need_online_play"


class InvalidResult(ServiceError):
    status, code = 400, "invalid_result"


class ResultRecorded(ServiceError):
    status, code = 409, "result_recorded"


class RoundNotFound(ServiceError):
    status, code = 404, "not_found"


class ClockNotRunning(ServiceError):
    status, code = 409, "clock_not_running"


class ClockNotPaused(ServiceError):
    status, code = 409, "clock_not_paused"


class TournamentCancelled(ServiceError):
    status, code = 409, "tournament_cancelled"

    @classmethod
    def results_closed(cls, name: str) -> Self:
        """The refusal of a result on a cancelled tournament, the API's and the desk's alike."""
        return cls(
            gettext("%(name)s is cancelled: its results are closed, none is entered or corrected.")
            % {"name": name}
        )


class NotLatestRound(ServiceError):
    status, code = 409, "not_latest_round"


class RoundHasResults(ServiceError):
    status, code = 409, "round_has_results"


class HasResults(ServiceError):
    status, code = 409, "has_results"


class ImplausibleTally(ServiceError):
    status, code = 400, "implausible_tally"


class NotAtTable(ServiceError):
    """Only the players at a table (or the desk) report, confirm or dispute its result; the
    reporter never confirms their own report."""

    status, code = 403, "not_at_table"


class ReportPending(ServiceError):
    status, code = 409, "report_pending"


class SelfReportOff(ServiceError):
    status, code = 409, "self_report_off"


class ReportNotFound(ServiceError):
    status, code = 404, "not_found"


class CheckinClosed(ServiceError):
    status, code = 409, "checkin_closed"
