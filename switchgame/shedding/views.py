"""What a seat may know of a shedding match — its view — and a whole game rebuilt from one.

:func:`view` is the only thing serializers and bots read: never another seat's cards or the stock.
:func:`rebuild` goes the other way for search bots: the view of the seat to move plus hidden cards
the bot has sampled make a complete game to play on, every field copied from the view (the view
states the turn's public facts — run direction, skips to come, a barred last card — so nothing here
re-derives what the rules would have done).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from switchgame.cards import CARD_CODES, CARD_IDS, SUITS, codes
from switchgame.shedding.actions import SUIT_IDS
from switchgame.shedding.public_log import history_entry, log_entry
from switchgame.shedding.rulesets import Rules
from switchgame.shedding.state import PLAYING
from switchgame.shuffle import DealRng

if TYPE_CHECKING:
    from switchgame.shedding.game import SheddingGame

Game = TypeVar("Game", bound="SheddingGame")


def _code_or_none(card_id: int) -> str | None:
    return CARD_CODES[card_id] if card_id >= 0 else None


def _card_or_none(code: str | None) -> int:
    return -1 if code is None else CARD_IDS[code]


def view(game: SheddingGame, seat: int | None) -> dict[str, Any]:
    """What ``seat`` may know (``None``: a spectator): never another seat's cards or the stock."""
    n = game.rules.players
    if seat is not None and (
        isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n
    ):
        raise ValueError(f"there is no seat {seat!r}")
    playing = game.phase == PLAYING
    places = {s: i + 1 for i, s in enumerate(game.finish_order)}
    outcome = game.outcome()
    return {
        "game": game.game,
        "ruleset": game.rules.ruleset.name,
        "deal": game.deal_number,
        "to_move": game.to_move,
        "direction": game.direction,
        "top_card": CARD_CODES[game.discard[-1]] if game.discard else None,
        "active_suit": SUITS[game.active_suit] if game.active_suit >= 0 else None,
        # The cards whose powers the pending pick-up and skip answer to decide what answers them.
        "pending": {
            "draw": game.pending_draw,
            "skip": game.pending_skip,
            "draw_card": _code_or_none(game.pending_card),
            "skip_card": _code_or_none(game.pending_skip_card),
        },
        "stock_count": len(game.stock),
        "discard_count": len(game.discard),
        # Public: every card in it was played face up (or turned as the starter) at this table.
        "discard_pile": codes(game.discard),
        "seats": [
            {
                "seat": s,
                "hand_count": len(game.hands[s]),
                "announced": game.announced[s],
                "finished": places.get(s),
                "score": game.scores[s],
                "skips_owed": game.skips_owed[s],
            }
            for s in range(n)
        ],
        "you": None
        if seat is None
        else {
            "seat": seat,
            "hand": codes(game.hands[seat]),
            # A card just drawn that may be played now (one_then_play, until_playable).
            "drawn": _code_or_none(game.drawn) if seat == game.current else None,
        },
        "legal_moves": game.legal_actions() if playing and seat == game.current else [],
        "turn": {
            "played": game.played,
            "last_card": _code_or_none(game.last),
            "must_cover": game.must_cover,
            "suit_mode": SUITS[game.suit_mode] if game.suit_mode >= 0 else None,
            "drew": game.turn_drew,
            "run": game.run_dir,  # a run's direction once it has one: 1 up, -1 down
            "again": game.again,  # "play again": the next card only has to match
            "skips": game.turn_skip,  # turns the next player will miss when this turn ends
            "last_card_barred": game.barred,  # unannounced: the last card may not go now
        },
        "finish_order": list(game.finish_order),
        "history": [history_entry(entry) for entry in game.public_log],  # public_log.py
        "last_deal": dict(game.history[-1]) if game.history else None,
        "result": None if outcome is None else outcome.to_json(),
    }


def rebuild(
    cls: type[Game],
    view: Mapping[str, Any],
    rules: Rules,
    hands: list[list[int]],
    stock: list[int],
    seed: bytes,
) -> Game:
    """A complete game agreeing with ``view``, the hidden cards filled in by the caller.

    For search over hidden information (ISMCTS): a bot samples the cards it cannot see and plays on
    from here. ``view`` is the view of the seat to move; ``hands`` holds one list of card ids per
    seat (that seat's own as in the view, the others of the viewed sizes) and ``stock`` the stock,
    top card last. Everything else is copied from the view: the discard pile, the pending pick-up
    or skip, the turn so far, the public history. The game holds this deal only — it is the last
    of the match, so a play-out ends with it — and reshuffles with a fresh ``DealRng(seed)``. What
    a view cannot say is reset: the blocked-deal counter, the points of a player already out in
    ``one_left``, past deals. Raises ValueError when the cards are not a partition of the deck that
    fits the view.
    """
    seat = view["to_move"]
    if seat is None or view["you"] is None or view["you"]["seat"] != seat:
        raise ValueError("a game can only be rebuilt from the view of the seat to move")
    n = rules.players
    seats = view["seats"]
    discard = [CARD_IDS[code] for code in view["discard_pile"]]
    if len(hands) != n or any(
        len(hand) != info["hand_count"] for hand, info in zip(hands, seats, strict=True)
    ):
        raise ValueError("the hands do not have the sizes the view shows")
    if sorted(hands[seat]) != sorted(CARD_IDS[code] for code in view["you"]["hand"]):
        raise ValueError("the seat to move must hold the hand its view shows")
    if len(stock) != view["stock_count"]:
        raise ValueError("the stock does not have the size the view shows")
    if Counter([c for hand in hands for c in hand]) + Counter(stock) + Counter(discard) != Counter(
        rules.deck
    ):
        raise ValueError("the hands, stock and discard pile are not the deck")
    game = cls(rules, deals=view["deal"])
    game.phase = PLAYING
    game.deal_number = view["deal"]
    game.hands = [list(hand) for hand in hands]
    game.stock = list(stock)
    game.discard = discard
    game.active_suit = SUIT_IDS[view["active_suit"]]
    game.direction = view["direction"]
    game.current = seat
    game.scores = [info["score"] for info in seats]
    game.skips_owed = [info["skips_owed"] for info in seats]
    game.announced = [info["announced"] for info in seats]
    game.out = [info["finished"] is not None for info in seats]
    game.active = n - sum(game.out)
    game.finish_order = list(view["finish_order"])
    game.public_log = [log_entry(item) for item in view["history"]]
    game.first_out_points = 0 if game.finish_order else None
    game.rng = DealRng(seed)
    pending = view["pending"]
    game.pending_draw = pending["draw"]
    game.pending_skip = pending["skip"]
    game.pending_card = _card_or_none(pending["draw_card"])
    game.pending_skip_card = _card_or_none(pending["skip_card"])
    turn = view["turn"]
    game.played = turn["played"]
    game.last = _card_or_none(turn["last_card"])
    game.must_cover = turn["must_cover"]
    game.suit_mode = -1 if turn["suit_mode"] is None else SUIT_IDS[turn["suit_mode"]]
    game.turn_drew = turn["drew"]
    game.run_dir = turn["run"]
    game.again = turn["again"]
    game.turn_skip = turn["skips"]
    game.barred = turn["last_card_barred"]
    game.drawn = _card_or_none(view["you"]["drawn"])
    return game
