"""Powers: named Django permissions, each with what it allows in words, checked by every door.

Each app lists its own (``games.powers``, ``tournaments.powers``) as an enumeration of this kind;
``is_staff`` alone gives none of them, a superuser all.
"""

from __future__ import annotations

import enum

from django.contrib.auth.models import AnonymousUser, User
from django.utils.functional import Promise


class Power(enum.Enum):
    """A power, as the codename of its permission in the app that lists it, and what it allows
    (the end of "You need the permission to …")."""

    def __init__(self, codename: str, allows: Promise) -> None:
        self.codename = codename
        self.allows = allows

    @property
    def permission(self) -> str:
        """``app.codename``: the app is the package of the module that lists the power."""
        return f"{type(self).__module__.split('.')[0]}.{self.codename}"


def has_power(user: User | AnonymousUser, power: Power) -> bool:
    return user.has_perm(power.permission)
