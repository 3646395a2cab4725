"""The domain errors of ladders and quick play, each with its stable ``code`` and HTTP status."""

from switchsite.problems import ServiceError


class LadderNotFound(ServiceError):
    status, code = 404, "not_found"


class LadderExists(ServiceError):
    """A ladder of this ruleset and table size exists already (there is one per table)."""

    status, code = 409, "ladder_exists"


class InvalidLadder(ServiceError):
    status, code = 400, "invalid"


class BotsOnly(ServiceError):
    """Only bot accounts play in ladders."""

    status, code = 403, "bots_only"


class LadderForbidden(ServiceError):
    status, code = 403, "permission_denied"


class PoolEntryNotFound(ServiceError):
    status, code = 404, "not_found"


class AlreadyWaiting(ServiceError):
    """The player is waiting in quick play already (one entry at a time)."""

    status, code = 409, "already_waiting"


class AlreadyMatched(ServiceError):
    """The entry has found its match: leave the match instead."""

    status, code = 409, "already_matched"
