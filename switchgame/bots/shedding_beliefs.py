"""What the table has seen of the other hands, and deals of the unseen cards that agree with it.

A search bot must deal the cards it cannot see (determinisations); dealing them uniformly
ignores what the public ``history`` of the view tells. Replaying that history, each other seat's
hand is a list of *slots*, one per card it holds, each with a mask of the cards it cannot be:

* **A forced draw shows a void.** Where the ruleset allows no voluntary draw, a draw by the draw
  rule (reason ``draw``) is only legal when no first card can be played (docs/rules.md §2 Matching,
  Drawing; ``legal.py``): every card then held is outside the cards playable on the top card and
  the active suit — with one card left, only plain cards count where a player may not finish on a
  power card, and nothing is implied where an unannounced last card may be barred (``no_finish``).
* **Drawing until playable** (``until_playable``): after such a void, every card of the run but
  the last did not match either.
* **Draw one, then play it** (``one_then_play``): a drawn card that matched lets the player play it
  or end the turn; one that did not ends the turn at once — so after such a void, a turn that
  passes on with neither shows the drawn card is void in the same cards.
* **Players that play when they can** (an assumption about the other players, not a rule, used by
  default): where voluntary draws are allowed, a draw by the draw rule is read as a void too, and a
  pick-up taken as holding nothing that answers it. A seat that later plays a card this made
  impossible has shown it does draw by choice; its hand is then read by the rules alone.

A card played leaves the hand from the most constrained slot that can hold it: masks only grow with
age (a void applies to every card held, a card drawn later has seen fewer voids), so that choice
leaves the most freedom and the slots describe exactly the hands these inferences allow. (For that
the cards drawn in a void's own turn get that void's mask and no more, though a run drawn until
playable shows a little more where voluntary draws hide voids.) Nothing here sees a hidden card: the
history, the seat's own hand and the discard pile are in the seat's view.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from switchgame.cards import CARD_IDS, RANK_OF, SUIT_OF, SUITS
from switchgame.shedding.rulesets import Rules

STRICT_TRIES = 20  # random deals tried against every mask before matching cards to slots


def mask_of(cards: frozenset[int] | set[int]) -> int:
    """The bitmask of a set of card ids."""
    mask = 0
    for card_id in cards:
        mask |= 1 << card_id
    return mask


class _Inconsistent(Exception):
    """A seat played a card that no slot of its hand could hold."""

    def __init__(self, seat: int) -> None:
        self.seat = seat


def hand_slots(
    view: Mapping[str, Any], rules: Rules, assume_play_when_able: bool = True
) -> list[list[int]]:
    """For each seat, one mask per card it holds of the cards that card cannot be (oldest first).

    The viewing seat's own list is empty: its hand is known. ``assume_play_when_able`` adds the
    inferences of the module docstring that hold only for players that play whenever they can.
    """
    trusted = set(range(rules.players)) if assume_play_when_able else set()
    while True:
        try:
            return _replay(view, rules, trusted)
        except _Inconsistent as error:
            trusted.discard(error.seat)


def _replay(view: Mapping[str, Any], rules: Rules, trusted: set[int]) -> list[list[int]]:
    me = view["you"]["seat"]
    history = view["history"]
    net = Counter[int]()  # cards each seat gained minus cards it played, to size the first hands
    for item in history:
        if item["type"] == "draw":
            net[item["seat"]] += item["count"]
        elif item["type"] == "play":
            net[item["seat"]] -= 1
    slots = [
        [] if s == me else [0] * (info["hand_count"] - net[s])
        for s, info in enumerate(view["seats"])
    ]
    voids = _VoidMasks(rules)
    top, active_suit = -1, -1
    for index, item in enumerate(history):
        kind = item["type"]
        if kind == "starter":
            top = CARD_IDS[item["card"]]
            active_suit = SUIT_OF[top]
        elif kind == "play":
            seat, top = item["seat"], CARD_IDS[item["card"]]
            if "suit" in item:
                active_suit = SUITS.index(item["suit"])
            elif SUIT_OF[top] >= 0:
                active_suit = SUIT_OF[top]
            if seat != me:
                _remove_played(slots[seat], top, seat, trusted)
        elif kind == "draw" and item["seat"] != me:
            seat, count, reason = item["seat"], item["count"], item["reason"]
            hand = slots[seat]
            playable = voids.playable(top, active_suit, len(hand))
            new = [0] * count
            if reason == "draw" and (not rules.may_draw_voluntarily or seat in trusted):
                hand[:] = [mask | playable for mask in hand]
                # The drawn cards that did not match are void in the same cards, no more: the
                # masks stay nested (see the module docstring).
                if rules.draw_rule == "until_playable" and count:
                    new = [playable] * (count - 1) + [0]
                elif rules.draw_rule == "one_then_play" and not _kept_turn(view, index, seat):
                    new = [playable] * count
            elif reason == "pick_up" and seat in trusted:
                answers = voids.playable_of(voids.answers(top), len(hand))
                hand[:] = [mask | answers for mask in hand]
            hand.extend(new)
    return slots


def _remove_played(hand: list[int], card_id: int, seat: int, trusted: set[int]) -> None:
    """The played card leaves the most constrained slot that can hold it (see the module
    docstring). Where none can, the assumption about the seat was wrong; read by the rules alone
    that cannot happen, but should it, the least constrained slot goes rather than the bot fail."""
    holders = [index for index, mask in enumerate(hand) if not mask >> card_id & 1]
    if not holders:
        if seat in trusted:
            raise _Inconsistent(seat)
        holders = [min(range(len(hand)), key=lambda index: hand[index].bit_count())]
    del hand[max(holders, key=lambda index: hand[index].bit_count())]


def _kept_turn(view: Mapping[str, Any], index: int, seat: int) -> bool:
    """Did ``seat`` act again after its draw at ``index`` of the history, or is it still to act
    (either way the drawn card was playable)?"""
    history = view["history"]
    if index + 1 == len(history):
        return bool(view["to_move"] == seat)
    following = history[index + 1]
    return following["type"] in ("play", "end_turn") and following["seat"] == seat


class _VoidMasks:
    """The masks of cards a void rules out, by the position the seat could not play on."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.plain = mask_of({c for c, p in enumerate(rules.power) if p is None})

    def matching(self, top: int, active_suit: int) -> int:
        """The cards that may start a turn on ``top`` with ``active_suit``."""
        return mask_of(self.rules.playable_on[RANK_OF[top]][active_suit])

    def playable(self, top: int, active_suit: int, hand_size: int) -> int:
        """The cards whose presence in a hand of ``hand_size`` would have allowed a first play."""
        return self.playable_of(self.matching(top, active_suit), hand_size)

    def playable_of(self, cards: int, hand_size: int) -> int:
        """Of ``cards`` (a mask), those a hand of ``hand_size`` could have played, rules allowing."""
        if hand_size != 1:
            return cards
        if self.rules.penalty_kind == "no_finish":
            return 0  # an unannounced last card may be barred: not playing it shows nothing
        if self.rules.finish_on_power:
            return cards
        return cards & self.plain

    def answers(self, top: int) -> int:
        """The cards that could have answered a pick-up whose last card is ``top``."""
        power = self.rules.power[top]
        if power is None or not power.draw:
            return 0
        return mask_of(set(power.stacked_by) | set(power.cancelled_by))


def unseen_cards(view: Mapping[str, Any], rules: Rules) -> list[int]:
    """The cards the seat cannot see: the deck less its own hand and the discard pile."""
    seen = Counter(CARD_IDS[code] for code in view["you"]["hand"]) + Counter(
        CARD_IDS[code] for code in view["discard_pile"]
    )
    return sorted((Counter(rules.deck) - seen).elements())


def deal_hidden(
    slots: Sequence[Sequence[int]], unseen: Sequence[int], rng: random.Random
) -> tuple[list[list[int]], list[int]]:
    """The other seats' hands (a card for each slot, in order, none its mask rules out) and the
    stock.

    The most constrained slots are dealt first, each a card drawn at random from those its mask
    allows; a deal that gets stuck is tried again. After ``STRICT_TRIES`` stuck deals the cards are
    matched to the constrained slots by augmenting paths (:func:`_matched_slots`), which finds a
    deal whenever one exists — the true hands are one, as long as the history was read right; a
    slot that no matching can fill gets whatever is left. The cards left over, shuffled, are the
    stock.
    """
    order = sorted(
        ((seat, index) for seat, masks in enumerate(slots) for index in range(len(masks))),
        key=lambda slot: -slots[slot[0]][slot[1]].bit_count(),
    )
    for _ in range(STRICT_TRIES):
        pool = list(unseen)
        hands = [[-1] * len(masks) for masks in slots]  # card by slot
        for seat, index in order:
            mask = slots[seat][index]
            if mask:
                allowed = [i for i, c in enumerate(pool) if not mask >> c & 1]
                if not allowed:
                    break
                pick = rng.choice(allowed)
            else:
                pick = rng.randrange(len(pool))
            hands[seat][index] = pool[pick]
            pool[pick] = pool[-1]
            pool.pop()
        else:
            rng.shuffle(pool)
            return hands, pool
    return _deal_by_matching(slots, unseen, rng)


def _deal_by_matching(
    slots: Sequence[Sequence[int]], unseen: Sequence[int], rng: random.Random
) -> tuple[list[list[int]], list[int]]:
    """A deal for :func:`deal_hidden` that random dealing did not find: the constrained slots get
    the cards of a maximum matching, every other slot a card at random from the rest."""
    constrained = [(s, i) for s, masks in enumerate(slots) for i, m in enumerate(masks) if m]
    card_of_slot = _matched_slots([slots[s][i] for s, i in constrained], unseen, rng)
    hands = [[-1] * len(masks) for masks in slots]
    for slot, card_index in card_of_slot.items():
        seat, index = constrained[slot]
        hands[seat][index] = unseen[card_index]
    taken = set(card_of_slot.values())
    pool = [card for i, card in enumerate(unseen) if i not in taken]
    rng.shuffle(pool)
    for hand in hands:
        for index, card in enumerate(hand):
            if card == -1:
                hand[index] = pool.pop()
    return hands, pool


def _matched_slots(
    masks: Sequence[int], cards: Sequence[int], rng: random.Random
) -> dict[int, int]:
    """A maximum matching of slots to cards (indices into ``cards``) that their masks allow, by
    augmenting paths (Kuhn's algorithm), each slot's candidates in random order."""
    candidates = [[i for i, c in enumerate(cards) if not mask >> c & 1] for mask in masks]
    for options in candidates:
        rng.shuffle(options)
    slot_of_card: dict[int, int] = {}

    def place(slot: int, visited: set[int]) -> bool:
        for card in candidates[slot]:
            if card in visited:
                continue
            visited.add(card)
            if card not in slot_of_card or place(slot_of_card[card], visited):
                slot_of_card[card] = slot
                return True
        return False

    for slot in range(len(masks)):
        place(slot, set())
    return {slot: card for card, slot in slot_of_card.items()}
