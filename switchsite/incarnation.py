"""Which incarnation of its database the service serves: a value every restore changes.

Event cursors (``after``, ``Last-Event-ID``) are sequence numbers, and a restored database numbers
new events again from where its dump ended: a client that had seen event 54 of a match and resumes
against a restore taken at 34 would be sent 55 onwards of the new timeline, and never 35–54. So
the event endpoints say which incarnation their events belong to, clients send it back with their
cursor, and a cursor of another incarnation is answered 410 ``cursor_expired``.

Nothing has to be remembered at restore time: the incarnation is a digest of what PostgreSQL
itself changes whenever the data did not come to this database the ordinary way —

- the cluster's system identifier (a restore into another cluster: a new ``initdb``),
- its timeline (a point-in-time recovery or a replica promoted after a failover, which may lack
  the last transactions of the old primary),
- the database's OID (``pg_restore`` into a fresh database, the documented way),
- the OID of the marker table ``switchsite_incarnation`` (``pg_restore --clean`` into the same
  database drops and creates it again; a dump never keeps OIDs).

Nothing else changes them: restarts, upgrades of the service, ``VACUUM FULL`` and PgBouncer in
between keep the incarnation. Each process reads it at most every :data:`RECHECK_SECONDS`, with one
small query; SQLite (one process, no restores) has one incarnation.
"""

from __future__ import annotations

import hashlib
import threading
import time

from django.db import connection

from switchsite.asyncdb import run_sync

# How long a process trusts the incarnation it read before reading it again.
RECHECK_SECONDS = 5.0

MARKER_TABLE = "switchsite_incarnation"

IDENTITY_SQL = f"""
SELECT s.system_identifier, c.timeline_id, d.oid, '{MARKER_TABLE}'::regclass::oid
FROM pg_control_system() s, pg_control_checkpoint() c, pg_database d
WHERE d.datname = current_database()
"""


def identity() -> str:
    """What makes this database the one it is (the module's docstring says why each part)."""
    if connection.vendor != "postgresql":
        return connection.vendor
    with connection.cursor() as cursor:
        cursor.execute(IDENTITY_SQL)
        row = cursor.fetchone()
    return ":".join(str(part) for part in row)


def digest(of_identity: str) -> str:
    """The incarnation as clients see it: 12 hex digits, opaque."""
    return hashlib.sha256(of_identity.encode()).hexdigest()[:12]


_lock = threading.Lock()
_known: tuple[str, float] | None = None  # the incarnation last read, and when (monotonic)


def current() -> str:
    """This database's incarnation, read again when the last reading is older than
    :data:`RECHECK_SECONDS` (call from a thread that may use the database)."""
    global _known
    with _lock:
        known = _known
    if known is not None and time.monotonic() - known[1] < RECHECK_SECONDS:
        return known[0]
    value = digest(identity())
    with _lock:
        _known = (value, time.monotonic())
    return value


async def current_async() -> str:
    """:func:`current` from async code: no thread unless it must be read again."""
    known = _known
    if known is not None and time.monotonic() - known[1] < RECHECK_SECONDS:
        return known[0]
    return await run_sync(current)


def forget() -> None:
    """Read it again next time (tests, after they pointed the connection at another database)."""
    global _known
    with _lock:
        _known = None
