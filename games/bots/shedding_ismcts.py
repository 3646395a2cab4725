"""The ``ismcts`` strategy for shedding Switch: single-observer Information-Set MCTS.

Cowling, Powley & Whitehouse, "Information Set Monte Carlo Tree Search" (IEEE TCIAIG 2012). One
tree over the bot's information sets; every iteration deals a fresh *determinisation* of the cards
the bot cannot see and walks the tree with the moves legal in that deal only. A node's children are
keyed by action, for the bot's moves and the other seats' alike, and a child counts how often it
was *available* — UCB uses that count instead of the parent's visits, so a move that exists in few
deals is not starved.

What a determinisation conditions on (everything in the seat's view, nothing else): the bot's own
hand; the discard pile, which is public; each seat's hand size and the stock size. The unseen
cards — the deck less the bot's hand and the pile — are shuffled and dealt to the other hands and
the stock. The view keeps no event history, so what other seats' draws revealed (a forced draw
shows a void in the suit) is not used: the deals are uniform over what the view allows.

A play-out from a new node plays purposefully but cheaply on the engine's tuple fast path: mostly
the plain card that leaves most of the hand matching (power cards kept, as the heuristic does),
sometimes any play; never a voluntary draw or an early end of turn; the suit held most; always the
announcement. It stops after ``ROLLOUT_ACTIONS`` actions and the deal still in play is scored by
hand sizes: short play-outs buy iterations, and in trials against the heuristic (0.2 s a move)
play-outs of 15 actions did no worse than 40 or whole deals. A finished deal gives 1 to its winner
(``one_left``: a share by place), so the search maximises the chance of winning the deal.
"""

from __future__ import annotations

import math
import random
import time
from collections import Counter
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from games.bots.shedding_heuristic import CARD_IDS, rules_for
from games.engine.cards import RANK_OF, SUIT_OF
from games.engine.rulesets import Rules
from games.engine.shedding import PLAY, ActionTuple, SheddingGame, action_dict

if TYPE_CHECKING:
    from games.bots import Strategy, Table

DEFAULT_TIME_BUDGET = 0.2  # seconds per move
EXPLORATION = 0.7  # UCB constant, for rewards in [0, 1]
ROLLOUT_ACTIONS = 15  # then the hand sizes decide (see the module docstring)
ROLLOUT_GREED = 0.8  # share of play-out moves made greedily rather than at random
CARD_WEIGHT = 0.6  # estimated win chance ∝ exp(-CARD_WEIGHT × cards in hand)


class _Node:
    __slots__ = ("available", "children", "mover", "total", "visits")

    def __init__(self, mover: int) -> None:
        self.mover = mover  # the seat whose move led here: totals are its rewards
        self.children: dict[ActionTuple, _Node] = {}
        self.visits = 0
        self.available = 0
        self.total = 0.0


def _tree_actions(state: SheddingGame) -> list[ActionTuple]:
    """The legal moves worth telling apart: a play that leaves one card only with the announcement."""
    legal = state.legal_tuples()
    if len(state.hands[state.current]) != 2:
        return legal
    return [a for a in legal if a[3] or a[0] != PLAY or (PLAY, a[1], a[2], True) not in legal]


def _rollout_move(state: SheddingGame, rng: random.Random) -> ActionTuple:
    """Mostly the heuristic's choice in miniature: a plain card that leaves most of the hand
    matching (power cards kept while one matches); otherwise any play; a draw or end only when
    nothing can be played."""
    legal = state.legal_tuples()
    plays = [a for a in legal if a[0] == PLAY]
    if not plays:
        return legal[0]
    hand = state.hands[state.current]
    if rng.random() < ROLLOUT_GREED:
        power = state.rules.power
        plain = [a for a in plays if power[a[1]] is None]
        if plain:
            best = -1
            for _, candidate, _, _ in plain:
                suit, rank = SUIT_OF[candidate], RANK_OF[candidate]
                fit = sum(1 for c in hand if SUIT_OF[c] == suit or RANK_OF[c] == rank)
                if fit > best:
                    best, card = fit, candidate
            return (PLAY, card, -1, len(hand) == 2)
    _, card, suit, _ = rng.choice(plays)
    if suit >= 0:
        suit = _most_held_suit(hand, card)
    return (PLAY, card, suit, len(hand) == 2)


def _most_held_suit(hand: list[int], played: int) -> int:
    """The suit to name: the one held most once ``played`` has left the hand."""
    counts = [0, 0, 0, 0]
    for c in hand:
        if SUIT_OF[c] >= 0:
            counts[SUIT_OF[c]] += 1
    if SUIT_OF[played] >= 0:
        counts[SUIT_OF[played]] -= 1
    return counts.index(max(counts))


def _rewards(state: SheddingGame) -> list[float]:
    """Each seat's reward: exact for a finished deal, a hand-size estimate for one in play.

    ``one_left`` pays by place, (n − 1 − place) / (n − 1); a seat still holding cards in an
    unfinished deal gets the next place's value times its estimated chance of taking it."""
    n = state.players
    if state.is_over:
        record = state.history[-1]
        if not state.rules.one_left:
            return [1.0 if s == record["winner"] else 0.0 for s in range(n)]
        return [(n - 1 - record["placings"].index(s)) / (n - 1) for s in range(n)]
    weights = [
        0.0 if state.out[s] else math.exp(-CARD_WEIGHT * len(state.hands[s])) for s in range(n)
    ]
    total = sum(weights)
    rewards = [w / total for w in weights]
    if state.rules.one_left:
        done = len(state.finish_order)
        rewards = [r * (n - 1 - done) / (n - 1) for r in rewards]
        for place, s in enumerate(state.finish_order):
            rewards[s] = (n - 1 - place) / (n - 1)
    return rewards


class _Sampler:
    """Deals the cards the seat cannot see, uniformly, consistent with the view."""

    def __init__(self, view: Mapping[str, Any], rules: Rules) -> None:
        self.view = view
        self.rules = rules
        self.seat = view["you"]["seat"]
        self.own = [CARD_IDS[code] for code in view["you"]["hand"]]
        seen = Counter(self.own) + Counter(CARD_IDS[code] for code in view["discard_pile"])
        self.unseen = list((Counter(rules.deck) - seen).elements())
        self.sizes = [info["hand_count"] for info in view["seats"]]

    def deal(self, rng: random.Random) -> SheddingGame:
        cards = list(self.unseen)
        rng.shuffle(cards)
        hands = []
        position = 0
        for s, size in enumerate(self.sizes):
            if s == self.seat:
                hands.append(list(self.own))
            else:
                hands.append(cards[position : position + size])
                position += size
        return SheddingGame.from_view(
            self.view, self.rules, hands, cards[position:], rng.randbytes(8)
        )


def search(
    view: Mapping[str, Any],
    rules: Rules,
    rng: random.Random,
    time_budget: float | None = DEFAULT_TIME_BUDGET,
    iterations: int | None = None,
) -> ActionTuple:
    """The most visited of the seat's moves after ``iterations`` determinised iterations or
    ``time_budget`` seconds, whichever comes first (at least one must be given)."""
    if time_budget is None and iterations is None:
        raise ValueError("a search needs a time budget, an iteration count or both")
    deadline = time.perf_counter() + time_budget if time_budget is not None else math.inf
    sampler = _Sampler(view, rules)
    root = _Node(-1)
    done = 0
    while (iterations is None or done < iterations) and (
        done == 0 or time.perf_counter() < deadline
    ):
        state = sampler.deal(rng)
        node = root
        path = []
        while not state.is_over:
            actions = _tree_actions(state)
            untried = []
            for action in actions:
                child = node.children.get(action)
                if child is None:
                    untried.append(action)
                else:
                    child.available += 1
            if untried:
                action = rng.choice(untried)
                child = node.children[action] = _Node(state.current)
                child.available = 1
                state.apply_tuple(action)
                path.append(child)
                break
            best_score = -math.inf
            action = actions[0]
            for candidate in actions:
                child = node.children[candidate]
                value = child.total / child.visits + EXPLORATION * math.sqrt(
                    math.log(child.available) / child.visits
                )
                if value > best_score:
                    best_score, action = value, candidate
            node = node.children[action]
            state.apply_tuple(action)
            path.append(node)
        for _ in range(ROLLOUT_ACTIONS):
            if state.is_over:
                break
            state.apply_tuple(_rollout_move(state, rng))
        rewards = _rewards(state)
        for visited in path:
            visited.visits += 1
            visited.total += rewards[visited.mover]
        done += 1
    return max(root.children.items(), key=lambda item: item[1].visits)[0]


def make_ismcts_bot(
    time_budget: float | None = DEFAULT_TIME_BUDGET, iterations: int | None = None
) -> Strategy:
    """An ISMCTS strategy with its own budget (tests and benchmarks use iteration-bound ones)."""

    def choose(view: Mapping[str, Any], table: Table, rng: random.Random) -> dict[str, Any]:
        moves = view["legal_moves"]
        if len(moves) == 1:
            return dict(moves[0])
        action = search(view, rules_for(table), rng, time_budget=time_budget, iterations=iterations)
        return action_dict(action)

    return choose


choose = make_ismcts_bot()
