"""Legal moves of a shedding position (docs/rules.md §2, §3), and why a move is not among them.

Functions of the state, so that the game (:mod:`game`) applies moves and this module alone says
which moves exist. ``SheddingGame.apply`` accepts an action exactly when its tuple is among
:func:`compute_legal`'s, so ``legal_actions()`` and ``apply`` cannot disagree.
"""

from __future__ import annotations

from collections.abc import Set

from switchgame.cards import CARD_CODES, KING, RANK_OF, SAME_RANK, SUIT_OF, SUITS
from switchgame.protocol import IllegalMove
from switchgame.shedding.actions import DRAW, END, PLAY, ActionForms, ActionTuple, Form
from switchgame.shedding.state import MatchState
from switchgame.words import N_


def matches(state: MatchState, card_id: int) -> bool:
    """May ``card_id`` be played on the top card as a turn's first card (docs/rules.md §2 Matching)?"""
    return card_id in state.rules.playable_on[RANK_OF[state.discard[-1]]][state.active_suit]


def compute_legal(state: MatchState, forms: ActionForms[Form]) -> list[Form]:
    """Every action the seat to move may take, in a fixed order: plays by card, then draw or end;
    in the form of ``forms`` (the engine's tuples or the API's dicts)."""
    hand = state.hands[state.current]
    rules = state.rules
    # The cards that may be played, and the action that closes the list whatever they are (None:
    # a draw, only when no card may be played).
    closing: Form | None
    if state.played == 0 and not (state.pending_draw or state.pending_skip or state.drawn >= 0):
        # A turn's first card, or a draw (docs/rules.md §2 Matching and Drawing).
        playable = rules.playable_on[RANK_OF[state.discard[-1]]][state.active_suit]
        candidates: Set[int] = playable.intersection(hand)
        voluntary = rules.may_draw_voluntarily and len(state.stock) + len(state.discard) > 1
        closing = forms.draw if voluntary else None
    elif state.must_cover:
        candidates, closing = set(hand), None
    elif state.played == 0 and state.pending_draw:
        chain = rules.power[state.pending_card]
        assert chain is not None
        candidates, closing = chain.answered_by.intersection(hand), forms.draw
    elif state.played == 0 and state.pending_skip:
        chain = rules.power[state.pending_skip_card]
        candidates = {c for c in hand if rules.power[c] is chain}
        closing = forms.end
    elif state.drawn >= 0:
        candidates, closing = {state.drawn}, forms.end
    else:
        candidates, closing = _continuations(state, set(hand)), forms.end
    hand_size = len(hand)
    if hand_size == 1 and (state.barred or not rules.finish_on_power):
        # The last card may not be played: unannounced, or a power card where that may not finish.
        candidates = set() if state.barred else {c for c in candidates if rules.power[c] is None}
    # A variant per named suit, and with and without announcing last card.
    names_suit = rules.names_suit
    by_names_suit = forms.plays[hand_size == 2]
    plays: list[Form] = []
    for card_id in sorted(candidates):
        plays += by_names_suit[card_id in names_suit][card_id]
    if closing is not None:
        plays.append(closing)
    elif not plays:
        plays.append(forms.draw)
    return plays


def _continuations(state: MatchState, held: set[int]) -> set[int]:
    """The held cards that may follow the turn's last card (multi-card turns, docs/rules.md §2/§3)."""
    rules = state.rules
    last = state.last
    out = (
        held & rules.playable_on[RANK_OF[state.discard[-1]]][state.active_suit]
        if state.again
        else set()
    )
    p = rules.power[last]
    if rules.same_rank or (p is not None and p.then == "same_rank"):
        out |= held & SAME_RANK[last]
    suit = SUIT_OF[last]
    if rules.runs and suit >= 0:
        for step in (state.run_dir,) if state.run_dir else (1, -1):
            rank = RANK_OF[last] + step
            if 0 <= rank <= KING and rank * 4 + suit in held:
                out.add(rank * 4 + suit)
    if state.suit_mode >= 0:
        out.update(c for c in held if SUIT_OF[c] == state.suit_mode)
    return out


def why_illegal(state: MatchState, move: ActionTuple, legal: list[ActionTuple]) -> IllegalMove:
    """Why ``move`` is not among the ``legal`` ones: the refusal to raise, its sentence for the
    player a message of the catalogue (``N_``) with the card codes and numbers apart."""
    kind, card_id, suit, announce = move
    hand = state.hands[state.current]
    top = CARD_CODES[state.discard[-1]]
    if kind == DRAW:
        if state.must_cover:
            return IllegalMove(N_("you must cover the queen with another card"))
        if state.played:
            return IllegalMove(N_("you have played this turn: play on or end your turn"))
        if state.drawn >= 0:
            return IllegalMove(
                N_("you have drawn: play {card} or end your turn"), card=CARD_CODES[state.drawn]
            )
        if state.pending_skip:
            return IllegalMove(N_("you must answer the skip or end your turn (missing it)"))
        return IllegalMove(
            N_("you have a card you can play, and this ruleset does not let you draw instead")
        )
    if kind == END:
        if state.must_cover:
            return IllegalMove(N_("you must cover the queen before your turn can end"))
        if state.pending_draw:
            return IllegalMove(
                N_("you must answer the pick-up of {count} or draw it"), count=state.pending_draw
            )
        return IllegalMove(N_("you must play or draw before ending your turn"))
    code = CARD_CODES[card_id]
    if card_id not in hand:
        return IllegalMove(N_("you do not hold {card}"), card=code)
    same_card = [a for a in legal if a[0] == PLAY and a[1] == card_id]
    if same_card:
        p = state.rules.power[card_id]
        if p is not None and p.names_suit and suit < 0:
            return IllegalMove(N_("{card} names a suit: say which (C, D, H or S)"), card=code)
        if suit >= 0 and not (p is not None and p.names_suit):
            return IllegalMove(N_("{card} does not name a suit"), card=code)
        if announce:
            return IllegalMove(
                N_("you may announce last card only when the play leaves you one card")
            )
        return IllegalMove(N_("that play is not allowed now"))
    if state.must_cover:
        return IllegalMove(N_("you may not finish on {card}: the queen must be covered"), card=code)
    if state.played == 0 and state.pending_draw:
        return IllegalMove(
            N_("you must answer the pick-up of {count} or draw it; {card} cannot answer it"),
            count=state.pending_draw,
            card=code,
        )
    if state.played == 0 and state.pending_skip:
        return IllegalMove(
            N_("you must answer the skip or end your turn; {card} cannot answer it"), card=code
        )
    if state.drawn >= 0:
        return IllegalMove(
            N_("after drawing you may only play the card you drew ({card})"),
            card=CARD_CODES[state.drawn],
        )
    if len(hand) == 1 and state.barred:
        return IllegalMove(
            N_("you did not announce last card, so you may not play your last card this turn")
        )
    if (
        len(hand) == 1
        and not state.rules.finish_on_power
        and state.rules.power[card_id] is not None
    ):
        return IllegalMove(N_("you may not finish on a power card ({card})"), card=code)
    if state.played:
        return IllegalMove(
            N_("{card} does not continue your turn after {last}"),
            card=code,
            last=CARD_CODES[state.last],
        )
    if state.rules.must_not_be_lower and (
        SUIT_OF[card_id] == state.active_suit or RANK_OF[card_id] == RANK_OF[state.discard[-1]]
    ):
        return IllegalMove(N_("{card} is lower than {top}"), card=code, top=top)
    return IllegalMove(
        N_("{card} does not match {top} or the active suit {suit}"),
        card=code,
        top=top,
        suit=SUITS[state.active_suit],
    )
