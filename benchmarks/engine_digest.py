"""A fingerprint of the shedding engine's observable behaviour, to show that a refactor changed none.

    python -m benchmarks.engine_digest [--games-per-case 2] [--verbose]

Plays seeded random matches of every preset and of several house-rule variants, with 2, 3, 4 and
6 players, and hashes, section by section, everything the engine lets the outside world see:

* ``legal``: every list of legal actions (the API's dicts, in order);
* ``events``: every event of every deal and action, whole (private part included) and as the
  spectator and each seat see it;
* ``illegal``: for a few actions that are not legal in each position, the ``IllegalMove`` reason
  (or, with ``blunder_penalty``, the events of the blunder), tried on a copy;
* ``views``: the spectator's and the mover's view after every action, every seat's every tenth
  action and at the ends of deals;
* ``persistence``: ``to_dict()`` every few actions, checked to survive ``from_dict`` and ``copy()``
  unchanged, and a copy that plays on must leave the original as it was;
* ``outcome``: the match's ``outcome()`` at the end.

It prints one SHA-256 per section and one for all of them. Two versions of the engine behave alike
(as far as these games can tell) exactly when the digests are equal; a section whose digest moved
says where to look. Random choices come from ``random.Random`` seeded per match, never from the
engine, so the same games are played whatever the engine does inside.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import time
from collections.abc import Sequence
from typing import Any

from switchgame.protocol import Event, IllegalMove
from switchgame.shedding import SheddingGame, create_game
from switchgame.shedding.rulesets import RULESETS

PLAYER_COUNTS = (2, 3, 4, 6)
MAX_ACTIONS = 3000  # per match: uniformly random play with voluntary draws can run long
PERSIST_EVERY = 4
WHOLE_VIEWS_EVERY = 10
SECTIONS = ("legal", "events", "illegal", "views", "persistence", "outcome")

# (ruleset, house rules, deals): variants that exercise options no preset uses together.
VARIANTS: list[tuple[str, dict[str, Any], int]] = [
    ("switch", {"multi_card": "same_rank_and_runs", "draw_rule": "until_playable"}, 1),
    ("switch", {"powers": {"Q": {"then": "cover"}, "8": {"skip": 1, "then": "again"}}}, 1),
    ("switch", {"play_until": "one_left", "finish_on_power": False}, 1),
    ("switch", {"last_card_penalty": "no_finish", "jokers": 2, "multi_card": "same_rank"}, 2),
    ("black-jack", {"blunder_penalty": 1, "two_player_reverse": "reverse"}, 1),
    (
        "french",
        {"last_card_penalty": "draw_2", "multi_card": "same_rank", "draw_rule": "one_then_play"},
        1,
    ),
    ("irish-switch", {"jokers": 2, "max_draw": 4, "counter_clockwise": True}, 1),
    (
        "jacks-twos-eights",
        {"last_card_penalty": "skip_and_draw_1", "powers": {"3": {"skip": 1, "skip_chain": "add"}}},
        1,
    ),
    ("jack-change-it", {"must_not_be_lower": True, "hand_size": 4}, 1),
    ("take-two", {"jokers": 2, "draw_rule": "one"}, 2),
]


def _cases(games_per_case: int) -> list[tuple[str, dict[str, Any], int, int, int]]:
    """(ruleset, options, deals, players, seed) for every match to play."""
    cases: list[tuple[str, dict[str, Any], int, int, int]] = []
    for name in RULESETS:
        for players in PLAYER_COUNTS:
            for seed in range(games_per_case):
                cases.append((name, {}, 1 + seed % 2, players, seed))
    for number, (name, options, deals) in enumerate(VARIANTS):
        for players in PLAYER_COUNTS:
            cases.append((name, options, deals, players, 1000 + number))
    return cases


class Digest:
    """One running SHA-256 per section."""

    def __init__(self) -> None:
        self.hashes = {name: hashlib.sha256() for name in SECTIONS}

    def add(self, section: str, value: Any) -> None:
        self.hashes[section].update(json.dumps(value, sort_keys=True).encode())
        self.hashes[section].update(b"\n")

    def events(self, events: Sequence[Event], players: int) -> None:
        viewers: list[int | None] = [None, *range(players)]
        self.add(
            "events",
            [[event.to_dict(), *(event.for_viewer(v) for v in viewers)] for event in events],
        )

    def results(self) -> dict[str, str]:
        out = {name: h.hexdigest() for name, h in self.hashes.items()}
        out["all"] = hashlib.sha256("".join(out[name] for name in SECTIONS).encode()).hexdigest()
        return out


def _illegal_candidates(game: SheddingGame, rng: random.Random) -> list[dict[str, Any]]:
    """A few actions to try that are not among the legal ones."""
    legal = game.legal_actions()
    hand = game.view(game.to_move)["you"]["hand"]
    cards = [*hand, rng.choice(["AS", "7H", "QD", "2C", "JH", "X1"])]
    tries: list[dict[str, Any]] = [{"action": "draw"}, {"action": "end_turn"}]
    for code in rng.sample(cards, min(3, len(cards))):
        action: dict[str, Any] = {"action": "play", "card": code}
        if rng.random() < 0.4:
            action["suit"] = rng.choice("CDHS")
        if rng.random() < 0.3:
            action["announce"] = "last_card"
        tries.append(action)
    return [action for action in tries if action not in legal]


def _check_persistence(game: SheddingGame, digest: Digest, rng: random.Random) -> None:
    data = json.loads(json.dumps(game.to_dict()))
    digest.add("persistence", data)
    restored = SheddingGame.from_dict(data)
    if restored.to_dict() != data:
        raise AssertionError("from_dict(to_dict()) is not the same state")
    twin = game.copy()
    if twin.to_dict() != data:
        raise AssertionError("copy() is not the same state")
    for _ in range(5):  # a copy that plays on must not change the original
        if twin.to_move is None:
            break
        twin.apply(rng.choice(twin.legal_actions()))
    if game.to_dict() != data:
        raise AssertionError("playing on a copy changed the original")


def _hash_views(game: SheddingGame, digest: Digest, whole: bool) -> None:
    """Every seat's view and the spectator's when ``whole``; else the spectator's and the mover's,
    with the history cut to its length and newest entries (views grow with the deal: hashing all
    of them after every action would make long deals quadratic)."""
    viewers = [None, *range(game.players)] if whole else [None, game.to_move]
    views = [game.view(seat) for seat in viewers]
    if not whole:
        for view in views:
            history = view.get("history", [])  # (engines older than the history have none)
            view["history"] = [len(history), history[-3:]]
    digest.add("views", views)


def play_match(
    name: str, options: dict[str, Any], deals: int, players: int, seed: int, digest: Digest
) -> int:
    """One match, every observable output hashed; returns the number of actions played."""
    rng = random.Random(f"{name} {json.dumps(options, sort_keys=True)} {players} {seed}")
    game = create_game(name, players, options, deals=deals)
    prefer_play = rng.choice([0.0, 0.7, 0.9])
    actions = 0
    while not game.is_over and actions < MAX_ACTIONS:
        if game.needs_deal:
            digest.events(game.deal(rng.randbytes(16)), players)
            continue
        legal = game.legal_actions()
        digest.add("legal", legal)
        for action in _illegal_candidates(game, rng):
            trial = game.copy()
            try:
                digest.events(trial.apply(action), players)  # a blunder
            except IllegalMove as refused:
                digest.add("illegal", [action, refused.reason])
        if actions % PERSIST_EVERY == 0:
            _check_persistence(game, digest, random.Random(seed))
        plays = [a for a in legal if a["action"] == "play"]
        choice = rng.choice(plays) if plays and rng.random() < prefer_play else rng.choice(legal)
        digest.events(game.apply(choice), players)
        _hash_views(game, digest, whole=actions % WHOLE_VIEWS_EVERY == 0 or game.to_move is None)
        actions += 1
    _check_persistence(game, digest, random.Random(seed))
    outcome = game.outcome()
    digest.add("outcome", outcome.to_json() if outcome is not None else None)
    return actions


def main(argv: Sequence[str] | None = None) -> dict[str, str]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games-per-case", type=int, default=2, help="seeds per preset × players")
    parser.add_argument("--verbose", action="store_true", help="a line per match")
    args = parser.parse_args(argv)
    digest = Digest()
    start = time.perf_counter()
    total = 0
    cases = _cases(args.games_per_case)
    for name, options, deals, players, seed in cases:
        actions = play_match(name, options, deals, players, seed, digest)
        total += actions
        if args.verbose:
            print(f"{name} {players} {options} seed {seed}: {actions} actions", flush=True)
    results = digest.results()
    print(f"{len(cases)} matches, {total} actions, {time.perf_counter() - start:.0f} s")
    for section in (*SECTIONS, "all"):
        print(f"{section:<12} {results[section]}")
    return results


if __name__ == "__main__":
    main()
