"""The domain errors of the match service, each with the stable ``code`` and status of API.md."""

from switchsite.problems import ServiceError


class UsernameTaken(ServiceError):
    status, code = 409, "username_taken"


class RegistrationClosed(ServiceError):
    status, code = 403, "registration_closed"


class InvalidCredentials(ServiceError):
    status, code = 400, "invalid_credentials"


class InvalidRuleset(ServiceError):
    status, code = 400, "invalid_ruleset"


class InvalidOptions(ServiceError):
    status, code = 400, "invalid_options"


class InvalidLayout(ServiceError):
    status, code = 400, "invalid_layout"


class InvalidBots(ServiceError):
    status, code = 400, "invalid_bots"


class LayoutForbidden(ServiceError):
    status, code = 403, "layout_staff_only"


class MatchNotFound(ServiceError):
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


class StaleVersion(ServiceError):
    status, code = 409, "stale_version"


class InvalidAction(ServiceError):
    status, code = 400, "invalid_action"


class IllegalMove(ServiceError):
    status, code = 422, "illegal_move"
