"""Helpers shared by the shedding engine tests: games from explicit layouts, conservation, play-outs."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from switchgame.shedding import SheddingGame, create_game


def layout_game(
    ruleset: str,
    hands: list[list[str]],
    starter: str,
    stock: list[str] | None = None,
    options: dict[str, Any] | None = None,
    **match: Any,
) -> SheddingGame:
    """A game of ``ruleset`` dealt from an explicit layout (one hand per seat).

    ``stock`` lists the top of the stock; cards of it already named in a hand or as the starter are
    left out, so that tests can share one stock list.
    """
    game = create_game(ruleset, len(hands), options, **match)
    named = {c for hand in hands for c in hand} | {starter}
    top = [c for c in stock or [] if c not in named]
    game.deal(b"layout", {"hands": hands, "starter": starter, "stock": top})
    return game


def all_cards(game: SheddingGame) -> Counter[int]:
    return (
        Counter(c for hand in game.hands for c in hand)
        + Counter(game.stock)
        + Counter(game.discard)
    )


def assert_conserved(game: SheddingGame) -> None:
    """docs/rules.md §1 Conservation: hands + stock + discard pile is the deck, always."""
    assert all_cards(game) == Counter(game.rules.deck)


def play(game: SheddingGame, *actions: dict[str, Any]) -> list[Any]:
    """Apply several actions, returning all their events."""
    events = []
    for action in actions:
        events.extend(game.apply(action))
    return events


def choose(rng: random.Random, legal: list[Any], prefer_play: float) -> Any:
    """A random legal action; with probability ``prefer_play`` a play when one exists."""
    plays = [a for a in legal if a["action"] == "play"]
    if plays and rng.random() < prefer_play:
        return rng.choice(plays)
    return rng.choice(legal)


def hand_codes(game: SheddingGame, seat: int) -> list[str]:
    return game.view(seat)["you"]["hand"]
