"""The organiser's forms in the admin. They read what was typed into the shapes the services take
(the same ones the API takes); the services check the rules, and the admin shows their refusals on
the form."""

from __future__ import annotations

import csv
import re
import uuid
from collections.abc import Sequence
from typing import Any

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from switchgame import bots, catalog
from switchgame.tournament.scoring import Scoring
from tournaments.models import Tournament
from tournaments.services import Entrant

NAME_HEADERS = {"name", "player", "display name", "guest"}
TIE = "__tie__"  # the Abbott winner choice for a tie (a hand nobody scores)


class TournamentForm(forms.ModelForm):
    """A new tournament: the fields of ``services.tournament_create``, bounded by the model."""

    ruleset = forms.ChoiceField(
        label=_("ruleset"),
        choices=[(name, f"{name} ({info.game})") for name, info in catalog.RULESETS.items()],
    )

    class Meta:
        model = Tournament
        fields = (
            "name",
            "ruleset",
            "scoring",
            "play",
            "self_report",
            "self_checkin",
            "public",
            "language",
            "planned_rounds",
            "table_size",
            "deals_per_round",
            "target",
            "seating",
            "bye_policy",
            "options",
        )
        help_texts = {
            "play": _("Offline: real cards at the tables; you enter each table's result here."),
            "public": _("Anyone may read its tables and standings (a page for players' phones)."),
            "self_report": _(
                "Offline: players report their table's result on their phones (guests through "
                "their seat links); with confirmation, an opponent confirms it."
            ),
            "self_checkin": _(
                "Players check themselves in on their phones before each round is seated."
            ),
            "table_size": _("Players a table seats: a count the ruleset allows (Abbott: 4)."),
            "deals_per_round": _("Shedding: deals a table plays each round (default 1)."),
            "target": _("Instead of deals: a table plays until someone's total reaches this."),
            "options": _('House rules as option overrides on the preset, e.g. {"max_draw": 8}.'),
        }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # A form sent without it (a script, an older page) creates a tournament the desk runs.
        self.fields["self_report"].required = False

    def clean_self_report(self) -> str:
        return self.cleaned_data["self_report"] or Tournament.SelfReport.OFF

    def clean_options(self) -> dict[str, Any]:
        options = self.cleaned_data["options"] or {}
        if not isinstance(options, dict):
            raise forms.ValidationError(
                gettext("House rules are an object of option names and values.")
            )
        return options

    def service_arguments(self) -> dict[str, Any]:
        """The cleaned fields under the names ``services.tournament_create`` takes."""
        arguments = {name: self.cleaned_data[name] for name in self.Meta.fields}
        arguments["seating_mode"] = arguments.pop("seating")
        return arguments


class RegisterForm(forms.Form):
    """Many entrants in one step: guests typed or pasted, players by username, and bots."""

    guests = forms.CharField(
        label=_("Guests"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 12, "cols": 60}),
        help_text=_(
            "One name per line, or rows pasted from a spreadsheet or a CSV file with a "
            "header: the column headed “name” (else the first column) is taken."
        ),
    )
    players = forms.CharField(
        label=_("Players"),
        required=False,
        help_text=_("Usernames of players with accounts, separated by commas or spaces."),
    )
    bot = forms.ChoiceField(
        label=_("Bot"), required=False, help_text=_("Online tournaments: a bot strategy…")
    )
    bot_count = forms.IntegerField(
        label=_("Bot count"),
        required=False,
        min_value=1,
        max_value=50,
        help_text=_("…and how many bots of it."),
    )

    def __init__(self, *args: Any, game: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        bot = self.fields["bot"]
        assert isinstance(bot, forms.ChoiceField)  # declared above
        bot.choices = [("", "—"), *((s, s) for s in bots.strategies_for(game))]

    def entrants(self) -> list[Entrant]:
        data = self.cleaned_data
        entrants = [Entrant(guest=name) for name in guest_names(data["guests"])]
        entrants += [Entrant(player=name) for name in re.split(r"[\s,;]+", data["players"]) if name]
        if data["bot"]:
            entrants += [Entrant(bot=data["bot"])] * (data["bot_count"] or 1)
        return entrants

    def clean(self) -> dict[str, Any] | None:
        cleaned = super().clean()
        if not self.errors and not self.entrants():
            raise forms.ValidationError(gettext("Type at least one name, username or bot."))
        return cleaned


def guest_names(text: str) -> list[str]:
    """Display names from typed or pasted text (see :class:`RegisterForm`); blanks are skipped."""
    lines = [line for line in text.splitlines() if line.strip()]
    if not lines:
        return []
    delimiter = "\t" if "\t" in lines[0] else ","
    header = [cell.strip().lower() for cell in lines[0].split(delimiter)]
    if any(cell in NAME_HEADERS for cell in header):
        column = next(i for i, cell in enumerate(header) if cell in NAME_HEADERS)
        rows = csv.reader(lines[1:], delimiter=delimiter)
        return [row[column].strip() for row in rows if len(row) > column and row[column].strip()]
    return [line.split("\t")[0].strip() for line in lines if line.split("\t")[0].strip()]


class TableResultForm(forms.Form):
    """One table's result, deal by deal (or hand by hand), in the shape of the result endpoint.

    ``french``: per deal, tick who went out and type every other player's tally; ``placement``:
    per deal, the players in finishing order; ``abbott``: per hand, the winner (or a tie) and the
    alliance, if one was made. Rows left blank are not sent when the number of deals is not fixed.
    """

    def __init__(
        self,
        *args: Any,
        scoring: str,
        names: Sequence[str],
        rows: int,
        fixed: bool,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.scoring, self.names, self.rows, self.fixed = Scoring(scoring), list(names), rows, fixed
        self.fields["confirm"] = forms.BooleanField(
            required=False, label=_("The unusually high tallies are right")
        )
        self.fields["reason"] = forms.CharField(
            required=False, max_length=200, label=_("Reason for a correction")
        )
        # This page's one submission: sent again (a browser that was offline), it is saved once.
        self.fields["submission"] = forms.CharField(
            required=False,
            max_length=64,
            widget=forms.HiddenInput,
            initial=lambda: uuid.uuid4().hex,
        )
        pick = [("", "—"), *((name, name) for name in self.names)]
        for row in range(self.rows):
            if self.scoring == Scoring.FRENCH:
                for seat, name in enumerate(self.names):
                    self.fields[f"d{row}-out-{seat}"] = forms.BooleanField(
                        required=False, label=gettext("%(name)s went out") % {"name": name}
                    )
                    self.fields[f"d{row}-tally-{seat}"] = forms.IntegerField(
                        required=False,
                        label=gettext("%(name)s's tally") % {"name": name},
                        widget=_small_number(),
                    )
            elif self.scoring == Scoring.PLACEMENT:
                for place in range(len(self.names)):
                    self.fields[f"d{row}-place-{place}"] = forms.ChoiceField(
                        required=False,
                        choices=pick,
                        label=gettext("place %(number)s") % {"number": place + 1},
                    )
            else:
                self.fields[f"d{row}-winner"] = forms.ChoiceField(
                    required=False,
                    choices=[*pick, (TIE, gettext("tie: nobody scores"))],
                    label=gettext("winner"),
                )
                self.fields[f"d{row}-chooser"] = forms.ChoiceField(
                    required=False, choices=pick, label=gettext("chose a partner")
                )
                self.fields[f"d{row}-chosen"] = forms.ChoiceField(
                    required=False, choices=pick, label=gettext("partner chosen")
                )

    def grid(self) -> list[dict[str, Any]]:
        """The fields row by row, for the template: ``cells`` per seat (or place)."""
        rows = []
        for row in range(self.rows):
            cells: list[tuple[forms.BoundField, ...]]
            if self.scoring == Scoring.FRENCH:
                cells = [
                    (self[f"d{row}-out-{seat}"], self[f"d{row}-tally-{seat}"])
                    for seat in range(len(self.names))
                ]
            elif self.scoring == Scoring.PLACEMENT:
                cells = [(self[f"d{row}-place-{p}"],) for p in range(len(self.names))]
            else:
                cells = [(self[f"d{row}-{part}"],) for part in ("winner", "chooser", "chosen")]
            rows.append({"number": row + 1, "cells": cells})
        return rows

    def result(self) -> dict[str, Any]:
        """The body of the result endpoint (checked by the service, not here)."""
        data = self.cleaned_data
        items = [self._row(data, row) for row in range(self.rows)]
        if not self.fixed:
            items = [item for item in items if item is not None]
        items = [item or {} for item in items]
        return {"hands" if self.scoring == Scoring.ABBOTT else "deals": items}

    def _row(self, data: dict[str, Any], row: int) -> dict[str, Any] | None:
        """One deal or hand, or None when the row was left blank."""
        if self.scoring == Scoring.FRENCH:
            out = [n for seat, n in enumerate(self.names) if data[f"d{row}-out-{seat}"]]
            tallies = {
                name: data[f"d{row}-tally-{seat}"]
                for seat, name in enumerate(self.names)
                if data[f"d{row}-tally-{seat}"] is not None and name not in out
            }
            if not out and not tallies:
                return None
            return {"winner": out[0] if len(out) == 1 else out, "points_left": tallies}
        if self.scoring == Scoring.PLACEMENT:
            order = [data[f"d{row}-place-{p}"] for p in range(len(self.names))]
            return {"order": [name for name in order if name]} if any(order) else None
        winner, chooser, chosen = (
            data[f"d{row}-{part}"] for part in ("winner", "chooser", "chosen")
        )
        if not (winner or chooser or chosen):
            return None
        alliance = {"chooser": chooser, "chosen": chosen} if chooser or chosen else None
        return {"winner": None if winner in (TIE, "") else winner, "alliance": alliance}

    @classmethod
    def initial_from(cls, scoring: str, names: Sequence[str], result: dict[str, Any]) -> dict:
        """Form values showing an entered result again (to correct it)."""
        initial: dict[str, Any] = {}
        seats = {name: seat for seat, name in enumerate(names)}
        for row, item in enumerate(result.get("hands") or result.get("deals") or []):
            if scoring == Scoring.FRENCH:
                if item.get("winner") in seats:
                    initial[f"d{row}-out-{seats[item['winner']]}"] = True
                for name, tally in (item.get("points_left") or {}).items():
                    if name in seats:
                        initial[f"d{row}-tally-{seats[name]}"] = tally
            elif scoring == Scoring.PLACEMENT:
                for place, name in enumerate(item.get("order") or []):
                    initial[f"d{row}-place-{place}"] = name
            else:
                initial[f"d{row}-winner"] = item.get("winner") or TIE
                alliance = item.get("alliance") or {}
                initial[f"d{row}-chooser"] = alliance.get("chooser", "")
                initial[f"d{row}-chosen"] = alliance.get("chosen", "")
        return initial


def _small_number() -> forms.NumberInput:
    return forms.NumberInput(attrs={"min": 0, "class": "small-number"})
