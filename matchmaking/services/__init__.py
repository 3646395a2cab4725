"""Every write of ladders and quick play (HackSoft's services):

- :mod:`~matchmaking.services.ladders` — ladders created, joined and left, and the scheduler's
  rounds;
- :mod:`~matchmaking.services.pool` — quick play's entries and the matches they make.

The public functions are re-exported here: callers write ``services.ladder_join(...)``.
"""

from datetime import datetime

from matchmaking.services.ladders import (
    LADDER_STRIKES,
    inactive_mark,
    ladder_create,
    ladder_join,
    ladder_leave,
    ladder_round_seat,
    ladder_table_start,
    ladders_due,
    old_tables_purge,
    tables_unstarted,
)
from matchmaking.services.pool import (
    ended_entries_purge,
    pool_enter,
    pool_entry_get,
    pool_leave,
    pool_match,
)


def matchmaking_purge(*, now: datetime) -> tuple[int, int]:
    """The retention sweep's share: old ladder tables and ended quick-play entries removed."""
    return old_tables_purge(now=now), ended_entries_purge(now=now)


__all__ = [
    "LADDER_STRIKES",
    "ended_entries_purge",
    "inactive_mark",
    "ladder_create",
    "ladder_join",
    "ladder_leave",
    "ladder_round_seat",
    "ladder_table_start",
    "ladders_due",
    "matchmaking_purge",
    "old_tables_purge",
    "pool_enter",
    "pool_entry_get",
    "pool_leave",
    "pool_match",
    "tables_unstarted",
]
