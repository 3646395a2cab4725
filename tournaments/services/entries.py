"""Entries: players, guests and bot entrants registered, withdrawn and (late) entering."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import transaction
from django.utils import translation
from django.utils.translation import gettext, gettext_lazy

from switchgame import catalog
from switchgame.words import quoted
from switchsite.problems import ServiceError
from tournaments import errors
from tournaments.models import Entry, Tournament
from tournaments.powers import Power, require_power
from tournaments.services.common import (
    bot_strategy,
    locked_tournament,
    rounds_played,
)
from tournaments.services.seat_links import guest_online


@dataclass(frozen=True)
class Entrant:
    """Who to register: nobody named (the caller), a ``player`` by username, a ``guest`` by
    display name, or a ``bot`` strategy with an optional display ``name``."""

    player: str | None = None
    guest: str | None = None
    bot: str | None = None
    name: str | None = None


def entry_register(*, tournament_id: int, user: User, entrant: Entrant) -> Entry:
    """Register the caller, or (staff) a player, a guest or a bot entrant.

    Registering after the start is a late entry: the entry is seated from the next round on. A
    withdrawn player who registers again comes back the same way, with their results so far.
    """
    with transaction.atomic():
        tournament = locked_tournament(tournament_id)
        return _entry_add(tournament, user, entrant)


def entries_register(*, tournament_id: int, user: User, entrants: Sequence[Entrant]) -> list[Entry]:
    """Register many entrants at once (staff), all or none: every refusal is reported, by item."""
    require_power(user, Power.REGISTER)
    with transaction.atomic():
        tournament = locked_tournament(tournament_id)
        entries, refused = [], {}
        for index, entrant in enumerate(entrants):
            try:
                entries.append(_entry_add(tournament, user, entrant))
            except ServiceError as error:
                refused[f"entries[{index}]"] = [error.detail]
        if refused:
            raise errors.InvalidEntries(
                gettext("%(refused)s of %(entrants)s entries refused; nobody was registered.")
                % {"refused": len(refused), "entrants": len(entrants)},
                errors=refused,
            )
        return entries


def _entry_add(tournament: Tournament, user: User, entrant: Entrant) -> Entry:
    if tournament.status in (Tournament.Status.FINISHED, Tournament.Status.CANCELLED):
        raise errors.NotRegistering(
            gettext("The tournament is %(status)s.") % {"status": tournament.status}
        )
    next_round = rounds_played(tournament) + 1
    if entrant.bot is not None:
        require_power(user, Power.REGISTER)
        return _bot_entry_create(tournament, entrant, joined_round=next_round)
    if entrant.guest is not None:
        require_power(user, Power.REGISTER)
        display = _free_name(tournament, entrant.guest)
        guest = Entry.objects.create(tournament=tournament, name=display, joined_round=next_round)
        guest_online(guest, tournament)
        return guest
    player = _entrant(user, entrant.player)
    entry = Entry.objects.filter(tournament=tournament, player=player).first()
    if entry is not None and entry.is_active:
        raise errors.AlreadyRegistered(
            gettext("%(name)s is already registered.") % {"name": entry.name}
        )
    if entry is not None:
        entry.withdrawn_after = None
        entry.joined_round = max(entry.joined_round, next_round)
        entry.save(update_fields=["withdrawn_after", "joined_round"])
        return entry
    display = _free_name(tournament, player.get_username())
    return Entry.objects.create(
        tournament=tournament, player=player, name=display, joined_round=next_round
    )


def entry_withdraw(
    *,
    tournament_id: int,
    user: User,
    player: str | None = None,
    name: str | None = None,
) -> Entry:
    """Withdraw the caller, or (staff) a player by username or any entry by its display name.

    The entry keeps its results and its place in the standings; it is not seated again.
    """
    with transaction.atomic():
        tournament = locked_tournament(tournament_id)
        if tournament.status in (Tournament.Status.FINISHED, Tournament.Status.CANCELLED):
            raise errors.NotRegistering.closed(tournament.status)
        if name is not None:
            require_power(user, Power.REGISTER)
            entry = Entry.objects.filter(tournament=tournament, name__iexact=name.strip()).first()
        else:
            entry = Entry.objects.filter(
                tournament=tournament, player=_entrant(user, player)
            ).first()
        if entry is None or not entry.is_active:
            raise errors.NotRegistered(gettext("There is no such active entry in this tournament."))
        entry.withdrawn_after = rounds_played(tournament)
        entry.save(update_fields=["withdrawn_after"])
        return entry


def _entrant(user: User, username: str | None) -> User:
    """The user an entry is for: the caller, or (staff only) the player named."""
    if username is None:
        return user
    require_power(user, Power.REGISTER)
    entrant = get_user_model().objects.filter(username=username).first()
    if entrant is None:
        raise errors.UnknownPlayer(
            gettext("There is no player %(username)s.") % {"username": quoted(username)}
        )
    return entrant


def _bot_entry_create(tournament: Tournament, entrant: Entrant, *, joined_round: int) -> Entry:
    game = catalog.find_ruleset(tournament.ruleset).game
    strategy = bot_strategy(game, entrant.bot or "", play=tournament.play)
    display = _free_name(tournament, entrant.name or _bot_name(tournament, strategy))
    return Entry.objects.create(
        tournament=tournament, bot_strategy=strategy, name=display, joined_round=joined_round
    )


# A bot entrant the desk names not: a first name and its strategy in words ("Ada, heuristic bot"),
# in the tournament's language; never a number, which people would read as something internal.
BOT_NAMES = (
    "Ada", "Blaise", "Clara", "Denis", "Edith", "Félix", "Gisèle", "Henri", "Irène", "Jules",
    "Lucie", "Marcel", "Noémie", "Oscar", "Pauline", "Raoul", "Simone", "Tristan", "Ursule",
    "Victor", "Yvette", "Zacharie",
)  # fmt: skip
STRATEGY_WORDS = {
    "random": gettext_lazy("random bot"),
    "heuristic": gettext_lazy("heuristic bot"),
    "montecarlo": gettext_lazy("Monte Carlo bot"),
    "search": gettext_lazy("search bot"),
}


def _bot_name(tournament: Tournament, strategy: str) -> str:
    """The first of the bot names no entry of the tournament has, with the strategy in words;
    once every name is taken, two names joined (Ada-Blaise)."""
    taken = {name.casefold() for name in tournament.entries.values_list("name", flat=True)}
    firsts = [*BOT_NAMES, *(f"{a}-{b}" for a, b in itertools.permutations(BOT_NAMES, 2))]
    with translation.override(tournament.language):
        words = str(STRATEGY_WORDS.get(strategy, strategy))
        named = (gettext("%(name)s, %(strategy)s") % {"name": f, "strategy": words} for f in firsts)
        return next(name for name in named if name.casefold() not in taken)


def _free_name(tournament: Tournament, name: str) -> str:
    """``name`` without surrounding spaces, if no entry has it yet (whatever the letter case)."""
    display = " ".join(name.split())
    if not display:
        raise errors.InvalidEntries(gettext("A display name cannot be blank."))
    if Entry.objects.filter(tournament=tournament, name__iexact=display).exists():
        raise errors.NameTaken(
            gettext("An entry named %(display)s is already registered.")
            % {"display": quoted(display)}
        )
    return display
