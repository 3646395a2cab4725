"""The organiser's forms in the admin. They check the shape of what was typed; the services check
the rules (the same ones the API goes through), and the admin shows their refusals on the form."""

from __future__ import annotations

from typing import Any

from django import forms

from games import bots, catalog
from tournaments.models import Tournament


class TournamentForm(forms.ModelForm):
    """A new tournament: the fields of ``services.tournament_create``, bounded by the model."""

    ruleset = forms.ChoiceField(
        choices=[(name, f"{name} ({info.game})") for name, info in catalog.RULESETS.items()]
    )

    class Meta:
        model = Tournament
        fields = (
            "name",
            "ruleset",
            "scoring",
            "rounds",
            "table_size",
            "deals_per_round",
            "target",
            "seating",
            "bye_policy",
            "options",
        )
        help_texts = {
            "deals_per_round": "Shedding: deals a table plays each round (default 1).",
            "target": "Instead of deals: a table plays until someone's total reaches this.",
            "options": 'House rules as option overrides on the preset, e.g. {"max_draw": 8}.',
        }

    def clean_options(self) -> dict[str, Any]:
        options = self.cleaned_data["options"] or {}
        if not isinstance(options, dict):
            raise forms.ValidationError("House rules are an object of option names and values.")
        return options

    def service_arguments(self) -> dict[str, Any]:
        """The cleaned fields under the names ``services.tournament_create`` takes."""
        arguments = {name: self.cleaned_data[name] for name in self.Meta.fields}
        arguments["seating_mode"] = arguments.pop("seating")
        return arguments


class EntrantForm(forms.Form):
    """A registration by the organiser: a player by username, or a bot entrant."""

    player = forms.CharField(max_length=150, required=False, help_text="A player's username.")
    bot = forms.ChoiceField(required=False, help_text="Or a bot strategy.")
    name = forms.CharField(max_length=150, required=False, help_text="The bot's name (optional).")

    def __init__(self, *args: Any, game: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["bot"].choices = [("", "—"), *((s, s) for s in bots.strategies_for(game))]

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        player, bot = cleaned.get("player"), cleaned.get("bot")
        if bool(player) == bool(bot):
            raise forms.ValidationError("Name a player or choose a bot (one of the two).")
        if player and cleaned.get("name"):
            raise forms.ValidationError("A player enters under their username; names are for bots.")
        return cleaned
