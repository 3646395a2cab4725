"""The powers over other people's matches: each a named Django permission on the Match model, as
the tournament director's are (``tournaments.powers``). ``is_staff`` alone gives none of them (it
only lets a user into the admin); a superuser has them all, and an operator grants them one by one
(Users → the user → "User permissions") or to a group.
"""

from __future__ import annotations

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from switchsite import powers
from switchsite.powers import has_power

__all__ = ["Power", "has_power", "needed"]


class Power(powers.Power):
    """A power over matches: its permission on the Match model, and what it allows."""

    LAYOUT = ("fix_layout", _("fix the first deal of a match (its layout)"))
    START = ("start_any_match", _("start a match someone else created"))


def needed(power: Power) -> str:
    """Why a caller without ``power`` is refused, in their language."""
    return gettext("You need the permission to %(allows)s.") % {"allows": power.allows}
