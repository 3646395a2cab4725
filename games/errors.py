"""The domain errors of the match service, each with its stable ``code`` and HTTP status.

The engines' own errors (a malformed or illegal action, bad options or layout, an unknown ruleset)
are not re-declared here: :data:`ENGINE_PROBLEMS` gives each its status and code, and the exception
handler answers them as it answers these.
"""

from typing import Self

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from switchgame import catalog, protocol
from switchsite.problems import ServiceError, register_problem


class UsernameTaken(ServiceError):
    status, code = 409, "username_taken"


class RegistrationClosed(ServiceError):
    status, code = 403, "registration_closed"


class InvalidCredentials(ServiceError):
    status, code = 400, "invalid_credentials"


class InvalidBots(ServiceError):
    status, code = 400, "invalid_bots"


class InvalidPracticeSeed(ServiceError):
    status, code = 400, "invalid_practice_seed"


class PracticeRated(ServiceError):
    status, code = 400, "practice_rated"


class PracticeSeats(ServiceError):
    """A practice match seats its creator and server bots, nobody else."""

    status, code = 400, "practice_seats"


class PracticeMatch(ServiceError):
    """A seat of a practice match is its creator's: nobody else may take it."""

    status, code = 409, "practice_match"


class LayoutForbidden(ServiceError):
    status, code = 403, "layout_staff_only"


class MatchNotFound(ServiceError):
    status, code = 404, "not_found"


class PlayerNotFound(ServiceError):
    status, code = 404, "not_found"


class MatchFull(ServiceError):
    status, code = 409, "match_full"


class AlreadySeated(ServiceError):
    status, code = 409, "already_seated"


class SeatTaken(ServiceError):
    status, code = 409, "seat_taken"


class MatchStarted(ServiceError):
    status, code = 409, "match_started"


class SeatsEmpty(ServiceError):
    status, code = 409, "seats_empty"


class NotMatchCreator(ServiceError):
    status, code = 403, "not_match_creator"


class NotSeated(ServiceError):
    status, code = 403, "not_seated"


class NotYourTurn(ServiceError):
    status, code = 409, "not_your_turn"


class MatchNotActive(ServiceError):
    status, code = 409, "match_not_active"

    @classmethod
    def now(cls, status: str) -> Self:
        """The refusal of a move, a resignation or an abandonment, saying where the match is."""
        return cls(str(MATCH_STATUS_SAID[status]))


# Why a match takes no move, per status (whole sentences: the status is an API value).
MATCH_STATUS_SAID = {
    "waiting": _("The match has not started yet."),
    "active": _("The match is being played."),
    "finished": _("The match is over."),
    "abandoned": _("The match was abandoned."),
}


class StaleVersion(ServiceError):
    status, code = 409, "stale_version"


class CursorExpired(ServiceError):
    """The client's cursor leads to no events that follow it: those were removed by retention,
    or the cursor is beyond the last event or of another incarnation of the database (a restore).
    It re-reads what it needs and resumes from ``oldest`` or ``last``, in ``incarnation``."""

    status, code = 410, "cursor_expired"

    def __init__(self, detail: str, *, oldest: int, last: int, incarnation: str) -> None:
        super().__init__(detail, oldest=oldest, last=last, incarnation=incarnation)


class InvalidChallenge(ServiceError):
    status, code = 400, "invalid_challenge"


class ChallengeNotFound(ServiceError):
    status, code = 404, "not_found"


class ChallengeNotPending(ServiceError):
    status, code = 409, "challenge_not_pending"


class NotInvited(ServiceError):
    status, code = 403, "not_invited"


class NotChallenger(ServiceError):
    status, code = 403, "not_challenger"


class MatchBusy(ServiceError):
    status, code = 409, "match_busy"


class MatchNotOver(ServiceError):
    """A game record exists once the match has finished or been abandoned."""

    status, code = 409, "match_not_over"


class RecordUnavailable(ServiceError):
    """The match's log does not give its record: a fault of the service, not of the caller, whose
    ``reason`` (the replay's error) is for staff, not for the answer."""

    status, code = 409, "record_unavailable"

    def __init__(self, match_id: int, reason: str) -> None:
        super().__init__(
            gettext(
                "The record of match %(match)s cannot be built from its log; "
                "the service's staff can see why."
            )
            % {"match": match_id}
        )
        self.reason = reason


ENGINE_PROBLEMS: dict[type[Exception], tuple[int, str]] = {
    catalog.UnknownRuleset: (400, "invalid_ruleset"),
    protocol.InvalidOptions: (400, "invalid_options"),
    protocol.InvalidLayout: (400, "invalid_layout"),
    protocol.InvalidAction: (400, "invalid_action"),
    protocol.IllegalMove: (422, "illegal_move"),
}
for _error, (_status, _code) in ENGINE_PROBLEMS.items():
    register_problem(_error, _status, _code)


class TokenNotFound(ServiceError):
    status, code = 404, "not_found"
