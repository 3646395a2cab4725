"""The Abbott's Switch presets and the one way to create a game from them (docs/rules.md §4)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from switchgame.abbott.game import AbbottGame
from switchgame.abbott.scoring import control_threshold
from switchgame.abbott.state import GRID_SIZE
from switchgame.protocol import InvalidOptions
from switchgame.words import N_, Sentence, quoted


@dataclass(frozen=True, slots=True)
class AbbottRuleSet:
    name: str
    title: str
    description: str
    players: tuple[int, int]
    target: int
    game: str = "abbott"

    def options_json(self) -> dict[str, Any]:
        """The fixed rules of the preset, JSON-ready. None of them is a house option."""
        seats = self.players[0]
        return {
            "grid_size": GRID_SIZE[seats],
            "target": self.target,
            "control_threshold": control_threshold(self.target),
            "alliances": seats == 4,
        }


RULESETS: dict[str, AbbottRuleSet] = {
    ruleset.name: ruleset
    for ruleset in (
        AbbottRuleSet(
            name="abbott",
            title=N_("Abbott's Switch"),
            description=N_(
                "Robert Abbott's 1963 game for four: 36 cards face up in a 6×6 grid, pieces that "
                "move like rooks and take the cards they land on, the best five-card poker hand "
                "wins the hand, one shifting alliance per hand, first to 20 points."
            ),
            players=(4, 4),
            target=20,
        ),
        AbbottRuleSet(
            name="abbott-2",
            title=N_("Abbott's Switch for two"),
            description=N_(
                "The two-player version: 25 cards in a 5×5 grid, no alliances, the winner of a "
                "hand scores 10, first to 40 points."
            ),
            players=(2, 2),
            target=40,
        ),
    )
}


# The highest running total a match may be played to (the refusal below says it too).
MAX_TARGET = 1000


def create_game(
    ruleset: str,
    players: int,
    options: Mapping[str, Any] | None = None,
    deals: int = 1,
    target: int | None = None,
) -> AbbottGame:
    """A new game of ``ruleset`` for ``players`` seats, waiting for its first deal.

    Abbott's Switch is always played to a target total, so ``deals`` is accepted for the common
    interface and otherwise ignored; ``target`` overrides the preset's 20 (40). The presets have no
    house options: ``options`` may only repeat a value of ``options_json()`` unchanged.
    Raises InvalidOptions for an unknown ruleset, a wrong player count or a bad option.
    """
    preset = RULESETS.get(ruleset)
    if preset is None:
        raise InvalidOptions(Sentence(N_("unknown Abbott ruleset {name}"), name=quoted(ruleset)))
    low, high = preset.players
    if not (isinstance(players, int) and low <= players <= high):
        raise InvalidOptions(
            Sentence(
                N_("{ruleset} is played by {low} players, not {players}"),
                ruleset=preset.name,
                low=low,
                players=players,
            )
        )
    fixed = preset.options_json()
    for key, value in (options or {}).items():
        if key not in fixed:
            raise InvalidOptions(
                Sentence(
                    N_("unknown option {option}: {ruleset} has no house options"),
                    option=quoted(key),
                    ruleset=preset.name,
                )
            )
        if value != fixed[key]:
            raise InvalidOptions(
                Sentence(
                    N_("option {option} is fixed at {value} in {ruleset}"),
                    option=quoted(key),
                    value=quoted(fixed[key]),
                    ruleset=preset.name,
                )
            )
    if not (isinstance(deals, int) and not isinstance(deals, bool) and deals >= 1):
        raise InvalidOptions(Sentence(N_("deals must be a positive whole number")))
    if target is None:
        target = preset.target
    elif isinstance(target, bool) or not isinstance(target, int) or not 1 <= target <= MAX_TARGET:
        raise InvalidOptions(Sentence(N_("target must be a whole number from 1 to 1000")))
    return AbbottGame(preset.name, players, target)
