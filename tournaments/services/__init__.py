"""Every write of the tournament service.

Each public function is one transaction that locks the tournament row (``select_for_update``)
first — table results, seating and corrections of one event therefore queue behind each other
(ratings take no lock here: a table's rated results are replayed by a games task). Functions raise a
:class:`~switchsite.problems.ServiceError` and write nothing when a rule forbids the change.

The flow of a round: :func:`round_draft` seats it (the organiser may then edit the tables in the
admin), :func:`round_publish` checks the seating and, online, creates and starts one match per
table; the API's ``start/`` and ``next-round/`` do both at once. When a table's match ends,
:func:`table_result_record` (run by a task) writes its score lines and rated results; offline
tables (real cards), and online tables the desk adjudicates, get theirs from
:func:`table_result_enter`. The round closes once every table is in. Standings are computed from
the score lines when read.

One module per thing written: the event (``tournaments``), its ``entries``, ``rounds``, table
results (``table_results``), the players' own reports and check-in (``reports``), the guests' seat links (``seat_links``) and the desk's ways back
(``lifecycle``: check-in, a round withdrawn, the event cancelled or deleted); this package's
namespace is the services' one door.
"""

from tournaments.services.clock import round_clock
from tournaments.services.entries import Entrant, entries_register, entry_register, entry_withdraw
from tournaments.services.lifecycle import (
    entry_checkin,
    round_unpublish,
    tournament_cancel,
    tournament_delete,
)
from tournaments.services.reports import (
    entry_checkin_self,
    report_confirm,
    report_create,
    report_dispute,
)
from tournaments.services.rounds import (
    round_draft,
    round_edit,
    round_next,
    round_publish,
    tournament_start,
)
from tournaments.services.seat_links import seat_links_renew
from tournaments.services.series import series_create
from tournaments.services.table_results import (
    standings_recompute,
    table_result_enter,
    table_result_record,
    unscored_matches,
)
from tournaments.services.tournaments import tournament_create

__all__ = [
    "Entrant",
    "entries_register",
    "entry_checkin",
    "entry_checkin_self",
    "entry_register",
    "entry_withdraw",
    "report_confirm",
    "report_create",
    "report_dispute",
    "round_clock",
    "round_draft",
    "round_edit",
    "round_next",
    "round_publish",
    "round_unpublish",
    "seat_links_renew",
    "series_create",
    "standings_recompute",
    "table_result_enter",
    "table_result_record",
    "tournament_cancel",
    "tournament_create",
    "tournament_delete",
    "tournament_start",
    "unscored_matches",
]
