"""Seat links: how a guest (a name, no account) plays the tables of an online tournament, and
reports results and checks in at an offline one that takes them from the players' phones.

Server matches seat users, so a guest entry of an online tournament gets a user of its own: no
password, no way to sign in, a username no registration can take (``Chloé (guest 12)``). Its only
credential is a token of scope ``seat`` — the seat link ``/play/seat/<secret>`` the desk hands out —
which allows that user's matches and feed and nothing else (switchsite.api.authentication).
"""

from __future__ import annotations

from collections.abc import Sequence

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import transaction

from games import services as game_services
from games.models import GUEST_SUFFIX, Player
from tournaments.models import Entry, Tournament
from tournaments.powers import Power, require_power
from tournaments.selectors import guests_have_links

SEAT_LINK_PATH = "/play/seat/{secret}/"


def seat_holder(entry: Entry) -> User | None:
    """Who holds the entry's seats in server matches: its player, a guest's own user (made, with
    its seat link, on first need), nobody for a bot entrant."""
    if entry.player is not None:
        return entry.player
    if entry.bot_strategy:
        return None
    if entry.guest_user is None:
        entry.guest_user = _guest_user_create(entry)
        entry.save(update_fields=["guest_user"])
    return entry.guest_user


def guest_online(entry: Entry, tournament: Tournament) -> None:
    """Give a guest just entered its seat link at once, if the tournament's guests have them
    (the desk shows it before the first round)."""
    if guests_have_links(tournament):
        seat_holder(entry)


def guest_users(tournament: Tournament) -> list[int]:
    """Ids of the users holding the seats of the tournament's guests."""
    return list(
        tournament.entries.filter(guest_user__isnull=False).values_list("guest_user_id", flat=True)
    )


def seat_links_renew(*, tournament: Tournament, user: User) -> None:
    """Before the desk prints the guests' seat links: a guest whose link cannot be derived again
    (``SECRET_KEY`` changed since it was made) gets a new one beside it, which the sheet prints;
    the card printed before keeps working. A guest entered before the director let players
    report or check in from their phones gets its link now."""
    require_power(user, Power.SEAT_LINKS)
    with transaction.atomic():
        if guests_have_links(tournament):
            for guest in tournament.entries.filter(
                player__isnull=True, bot_strategy="", guest_user__isnull=True
            ):
                seat_holder(guest)
        game_services.seat_links_renew(user_ids=guest_users(tournament))


def guest_users_retire(user_ids: Sequence[int]) -> None:
    """The guests' users of a deleted tournament, once their entries are gone: their seat links
    stop working, and a user no match seats is deleted with its game profile, feed and tokens.
    One seated in a match (abandoned, kept for the others at its table) stays, named there, but
    inert: no password, no token."""
    game_services.seat_tokens_revoke(user_ids=user_ids)
    get_user_model().objects.filter(pk__in=user_ids, seats__isnull=True).delete()


def _guest_user_create(entry: Entry) -> User:
    # Registration allows letters, digits and @.+-_ only: the space and parentheses keep a guest's
    # username apart from every player's.
    suffix = GUEST_SUFFIX.format(number=entry.pk)
    username = entry.name[: 150 - len(suffix)] + suffix
    user = get_user_model().objects.create_user(username=username, password=None)
    Player.objects.create(user=user)
    game_services.seat_token_create(user=user)
    return user
