"""The tournament director's powers: each a named Django permission, checked by every door — the
services (so the API and the desk's buttons alike), the desk's own pages, and what the API shows.

``is_staff`` alone gives none of them (it only lets a user into the admin); a superuser has them
all; the "Tournament director" group (made by migration 0006) has them all too, with the admin's
model permissions a director needs. An operator may also grant them one by one.
"""

from __future__ import annotations

import operator
from functools import reduce
from typing import Any

from django.contrib.auth.models import Group, Permission, User
from django.db.models import Q
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from switchsite import powers
from switchsite.powers import has_power
from tournaments import errors

__all__ = [
    "DIRECTORS",
    "DIRECTOR_PERMISSIONS",
    "Power",
    "director_group",
    "directors",
    "has_power",
    "require_power",
]

DIRECTORS = "Tournament director"


class Power(powers.Power):
    """A director's power: its permission on the Tournament model, and what it allows."""

    CREATE = ("add_tournament", _("create a tournament or a series"))
    REGISTER = ("register_entries", _("register, check in or withdraw others' entries"))
    SEAT = ("seat_rounds", _("seat, publish or withdraw a round"))
    RESULTS = ("enter_results", _("enter or correct a table's result"))
    CLOCK = ("run_clock", _("run the round clock"))
    CANCEL = ("cancel_tournament", _("cancel a tournament"))
    DELETE = ("delete_tournament", _("delete a tournament"))
    SEAT_LINKS = ("print_seat_links", _("see and print the guests' seat links"))
    VIEW = ("view_tournament", _("see tournaments that are not public"))


# What the group holds: every power, the admin pages of the desk (the tournament's page and list,
# rounds and their drafts, tables, series) and the table matches it links to.
DIRECTOR_PERMISSIONS = [
    *(("tournaments", power.codename) for power in Power),
    ("tournaments", "change_tournament"),
    ("tournaments", "view_round"),
    ("tournaments", "change_round"),
    ("tournaments", "view_table"),
    ("tournaments", "add_series"),
    ("tournaments", "change_series"),
    ("tournaments", "view_series"),
    ("games", "view_match"),
    ("games", "view_player"),
]


def director_group(group_model: Any, permission_model: Any) -> Any:
    """The "Tournament director" group with exactly :data:`DIRECTOR_PERMISSIONS`, made if need be
    (the models are passed in: migration 0012 gives its historical ones)."""
    group, _ = group_model.objects.get_or_create(name=DIRECTORS)
    wanted = reduce(
        operator.or_,
        (
            Q(content_type__app_label=app, codename=codename)
            for app, codename in DIRECTOR_PERMISSIONS
        ),
    )
    group.permissions.set(permission_model.objects.filter(wanted))
    return group


def directors() -> Group:
    """The directors' group (a flushed test database has lost the one the migration made)."""
    group: Group = director_group(Group, Permission)
    return group


def require_power(user: User, power: Power) -> None:
    """Refuse (403 ``staff_only``) unless the user has ``power``."""
    if not has_power(user, power):
        raise errors.StaffOnly(
            gettext("You need the tournament director's permission to %(allows)s.")
            % {"allows": power.allows}
        )
