"""Template filters of the tournament pages."""

import math
from datetime import datetime
from typing import Any

from django import template
from django.template.defaultfilters import floatformat
from django.utils import dateformat, timezone
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from switchgame import catalog
from switchgame.tournament.scoring import Ranking, tiebreak_order
from tournaments.models import Table, Tournament

register = template.Library()

# How ``club_time`` writes an instant: the time alone (the evening's pages), with its date, or
# the date alone (lists of evenings); a time always names its zone.
CLUB_TIME_FORMATS = {"time": "H:i T", "date": "D j M Y, H:i T", "day": "D j M Y"}

TIEBREAK_NAMES = {
    "conceded": _("tallies conceded (fewer first)"),
    "table_share": _("share of the table's points"),
    "opponents_score": _("opponents' score"),
    "deals_won": _("deals won"),
    "head_to_head": _("head to head"),
    "lot": _("a fixed lot"),
}


# The standings' tie-break columns, as short as a phone's table needs.
TIEBREAK_HEADINGS = {
    "conceded": _("in hand"),
    "table_share": _("table share"),
    "opponents_score": _("opponents"),
    "deals_won": _("deals won"),
    "head_to_head": _("head to head"),
    "lot": _("lot"),
}


@register.simple_tag
def tiebreak_headings(tournament: Tournament) -> list[str]:
    """The headings of the standings' tie-break columns, in the order the ranking uses them."""
    return [str(TIEBREAK_HEADINGS[name]) for name in tiebreak_order(tournament.scoring)]


@register.filter
def tiebreak_values(row: dict[str, Any], tournament: Tournament) -> list[str]:
    """A standings row's tie-breaks, in the order of :func:`tiebreak_headings`: whole numbers as
    they are, shares to three places, an empty head to head (not every tied entry met) as –."""
    values = []
    for name in tiebreak_order(tournament.scoring):
        value = row["tiebreaks"][name]
        if value is None:
            values.append("–")
        elif name in ("conceded", "deals_won"):
            values.append(str(value))
        else:
            values.append(floatformat(value, 3))
    return values


@register.simple_tag
def table_score(result: dict[str, Any] | None, name: str) -> str:
    """A player's score at a recorded table, as people read it: the points and, with French
    scoring, where a winner's points come from (the tallies the others were left holding in the
    deals won: ``54 = 20 + 34``) and the tallies the player was left holding (``15 in hand``)."""
    if not result:
        return ""
    points = result["totals"].get(name, 0)
    if "conceded" not in result:
        return str(points)
    won_from = [  # in seat order, as the totals are
        deal["tallies"][other]
        for deal in result["deals"]
        if deal["winner"] == name
        for other in result["totals"]
        if other != name and deal["tallies"].get(other)
    ]
    shown = f"{points} = {' + '.join(map(str, won_from))}" if points and won_from else str(points)
    held = result["conceded"].get(name, 0)
    return (
        gettext("%(points)s · %(held)s in hand") % {"points": shown, "held": held}
        if held
        else shown
    )


@register.simple_tag
def ranking_rule(tournament: Tournament) -> str:
    """How the standings are ranked, tie-breaks in the order used, in a sentence for the pages."""
    breaks = ", ".join(str(TIEBREAK_NAMES[name]) for name in tiebreak_order(tournament.scoring))
    rule = (
        gettext(
            "Ranked by score: at each table the share of opponents outscored (a tie counts one "
            "half), added up over the rounds; on equal score, more tables played first (a bye "
            "never outranks a game); then %(tiebreaks)s. Points: the raw total."
        )
        if tournament.ranking == Ranking.TOTAL
        else gettext(
            "Ranked by score: at each table the share of opponents outscored (a tie counts one "
            "half), averaged over the rounds; on equal score, more tables played first (a bye "
            "never outranks a game); then %(tiebreaks)s. Points: the raw total."
        )
    )
    return rule % {"tiebreaks": breaks}


@register.filter
def ruleset_title(name: str) -> str:
    """A ruleset's title in the page's language (``french``: "Le Switch à la française")."""
    return gettext(catalog.find_ruleset(name).title)


@register.filter
def result_source(source: str) -> str:
    """Where a table's result came from (``Table.Outcome``), in words."""
    return str(Table.Outcome(source).label)


@register.filter
def of(mapping: dict[str, Any] | None, key: str) -> Any:
    """``totals|of:name``: the value under a key that is not a plain identifier (a name)."""
    return (mapping or {}).get(key, "")


@register.filter
def countdown(clock: dict[str, Any], now: str) -> str:
    """A round's ``clock`` as the pages first show it at ``now`` (then live.js counts down):
    ``m:ss``, or ``h:mm:ss`` from an hour."""
    if clock["paused_remaining"] is not None:
        seconds = float(clock["paused_remaining"])
    elif clock["ends_at"]:
        left = datetime.fromisoformat(clock["ends_at"]) - datetime.fromisoformat(now)
        seconds = left.total_seconds()
    else:
        return ""
    whole = max(math.ceil(seconds), 0)
    hours, rest = divmod(whole, 3600)
    minutes, seconds_left = divmod(rest, 60)
    if hours:
        return f"{hours}:{minutes:02}:{seconds_left:02}"
    return f"{minutes}:{seconds_left:02}"


@register.filter
def club_time(moment: datetime | str | None, style: str = "time") -> SafeString | str:
    """An instant — a datetime, or the API's ISO 8601 text — in the club's time zone
    (``TIME_ZONE``), the zone named: ``20:32 CET``, ``style`` "date" ``Wed 25 Nov 2026, 20:32
    CET`` or "day" ``Wed 25 Nov 2026``. Every page shows the room's clock time, never UTC; the
    ``<time>`` element carries the instant with its offset. Empty for ``None``."""
    if not moment:
        return ""
    instant = datetime.fromisoformat(moment) if isinstance(moment, str) else moment
    local = timezone.localtime(instant)
    return format_html(
        '<time datetime="{}" title="{}">{}</time>',
        local.isoformat(),
        timezone.get_current_timezone_name(),
        dateformat.format(local, CLUB_TIME_FORMATS[style]),
    )
