"""The event itself: created with its format checked at once."""

from __future__ import annotations

import secrets
from typing import Any

from django.contrib.auth.models import User
from django.utils.translation import gettext

from switchgame import catalog, protocol
from switchgame.tournament import seating
from switchgame.tournament.scoring import ByePolicy, Ranking, Scoring
from switchgame.tournament.seating import SeatingMode
from switchsite.problems import said
from tournaments import errors
from tournaments.models import Tournament, service_language
from tournaments.powers import Power, require_power
from tournaments.services.common import SEED_BITS, bot_strategy

SCORINGS_OF_GAME = {
    catalog.SHEDDING: {Scoring.FRENCH, Scoring.PLACEMENT},
    catalog.ABBOTT: {Scoring.ABBOTT},
}


def tournament_create(
    *,
    creator: User,
    name: str,
    ruleset: str,
    scoring: str,
    planned_rounds: int,
    table_size: int,
    deals_per_round: int | None = None,
    target: int | None = None,
    seating_mode: str = SeatingMode.BALANCED,
    bye_policy: str = ByePolicy.ZERO,
    options: dict[str, Any] | None = None,
    play: str = Tournament.Play.ONLINE,
    public: bool = False,
    language: str | None = None,
    fill_with_bots: str | None = None,
    ranking: str = Ranking.TOTAL,
    self_report: str = Tournament.SelfReport.OFF,
    self_checkin: bool = False,
) -> Tournament:
    """A tournament open for registration. The house rules are checked now, not at round one."""
    require_power(creator, Power.CREATE)
    if self_report != Tournament.SelfReport.OFF and play != Tournament.Play.OFFLINE:
        message = gettext("Players report results only at offline tables (real cards).")
        raise errors.InvalidSettings(message, errors={"self_report": [message]})
    info = catalog.find_ruleset(ruleset)
    if scoring not in SCORINGS_OF_GAME[info.game]:
        allowed = ", ".join(sorted(SCORINGS_OF_GAME[info.game]))
        raise errors.InvalidScoring(
            gettext("%(ruleset)s tournaments are scored %(allowed)s, not '%(scoring)s'")
            % {"ruleset": ruleset, "allowed": allowed, "scoring": scoring}
        )
    if deals_per_round is not None and target is not None:
        raise protocol.InvalidOptions(gettext("give deals_per_round or target, not both"))
    if target is None and deals_per_round is None and info.game == catalog.SHEDDING:
        deals_per_round = 1
    try:
        seating.TableBounds(*info.players, preferred=table_size)
    except seating.SeatingError as error:
        message = gettext("%(ruleset)s: %(error)s.") % {"ruleset": ruleset, "error": said(error)}
        raise errors.InvalidSettings(message, errors={"table_size": [message]}) from None
    catalog.new_game(ruleset, table_size, options, deals=deals_per_round or 1, target=target)
    if fill_with_bots is not None:
        fill_with_bots = bot_strategy(info.game, fill_with_bots, play=play)
    return Tournament.objects.create(
        name=name,
        ruleset=ruleset,
        options=dict(options or {}),
        scoring=scoring,
        planned_rounds=planned_rounds,
        table_size=table_size,
        deals_per_round=deals_per_round,
        target=target,
        seating=seating_mode,
        bye_policy=bye_policy,
        play=play,
        public=public,
        language=language or service_language(),
        fill_with_bots=fill_with_bots or "",
        ranking=Ranking(ranking),
        self_report=self_report,
        self_checkin=self_checkin,
        seed=secrets.randbits(SEED_BITS),
        created_by=creator,
    )
