"""The ``heuristic`` strategy for Abbott's Switch: one-move lookahead with a model of who will win.

Every decision is scored the same way. Each seat's *strength* is its best hand as a number (plus a
little for a flush draw), and a seat that will move before our next turn is credited with part of the
best card it could then reach. A softmax of the strengths estimates who wins the hand, and the
scoring table turns that into what the outcome is worth to us (our points minus the others' mean).
So one number covers the rules of thumb: taking a card raises our strength; taking the card the leader
needs, or standing in his way, lowers his; an alliance changes what each winner is worth to us. The
softmax sharpens as the grid empties, because early hands say little about the final ones.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from switchgame.abbott.poker import VALUE_OF, Key, evaluate
from switchgame.abbott.scoring import Alliance, hand_scores
from switchgame.cards import SUIT_OF, parse_card

if TYPE_CHECKING:
    from switchgame.bots import MatchFacts

NO_CARD = -1
FLUSH_DRAW = 0.15  # per suited card beyond two, while there is no flush yet
NEXT_TURN_WEIGHT = 0.6  # share of a rival's best reachable card counted before he has taken it
SHARPNESS_EARLY, SHARPNESS_LATE = 0.6, 3.0  # softmax sharpness with a full and an empty grid
ALLY_MARGIN = 0.5  # expected points an alliance must add before we give up winning 10 alone


def hand_value(key: Key) -> float:
    """A number that orders hands exactly as their keys do: the category, then the card values
    as base-15 digits (a missing card is a zero digit, below any card's 2..14)."""
    value = float(key[0])
    scale = 1.0
    for v in key[1:]:
        scale /= 15
        value += v * scale
    return value


def strength(cards: Sequence[int]) -> float:
    """How good a hand is and is becoming: its value plus a bonus for a flush draw."""
    key = evaluate(cards)[0]
    value = hand_value(key)
    if key[0] < 5:  # below a flush
        suits = [0, 0, 0, 0]
        for c in cards:
            suits[SUIT_OF[c]] += 1
        value += FLUSH_DRAW * max(0, max(suits) - 2)
    return value


def outcome_values(players: int, seat: int, alliance: Alliance | None) -> list[float]:
    """What each possible hand winner is worth to ``seat``: its points minus the others' mean.

    Zero-sum over the seats, so helping a rival is never free; it also makes an alliance with a
    likely winner attractive to a seat that would otherwise score nothing."""
    values = []
    for winner in range(players):
        scores = hand_scores(players, winner, alliance)
        values.append(scores[seat] - (sum(scores) - scores[seat]) / (players - 1))
    return values


def sharpness(taken: int, left: int) -> float:
    """How far the win-chance softmax trusts current strengths: more as fewer cards are left."""
    progress = taken / (taken + left) if taken + left else 1.0
    return SHARPNESS_EARLY + (SHARPNESS_LATE - SHARPNESS_EARLY) * progress


def win_chances(strengths: Sequence[float], sharpness: float) -> list[float]:
    """Each seat's estimated chance of holding the best hand at the end: a softmax of strengths."""
    top = max(strengths)
    weights = [math.exp(sharpness * (s - top)) for s in strengths]
    total = sum(weights)
    return [w / total for w in weights]


@dataclass(frozen=True, slots=True)
class Position:
    """The view parsed into ints: flat grid (``NO_CARD`` for an empty square), squares, cards."""

    players: int
    size: int
    grid: list[int]
    pieces: list[int]
    cards: list[list[int]]
    alliance: Alliance | None

    @classmethod
    def from_view(cls, view: Mapping[str, Any]) -> Position:
        size = view["size"]
        grid = [
            NO_CARD if code is None else parse_card(code) for row in view["grid"] for code in row
        ]
        alliance = view["alliance"]
        return cls(
            players=view["players"],
            size=size,
            grid=grid,
            pieces=[r * size + c for r, c in view["pieces"]],
            cards=[[parse_card(code) for code in seat["cards"]] for seat in view["seats"]],
            alliance=(alliance["chooser"], alliance["chosen"]) if alliance else None,
        )

    def reachable(self, square: int, occupied: set[int]) -> list[int]:
        """The squares a piece on ``square`` can move to (like a rook, stopped by pieces)."""
        size = self.size
        row, col = divmod(square, size)
        targets = []
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            r, c = row + dr, col + dc
            while 0 <= r < size and 0 <= c < size and r * size + c not in occupied:
                targets.append(r * size + c)
                r, c = r + dr, c + dc
        return targets

    def sharpness(self) -> float:
        taken = sum(len(cards) for cards in self.cards)
        return sharpness(taken, sum(1 for c in self.grid if c != NO_CARD))


class _Evaluator:
    """Scores positions one move ahead for the seat to act (see the module docstring)."""

    def __init__(self, position: Position, seat: int) -> None:
        self.pos = position
        self.seat = seat
        self.strengths = [strength(cards) for cards in position.cards]
        # What each card on the grid would add to each seat's strength.
        self.gains: list[dict[int, float]] = [
            {sq: strength([*cards, c]) - base for sq, c in enumerate(position.grid) if c != NO_CARD}
            for cards, base in zip(position.cards, self.strengths, strict=True)
        ]

    def best_reach(self, seat: int, occupied: set[int], taken: int) -> float:
        """The most the seat's best reachable card (other than the square ``taken``) adds."""
        gains = self.gains[seat]
        reach = self.pos.reachable(self.pos.pieces[seat], occupied)
        return max([gains[sq] for sq in reach if sq in gains and sq != taken], default=0.0)

    def projected(self, mover: int, square: int) -> list[float]:
        """Strengths after ``mover``'s piece goes to ``square`` (taking its card), with the others
        credited with part of the best card they could reach next."""
        occupied = set(self.pos.pieces)
        occupied.discard(self.pos.pieces[mover])
        occupied.add(square)
        result = list(self.strengths)
        result[mover] += self.gains[mover].get(square, 0.0)
        for other in range(self.pos.players):
            if other != mover:
                result[other] += NEXT_TURN_WEIGHT * self.best_reach(other, occupied, square)
        return result

    def now(self) -> list[float]:
        """Strengths before anyone moves, everybody credited with part of his best reachable card."""
        occupied = set(self.pos.pieces)
        return [
            s + NEXT_TURN_WEIGHT * self.best_reach(seat, occupied, NO_CARD)
            for seat, s in enumerate(self.strengths)
        ]

    def chances(self, strengths: Sequence[float]) -> list[float]:
        return win_chances(strengths, self.pos.sharpness())

    def worth(self, chances: Sequence[float], alliance: Alliance | None) -> float:
        """The expected value of the hand to the seat under ``alliance``, given win chances."""
        values = outcome_values(self.pos.players, self.seat, alliance)
        return sum(v * p for v, p in zip(values, chances, strict=True))


def _single_leader(cards: Sequence[Sequence[int]]) -> int | None:
    keys = [evaluate(c)[0] for c in cards]
    top = max(keys)
    leaders = [s for s, k in enumerate(keys) if k == top]
    return leaders[0] if len(leaders) == 1 else None


def choose(view: Mapping[str, Any], facts: MatchFacts, rng: random.Random) -> dict[str, Any]:
    """The heuristic's action for the seat to move; ``rng`` only breaks exact ties."""
    legal = view["legal_moves"]
    if len(legal) == 1:
        return dict(legal[0])
    seat = view["to_move"]
    piece = view["piece_to_move"]
    pos = Position.from_view(view)
    by_kind: dict[str, list[Mapping[str, Any]]] = {}
    for action in legal:
        by_kind.setdefault(action["action"], []).append(action)

    if "propose_end" in by_kind:
        # Agree to end a hand whose current winner is the best outcome for us, and only as the
        # last seat that acts (the others have proposed), so that no proposal is given away.
        leader = _single_leader(pos.cards)
        values = outcome_values(pos.players, seat, pos.alliance)
        acting = set(view["controls"]) - {seat}
        others_agree = all(view["seats"][s]["proposed_end"] for s in acting)
        if others_agree and leader is not None and values[leader] == max(values):
            return {"action": "propose_end"}
    if "decline_end" in by_kind:  # asked to agree, and the hand is worth playing on
        return {"action": "decline_end"}

    evaluator = _Evaluator(pos, seat)

    # Win chances after each move (after passing, when blocked).
    moves = by_kind.get("move", [])
    prospects: list[tuple[Mapping[str, Any], list[float]]] = []
    for action in moves:
        row, col = action["to"]
        prospects.append(
            (action, evaluator.chances(evaluator.projected(piece, row * pos.size + col)))
        )
    if not prospects:
        prospects.append(({"action": "pass"}, evaluator.chances(evaluator.now())))

    if "ally" in by_kind:
        # An alliance is worth it only against the best we can do alone, denial included.
        alone = max(evaluator.worth(chances, None) for _, chances in prospects)
        partner, with_partner = max(
            (
                (a["partner"], max(evaluator.worth(c, (seat, a["partner"])) for _, c in prospects))
                for a in by_kind["ally"]
            ),
            key=lambda item: item[1],
        )
        if with_partner > alone + ALLY_MARGIN:
            return {"action": "ally", "partner": partner}

    if not moves:
        return {"action": "pass"}
    scored = []
    for action, chances in prospects:
        row, col = action["to"]
        card = pos.grid[row * pos.size + col]
        score = evaluator.worth(chances, pos.alliance)
        # Between equal prospects, a higher card is the better one to hold or to keep from others.
        scored.append((round(score, 9), VALUE_OF[card] if card != NO_CARD else 0, action))
    best = max(scored, key=lambda item: item[:2])[:2]
    return dict(rng.choice([action for *key, action in scored if tuple(key) == best]))
