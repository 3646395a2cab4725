"""The ``heuristic`` strategy for shedding Switch: one pass over the legal moves, each given a score.

What it knows about a card comes from the ruleset's power table (the match's house rules
included), never from a list of presets, so a jack that names the suit in one ruleset and reverses
in another is judged by what it does here. The rules of thumb, in order of weight:

* go out when you can; otherwise play rather than draw (a voluntary draw only grows the hand);
* answer a pick-up or a chained skip with a card that stacks, cancels or passes it on;
* keep cards that go anywhere (suit-changers, wilds) while a plain card matches: they are the
  only answer to a suit you lack, later;
* keep a card that can answer a pick-up while nobody is close to going out, and hit the next
  player with pick-ups and skips when they are;
* play the card that leaves the most of the hand matching the new top card, and name the suit
  held most;
* among equals, shed the cards the French tally scores highest (ace 20; 2, 4, jack 15; …), since
  every deal's winner scores the cards left in the other hands;
* announce the last card whenever a play leaves one;
* in a multi-card turn play on while a card sheds safely, and end the turn rather than spend a
  suit-changer.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from switchgame.cards import CARD_IDS, RANK_OF, SUIT_OF, SUITS
from switchgame.shedding.rulesets import Rules, find_ruleset
from switchgame.shedding.scoring import CARD_POINTS

if TYPE_CHECKING:
    from switchgame.bots import MatchFacts


# Scores of the rules of thumb (a play starts at PLAY; drawing is 0).
GO_OUT = 1000.0
PLAY = 100.0
END_TURN_AFTER_PLAYING = 70.0  # below a plain play, above spending a suit-changer (PLAY - KEEP)
KEEP_ANYWHERE = 40.0  # a suit-changer or wild held back while something plain matches
KEEP_ANSWER = 15.0  # a card that can answer a pick-up, held back while nobody is close to out
ATTACK = 30.0  # a pick-up or skip when the next player is close to going out
CLOSE_TO_OUT = 2  # cards in hand that make a player "close"
STACK = 10.0  # passing a pick-up on beats cancelling it
MATCHING = 3.0  # per card left in hand that matches what we leave on top
TALLY = 0.3  # per French-tally point shed: a tie-breaker
STRANDED = 30.0  # the last card left would be a power card the ruleset won't let us finish on


@lru_cache(maxsize=64)
def _compiled(ruleset: str, options_json: str, players: int) -> Rules:
    return find_ruleset(ruleset).with_options(json.loads(options_json)).compile(players)


def rules_for(facts: MatchFacts) -> Rules:
    """The compiled rules of the match: its preset with the match's house rules (cached)."""
    return _compiled(facts.ruleset, json.dumps(facts.options, sort_keys=True), facts.players)


@lru_cache(maxsize=64)
def answer_cards(rules: Rules) -> frozenset[int]:
    """Cards that can stack on or cancel some pick-up of these rules."""
    out: set[int] = set()
    for p in rules.power:
        if p is not None:
            out |= p.answered_by
    return frozenset(out)


def most_held_suit(hand: list[int], rng: random.Random) -> int:
    """The suit with most cards in ``hand`` (ties broken by ``rng``; any suit for a joker-only hand)."""
    counts = [0, 0, 0, 0]
    for c in hand:
        if SUIT_OF[c] >= 0:
            counts[SUIT_OF[c]] += 1
    best = max(counts)
    return rng.choice([suit for suit in range(4) if counts[suit] == best])


def _next_seat_count(view: Mapping[str, Any], seat: int) -> int:
    """How many cards the player after ``seat`` holds."""
    seats = view["seats"]
    n = len(seats)
    nxt = (seat + view["direction"]) % n
    while seats[nxt]["finished"] is not None and nxt != seat:
        nxt = (nxt + view["direction"]) % n
    return int(seats[nxt]["hand_count"])


def choose(view: Mapping[str, Any], facts: MatchFacts, rng: random.Random) -> dict[str, Any]:
    """The legal move with the best score (see the module docstring)."""
    moves = view["legal_moves"]
    if len(moves) == 1:
        return dict(moves[0])
    return best_move(view, rules_for(facts), rng)


def best_move(view: Mapping[str, Any], rules: Rules, rng: random.Random) -> dict[str, Any]:
    """:func:`choose` for compiled rules (the search bot's default move)."""
    moves = view["legal_moves"]
    power = rules.power
    answers = answer_cards(rules)
    seat = view["you"]["seat"]
    hand = [CARD_IDS[code] for code in view["you"]["hand"]]
    turn = view["turn"]
    answering = turn["played"] == 0 and bool(view["pending"]["draw"] or view["pending"]["skip"])
    plays = [m for m in moves if m["action"] == "play"]
    plain_match = any(power[CARD_IDS[m["card"]]] is None for m in plays)
    next_close = _next_seat_count(view, seat) <= CLOSE_TO_OUT
    suit_choice: dict[int, int] = {}

    def score(move: Mapping[str, Any]) -> float:
        kind = move["action"]
        if kind == "draw":
            return 0.0
        if kind == "end_turn":
            return END_TURN_AFTER_PLAYING if turn["played"] or not answering else 0.0
        card = CARD_IDS[move["card"]]
        left = list(hand)
        left.remove(card)
        if not left:
            return GO_OUT
        p = power[card]
        value = PLAY + TALLY * CARD_POINTS[card]
        if p is not None and not answering:
            if p.anywhere and plain_match:
                value -= KEEP_ANYWHERE
            if p.draw or p.skip:
                value += ATTACK if next_close else 0.0
            if card in answers and not next_close:
                value -= KEEP_ANSWER
        if answering and p is not None and p.draw:
            value += STACK
        suit = SUIT_OF[card]
        if "suit" in move:
            suit = suit_choice[card]
        rank = RANK_OF[card]
        value += MATCHING * sum(1 for c in left if SUIT_OF[c] == suit or RANK_OF[c] == rank)
        if len(left) == 1 and not rules.finish_on_power and power[left[0]] is not None:
            value -= STRANDED
        return value

    candidates = []
    for move in moves:
        if move["action"] == "play":
            card = CARD_IDS[move["card"]]
            if "suit" in move:
                if card not in suit_choice:
                    left = list(hand)
                    left.remove(card)
                    suit_choice[card] = most_held_suit(left, rng)
                if SUITS.index(move["suit"]) != suit_choice[card]:
                    continue
            if (
                len(hand) == 2
                and "announce" not in move
                and {**move, "announce": "last_card"} in plays
            ):
                continue
        candidates.append(move)
    scores = [score(move) for move in candidates]
    best = max(scores)
    return dict(rng.choice([m for m, v in zip(candidates, scores, strict=True) if v == best]))
