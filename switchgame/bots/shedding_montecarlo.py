"""The ``montecarlo`` strategy for shedding Switch (alias ``ismcts``, its name when it was a tree search): the heuristic's move, overruled by determinised
play-outs when another move does clearly better.

Every move the seat may make is tried on the same deals of the cards the bot cannot see, each deal
played out to its end with the same random numbers for every move (flat Monte Carlo with common
random numbers, so a move's score is compared deal by deal rather than through two noisy means).
The deals agree with the public history (:mod:`shedding_beliefs`: voids shown by draws, pick-ups
not answered), never with a hidden card. In a play-out every seat, this one included, moves by the
heuristic's rules of thumb in miniature on the engine's tuple fast path (:func:`playout_move`,
which picks the real heuristic's move at 96 % of its choices). The heuristic's own move
(``shedding_heuristic.best_move``) stands unless another wins more deals by ``MARGIN`` standard
errors of the paired differences: the search improves on the heuristic, one move deep, rather
than replacing it. A finished deal gives 1 to its winner (``one_left``: a share by place).

Trials (2026-11-22). Games are too noisy to choose settings with, so decisions were scored instead
(``python -m benchmarks.bot_decisions``): 592 positions of four-player heuristic games (seeds
5000–5039), every legal move valued by 40 continuations with the heuristic in every seat (the true
hands, the stock shuffled, the same shuffles for every move), and a setting scored by the mean
gain, in win chance, of its move over the heuristic's (standard error in brackets): the UCB tree
search this replaced (500 iterations, opponents modelled, 15-action play-outs then hand sizes)
+0.50 pp (0.44); this search, 2000 play-outs, margin 0 +0.66 (0.45), margin 1 +0.90 (0.36), margin
2 +0.80 (0.31); play-outs cut after 15 actions and scored by hand sizes, 2000, margin 1, +0.79
(0.39) at 0.15 CPU s a move; cut after 20, 5000, +0.94 (0.41). The differences are within the
noise; play-outs to the end need no leaf guess. In games (seeds 0–14, 60 four-player games, the
tested bot in each seat): 16 won, where the heuristic in the same seats won 15; heads-up (seeds
0–49, 100 games) 69 won, the tree search 71. The 200 games of docs/performance.md (seeds from 1000): 27.0 %
at four players (21.3–33.5 %; the heuristic in the same seats 25.0 %), 65.0 % heads-up
(58.2–71.3 %).

The budget is a number of play-outs, so a seed reproduces a move and a loaded machine makes the
bot slower, not weaker; the time cap only guards against a pathological position or machine (a
search it stops is no longer reproducible).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Protocol

from switchgame.bots import shedding_heuristic as heuristic
from switchgame.bots.shedding_beliefs import deal_hidden, hand_slots, unseen_cards
from switchgame.cards import CARD_IDS, RANK_OF, SUIT_OF
from switchgame.shedding import (
    DRAW_ACTION,
    END_ACTION,
    PLAY,
    ActionTuple,
    SheddingGame,
    action_dict,
    parse_action,
)
from switchgame.shedding.rulesets import Rules
from switchgame.shedding.scoring import CARD_POINTS
from switchgame.shuffle import DealRng

if TYPE_CHECKING:
    from switchgame.bots import MatchFacts, Strategy

DEFAULT_ITERATIONS = 2000  # play-outs per move: about 0.4 s of one core (docs/performance.md)
TIME_CAP = 2.0  # seconds per move, whatever the iterations (see the module docstring)
PLAYOUT_ACTIONS = 300  # a safety bound: play-outs run to the end of the deal
MARGIN = 1.0  # standard errors by which a move must beat the heuristic's to replace it
PLAYOUT_NOISE = 0.1  # share of play-out moves that are a random play rather than the best-scored
CARD_WEIGHT = 0.6  # estimated win chance ∝ exp(-CARD_WEIGHT × cards in hand)


def _distinct_actions(state: SheddingGame) -> list[ActionTuple]:
    """The legal moves worth telling apart: a play that leaves one card only with the announcement."""
    legal = state.legal_tuples()
    if len(state.hands[state.current]) != 2:
        return legal
    return [a for a in legal if a[3] or a[0] != PLAY or (PLAY, a[1], a[2], True) not in legal]


def _root_actions(view: Mapping[str, Any]) -> set[ActionTuple] | None:
    """The seat's moves worth searching now, or None for all: a voluntary draw only grows the hand
    (the heuristic never makes one either), so while a card can be played it is left out."""
    moves = [parse_action(move) for move in view["legal_moves"]]
    if view["pending"]["draw"] or DRAW_ACTION not in moves or moves[0][0] != PLAY:
        return None
    return set(moves) - {DRAW_ACTION}


def playout_move(state: SheddingGame, rng: random.Random) -> ActionTuple:
    """The heuristic's choice in miniature (``shedding_heuristic``, same weights), for play-outs.

    From the state alone, cheaply: go out when possible, then the best-scored play (suit-changers
    kept while a plain card matches, pick-up answers kept unless the next seat clockwise is close
    to going out, most of the hand left matching, high tallies shed), ending a multi-card turn over
    spending a suit-changer, drawing last; the suit held most, always the announcement. Unlike the
    heuristic it does not tell an answer to a pick-up from a free play. ``PLAYOUT_NOISE`` of the
    moves are any play, so play-outs do not all follow one line.
    """
    legal = state.legal_tuples()
    if len(legal) == 1:
        return legal[0]
    seat = state.current
    hand = state.hands[seat]
    announce = len(hand) == 2
    plays = [a for a in legal if a[0] == PLAY and a[3] == announce]
    if not plays:
        return legal[0]
    rules = state.rules
    power = rules.power
    if len(hand) == 1:
        return plays[0]
    suits = [0, 0, 0, 0, 0]  # by suit; the last for the jokers, which have none
    ranks = [0] * 14
    for c in hand:
        suits[SUIT_OF[c]] += 1
        ranks[RANK_OF[c]] += 1
    if rng.random() < PLAYOUT_NOISE:
        _, card, suit, _ = rng.choice(plays)
        return (PLAY, card, _suit_to_name(suits, card) if suit >= 0 else -1, announce)
    answers = heuristic.answer_cards(rules)
    close = len(state.hands[_next_seat(state)]) <= heuristic.CLOSE_TO_OUT
    plain_match = any(power[a[1]] is None for a in plays)
    best_value = heuristic.END_TURN_AFTER_PLAYING if END_ACTION in legal else 0.0
    best = END_ACTION if END_ACTION in legal else DRAW_ACTION
    for action in plays:
        card, suit = action[1], action[2]
        if suit >= 0 and suit != _suit_to_name(suits, card):
            continue
        p = power[card]
        value = heuristic.PLAY + heuristic.TALLY * CARD_POINTS[card]
        if p is not None:
            if p.anywhere and plain_match:
                value -= heuristic.KEEP_ANYWHERE
            if p.draw or p.skip:
                value += heuristic.ATTACK if close else 0.0
            if card in answers and not close:
                value -= heuristic.KEEP_ANSWER
        if suit < 0:
            suit = SUIT_OF[card]
        rank = RANK_OF[card]
        # Cards left of the suit on top or of the card's rank (the card itself is of both).
        matching = suits[suit] + ranks[rank] - hand.count(rank * 4 + suit) - 1
        value += heuristic.MATCHING * matching
        if announce and not rules.finish_on_power:
            other = hand[1] if hand[0] == card else hand[0]
            value -= heuristic.STRANDED if power[other] is not None else 0.0
        if value > best_value or (value == best_value and rng.random() < 0.5):
            best_value, best = value, action
    return best


def _next_seat(state: SheddingGame) -> int:
    """The seat after the one to move, clockwise (play-outs do not follow reversals)."""
    n = state.players
    seat = (state.current + 1) % n
    while seat in state.finish_order and seat != state.current:
        seat = (seat + 1) % n
    return seat


def _suit_to_name(suits: list[int], played: int) -> int:
    """The suit to name: the one held most (``suits``: cards by suit) once ``played`` has left."""
    counts = suits[:4]
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
    finished = state.finish_order
    weights = [
        0.0 if s in finished else math.exp(-CARD_WEIGHT * len(state.hands[s])) for s in range(n)
    ]
    total = sum(weights)
    rewards = [w / total for w in weights]
    if state.rules.one_left:
        rewards = [r * (n - 1 - len(finished)) / (n - 1) for r in rewards]
        for place, s in enumerate(finished):
            rewards[s] = (n - 1 - place) / (n - 1)
    return rewards


class Deals(Protocol):
    """Where the search's deals come from: games that agree with the seat's view, the cards it cannot
    see filled in."""

    def deal(self, rng: random.Random) -> SheddingGame: ...


DealsFor = Callable[[Mapping[str, Any], Rules], Deals]  # the deals for a view


class Determiniser:
    """Deals the cards the seat cannot see, as the public history allows (:mod:`shedding_beliefs`)."""

    def __init__(self, view: Mapping[str, Any], rules: Rules) -> None:
        # The rebuilt games need no history (play-outs never read it): not parsing it every
        # iteration keeps a determinisation cheap late in a long deal.
        self.view = {**view, "history": []}
        self.rules = rules
        self.seat = view["you"]["seat"]
        self.own = [CARD_IDS[code] for code in view["you"]["hand"]]
        self.slots = hand_slots(view, rules)
        self.unseen = unseen_cards(view, rules)
        self.template: SheddingGame | None = None

    def deal(self, rng: random.Random) -> SheddingGame:
        """A game with the hidden cards dealt. The first is rebuilt from the view, which checks
        that the cards fit; later ones copy it with other cards (the same counts, already checked),
        which costs a fraction of a rebuild."""
        hands, stock = deal_hidden(self.slots, self.unseen, rng)
        hands[self.seat] = list(self.own)
        if self.template is None:
            self.template = SheddingGame.from_view(
                self.view, self.rules, hands, stock, rng.randbytes(8)
            )
            return self.template.copy()
        game = self.template.copy()
        game.hands = hands
        game.stock = stock
        game.rng = DealRng(rng.randbytes(8))
        return game


def search(
    view: Mapping[str, Any],
    rules: Rules,
    rng: random.Random,
    iterations: int = DEFAULT_ITERATIONS,
    time_cap: float | None = TIME_CAP,
    playout_actions: int = PLAYOUT_ACTIONS,
    margin: float = MARGIN,
    deals_for: DealsFor = Determiniser,
) -> ActionTuple:
    """The heuristic's move, unless another candidate did better on the same deals by more than
    ``margin`` standard errors of the paired differences (see the module docstring).

    ``iterations`` play-outs in all, shared among the candidates, or as many as ``time_cap``
    seconds allow (``None``: no cap). The deals are the view's (:class:`Determiniser`); a benchmark
    measures what the hidden cards cost by dealing the true hands instead."""
    deadline = time.perf_counter() + time_cap if time_cap is not None else math.inf
    me = view["you"]["seat"]
    default = parse_action(heuristic.best_move(view, rules, rng))
    determiniser = deals_for(view, rules)
    state = determiniser.deal(rng)
    candidates = _distinct_actions(state)  # the seat's own moves are the same in every deal
    searched = _root_actions(view)
    if searched is not None:
        candidates = [a for a in candidates if a in searched]
    candidates = [default] + [a for a in candidates if a != default]
    count = len(candidates)
    if count == 1:
        return default
    totals = [0.0] * count
    squares = [0.0] * count  # of the differences from the default, deal by deal
    deals = 0
    while deals < max(2, iterations // count):
        if deals and time.perf_counter() > deadline:
            break
        if deals:
            state = determiniser.deal(rng)
        seed = rng.getrandbits(64)
        rewards = []
        for action in candidates:
            game = state.copy()
            game.apply_tuple(action)
            playout_rng = random.Random(seed)
            for _ in range(playout_actions):
                if game.is_over:
                    break
                game.apply_tuple(playout_move(game, playout_rng))
            rewards.append(_rewards(game)[me])
        for index, reward in enumerate(rewards):
            totals[index] += reward
            squares[index] += (reward - rewards[0]) ** 2
        deals += 1
    best = max(range(count), key=totals.__getitem__)
    gain = (totals[best] - totals[0]) / deals
    spread = math.sqrt(max(squares[best] / deals - gain * gain, 0.0) / deals)
    return candidates[best] if gain > margin * spread else default


def make_montecarlo_bot(
    iterations: int = DEFAULT_ITERATIONS,
    time_cap: float | None = TIME_CAP,
    playout_actions: int = PLAYOUT_ACTIONS,
    margin: float = MARGIN,
    deals_for: DealsFor = Determiniser,
) -> Strategy:
    """A search strategy with its own budget and settings (tests and benchmarks vary them)."""

    def choose(view: Mapping[str, Any], facts: MatchFacts, rng: random.Random) -> dict[str, Any]:
        moves = view["legal_moves"]
        if len(moves) == 1:
            return dict(moves[0])
        action = search(
            view,
            heuristic.rules_for(facts),
            rng,
            iterations=iterations,
            time_cap=time_cap,
            playout_actions=playout_actions,
            margin=margin,
            deals_for=deals_for,
        )
        return dict(action_dict(action))

    return choose


choose = make_montecarlo_bot()
