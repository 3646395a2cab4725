"""The ``search`` strategy for Abbott's Switch: Monte Carlo tree search on the full position.

Abbott's Switch is perfect information (the unused cards never come into play), so the bot rebuilds
the exact state with ``AbbottGame.from_view`` and searches it. The tree is max-n UCT: every node keeps
the mean reward *vector*, and the seat that acts at a node picks the child best for itself — four
players with shifting alliances are not two sides, so no single minimax value would do.

A play-out from a new node takes the card that best fits the mover's hand (by rank and suit
counts), with some random moves mixed in, for at most ``ROLLOUT_PLIES`` plies. A hand
that ends is scored exactly; one still in play is scored by the heuristic's model of who wins
(``abbott_heuristic``). Rewards are a seat's points minus the others' mean, over 10, plus a bonus
for winning the game — zero-sum, so the tree values denying a rival as much as gaining.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from switchgame.abbott.game import AbbottGame
from switchgame.abbott.poker import VALUE_OF
from switchgame.abbott.scoring import Alliance
from switchgame.abbott.state import EMPTY, PLAY
from switchgame.bots.abbott_heuristic import outcome_values, sharpness, strength, win_chances
from switchgame.cards import RANK_OF, SUIT_OF
from switchgame.protocol import Action

if TYPE_CHECKING:
    from switchgame.bots import MatchFacts, Strategy

# The budget is a number of iterations, so that a move depends on the seed alone, not on how busy
# the machine is: 300 take about 0.2 s on one idle core of the project's machine. The time cap only
# bounds how long a move can take on a machine so loaded that the iterations do not fit in it.
DEFAULT_ITERATIONS = 300
DEFAULT_TIME_CAP = 1.0  # seconds per move
EXPLORATION = 0.6  # UCT constant, for rewards of about ±1
ROLLOUT_PLIES = 12  # three rounds of four; then the evaluation takes over, bounding an iteration
ROLLOUT_RANDOMNESS = 0.2  # share of play-out moves chosen at random instead of greedily
SAME_RANK_WEIGHT = 3  # in a play-out, a card of a rank we hold counts like three of our suit
POINTS_SCALE = 10.0  # a hand's winner without an alliance scores 10
GAME_WIN_BONUS = 1.0  # winning the game is the point; a hand that decides it counts more


class _Node:
    __slots__ = ("actions", "actor", "children", "totals", "untried", "visits")

    def __init__(self, state: AbbottGame, rng: random.Random) -> None:
        self.actor = state.to_move
        self.actions: list[Action] = state.legal_actions() if self.actor is not None else []
        self.untried = list(range(len(self.actions)))
        rng.shuffle(self.untried)
        self.children: dict[int, _Node] = {}
        self.visits = 0
        self.totals = [0.0] * state.players

    def select(self) -> int:
        """The child to follow: UCT from the point of view of the seat acting here."""
        log_n = math.log(self.visits)
        actor = self.actor
        assert actor is not None, "a finished position has no children to select"
        best, best_score = -1, -math.inf
        for index, child in self.children.items():
            score = child.totals[actor] / child.visits + EXPLORATION * math.sqrt(
                log_n / child.visits
            )
            if score > best_score:
                best, best_score = index, score
        return best


class _Rewards:
    """Reward vectors for finished and unfinished hands, with the outcome tables cached."""

    def __init__(self, players: int) -> None:
        self.players = players
        self._tables: dict[Alliance | None, list[list[float]]] = {}

    def table(self, alliance: Alliance | None) -> list[list[float]]:
        """For each seat, the value of each possible winner (points minus the others' mean)."""
        if alliance not in self._tables:
            self._tables[alliance] = [
                [v / POINTS_SCALE for v in outcome_values(self.players, seat, alliance)]
                for seat in range(self.players)
            ]
        return self._tables[alliance]

    def of(self, state: AbbottGame) -> list[float]:
        """Each seat's reward: exact once the hand is over, expected from win chances before."""
        players = self.players
        if state.phase == PLAY:
            taken = sum(len(cards) for cards in state.captured)
            left = sum(1 for c in state.grid if c != EMPTY)
            chances = win_chances(
                [strength(cards) for cards in state.captured], sharpness(taken, left)
            )
            return [
                sum(v * p for v, p in zip(values, chances, strict=True))
                for values in self.table(state.alliance)
            ]
        record = state.history[-1]
        winner = record["winner"]
        alliance = record["alliance"]
        if winner is None:  # a tie for best hand scores nothing
            rewards = [0.0] * players
        else:
            table = self.table((alliance[0], alliance[1]) if alliance else None)
            rewards = [table[s][winner] for s in range(players)]
        if state.is_over:
            for s in range(players):
                rewards[s] += (
                    GAME_WIN_BONUS if s == state.winner else -GAME_WIN_BONUS / (players - 1)
                )
        return rewards


def _play_out(state: AbbottGame, rng: random.Random) -> None:
    """Play on for a few plies: mostly the card that best fits the mover's hand, sometimes any move.

    The fit is judged by rank and suit counts rather than by ranking the hand: that is several
    times cheaper than ``default_action()``, and in a small trial against the heuristic at equal
    iterations it played no worse."""
    size = state.size
    grid = state.grid
    for _ in range(ROLLOUT_PLIES):
        if state.phase != PLAY:
            return
        if state.asked is not None:  # play-outs end hands by play, not by agreement
            state.apply({"action": "decline_end"})
            continue
        actions = [a for a in state.legal_actions() if a["action"] in ("move", "pass")]
        if rng.random() < ROLLOUT_RANDOMNESS:
            state.apply(rng.choice(actions))
            continue
        ranks = [0] * 13
        suits = [0] * 4
        for card in state.captured[state.turn]:
            ranks[RANK_OF[card]] += 1
            suits[SUIT_OF[card]] += 1
        best, best_fit = actions[0], -1.0
        for action in actions:
            if action["action"] != "move":
                continue  # a blocked piece's pass is the only action then
            row, col = action["to"]
            card = grid[row * size + col]
            if card != EMPTY:
                fit = (
                    SAME_RANK_WEIGHT * ranks[RANK_OF[card]]
                    + suits[SUIT_OF[card]]
                    + VALUE_OF[card] / 14
                )
                if fit > best_fit:
                    best, best_fit = action, fit
        state.apply(best)


def search(
    root_state: AbbottGame,
    rng: random.Random,
    iterations: int | None = DEFAULT_ITERATIONS,
    time_cap: float | None = DEFAULT_TIME_CAP,
) -> Action:
    """The most visited root action after ``iterations`` play-outs or ``time_cap`` seconds,
    whichever comes first (at least one of them must be given). Within the cap, the same state and
    the same ``rng`` state give the same action."""
    if time_cap is None and iterations is None:
        raise ValueError("a search needs an iteration budget, a time cap or both")
    deadline = time.perf_counter() + time_cap if time_cap is not None else math.inf
    rewards = _Rewards(root_state.players)
    root = _Node(root_state, rng)
    if len(root.actions) == 1:
        return root.actions[0]
    done = 0
    while (iterations is None or done < iterations) and (
        done == 0 or time.perf_counter() < deadline
    ):
        state = root_state.copy()
        node = root
        path = [node]
        while node.actor is not None and not node.untried:
            index = node.select()
            state.apply(node.actions[index])
            node = node.children[index]
            path.append(node)
        if node.untried:
            index = node.untried.pop()
            state.apply(node.actions[index])
            child = _Node(state, rng)
            node.children[index] = child
            path.append(child)
            _play_out(state, rng)
        reward = rewards.of(state)
        for visited in path:
            visited.visits += 1
            totals = visited.totals
            for s, r in enumerate(reward):
                totals[s] += r
        done += 1
    best = max(root.children, key=lambda i: root.children[i].visits)
    return root.actions[best]


def make_search_bot(
    iterations: int | None = DEFAULT_ITERATIONS, time_cap: float | None = DEFAULT_TIME_CAP
) -> Strategy:
    """A search strategy with its own budget (tests and benchmarks use other ones)."""

    def choose(view: Mapping[str, Any], facts: MatchFacts, rng: random.Random) -> dict[str, Any]:
        legal = view["legal_moves"]
        if len(legal) == 1:
            return dict(legal[0])
        state = AbbottGame.from_view(view, facts.ruleset)
        return dict(search(state, rng, iterations=iterations, time_cap=time_cap))

    return choose


choose = make_search_bot()
