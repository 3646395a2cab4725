"""Fields for the names a request gives of what the service knows — a ruleset, a bot strategy —
whose schema lists every one (an ``enum``), so that a client or a generator of requests built on
the schema sends only names the service knows.

They parse as the strings they are: the service refuses a name it does not know with its own
problem (``400 invalid_ruleset``, ``400 invalid_bots``, …), which lists the names it knows — and
which of them a game's bots may take, which depends on the ruleset.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from switchgame import bots, catalog

RULESET_NAMES = list(catalog.RULESETS)
# Every game's strategies and their earlier names (ALIASES), each once, in the catalogue's order.
STRATEGY_NAMES = list(
    dict.fromkeys(
        name
        for game in bots.STRATEGIES
        for name in [*bots.STRATEGIES[game], *bots.ALIASES.get(game, {})]
    )
)


class _NameField(serializers.Field):
    """A name, parsed as a ``CharField`` of ``longest`` characters is (with its messages), whose
    schema is its ``enum`` alone: a plain reference to the names' component, which every
    generator of clients reads (a ``CharField``'s lengths beside it made some drop the model)."""

    longest = 0

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.text = serializers.CharField(max_length=self.longest, allow_null=self.allow_null)

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):  # a CharField would take 0 for "0"
            self.text.fail("invalid")
        return str(self.text.run_validation(data))

    def to_representation(self, value: Any) -> str:
        return str(value)


@extend_schema_field({"type": "string", "enum": RULESET_NAMES})
class RulesetNameField(_NameField):
    """A ruleset's name (``GET /rulesets/`` lists them)."""

    longest = 40


@extend_schema_field({"type": "string", "enum": STRATEGY_NAMES})
class StrategyField(_NameField):
    """A server bot's strategy: which a ruleset's bots may take, ``GET /rulesets/`` says (its
    ``bots``)."""

    longest = 20


@extend_schema_field({"type": "string", "enum": [*STRATEGY_NAMES, None], "nullable": True})
class StrategyOrNoneField(StrategyField):
    """A server bot's strategy, or null for none."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(allow_null=True, **kwargs)


def _rulesets_by(key: Callable[[catalog.RulesetInfo], Hashable]) -> dict[Any, list[str]]:
    """The rulesets' names, grouped by what ``key`` says of each."""
    grouped: dict[Any, list[str]] = {}
    for name, ruleset in catalog.RULESETS.items():
        grouped.setdefault(key(ruleset), []).append(name)
    return grouped


# What the request bodies naming a ruleset are refused for, besides their fields' own schemas
# (for switchsite.api.schema.body_schema): each a JSON Schema of the bodies refused.


def seats_refused(seats: str) -> list[dict[str, Any]]:
    """A number of ``seats`` the ruleset is not played by (its ``players`` in ``GET
    /rulesets/``), unless the body's house rules say whom it is played by (option ``players``)."""
    return [
        {
            "required": ["ruleset", seats],
            "properties": {
                "ruleset": {"enum": names},
                seats: {"not": {"minimum": low, "maximum": high}},
                "options": {"not": {"required": ["players"]}},
            },
        }
        for (low, high), names in _rulesets_by(lambda ruleset: ruleset.players).items()
    ]


def options_refused() -> list[dict[str, Any]]:
    """A house rule the ruleset does not have (its ``options`` in ``GET /rulesets/``)."""
    known_options = _rulesets_by(lambda ruleset: tuple(sorted(ruleset.options)))
    return [
        {
            "required": ["ruleset", "options"],
            "properties": {
                "ruleset": {"enum": names},
                "options": {
                    "not": {
                        "properties": {option: {} for option in options},
                        "additionalProperties": False,
                    }
                },
            },
        }
        for options, names in known_options.items()
    ]


def _foreign_strategies(game: str) -> list[str]:
    """The strategies (and earlier names) that the bots of ``game`` do not take."""
    return [name for name in STRATEGY_NAMES if bots.strategy_named(game, name) is None]


def bots_refused() -> list[dict[str, Any]]:
    """A bot (in ``bots``) of a strategy that the ruleset's game has not."""
    return [
        {
            "required": ["ruleset", "bots"],
            "properties": {
                "ruleset": {"enum": names},
                "bots": {
                    "not": {
                        "items": {
                            "not": {
                                "required": ["strategy"],
                                "properties": {"strategy": {"enum": _foreign_strategies(game)}},
                            }
                        }
                    }
                },
            },
        }
        for game, names in _rulesets_by(lambda ruleset: ruleset.game).items()
    ]


def strategy_refused(field: str) -> list[dict[str, Any]]:
    """A strategy (``field``) that the ruleset's game has not."""
    return [
        {
            "required": ["ruleset", field],
            "properties": {"ruleset": {"enum": names}, field: {"enum": _foreign_strategies(game)}},
        }
        for game, names in _rulesets_by(lambda ruleset: ruleset.game).items()
    ]


def target_refused() -> list[dict[str, Any]]:
    """A ``target`` above what the ruleset's game is played to."""
    return [
        {
            "required": ["ruleset", "target"],
            "properties": {
                "ruleset": {"enum": names},
                "target": {"type": "integer", "minimum": catalog.MAX_TARGETS[game] + 1},
            },
        }
        for game, names in _rulesets_by(lambda ruleset: ruleset.game).items()
    ]
