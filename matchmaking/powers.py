"""Who may create ladders: a named Django permission, as every power (``switchsite.powers``)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from switchsite import powers
from switchsite.powers import has_power

__all__ = ["Power", "has_power"]


class Power(powers.Power):
    """A power over ladders: its permission on the Ladder model, and what it allows."""

    CREATE = ("add_ladder", _("create a ladder"))
