"""What a seat sees of a game of Abbott's Switch — everything but the cards left out of the layout —
and a state rebuilt from such a view for search bots."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from switchgame.abbott.state import DEAL, EMPTY, OVER, PLAY
from switchgame.cards import card_code, make_deck, parse_card

if TYPE_CHECKING:
    from switchgame.abbott.game import AbbottGame


def view(game: AbbottGame, seat: int | None) -> dict[str, Any]:
    """Everything about the game, JSON-ready; only ``legal_moves`` depends on ``seat``.
    ``result`` is the outcome (``Outcome.to_json()``) once the game is won, else ``None``."""
    in_play = game.phase == PLAY
    outcome = game.outcome()
    return {
        "game": game.game,
        "ruleset": game.ruleset,
        "players": game.players,
        "size": game.size,
        "target": game.target,
        "control_threshold": game.control_threshold,
        "hand": game.hand,
        "first_mover": game.first_mover if game.hand else None,
        "dealer": game.dealer if game.hand else None,
        "grid": game.grid_rows(),
        "pieces": game.piece_squares(),
        "seats": [
            {
                "seat": s,
                "cards": [card_code(c) for c in game.captured[s]],
                "best_hand": game.best_hand_json(s),
                "total": game.totals[s],
                "proposed_end": game.proposed[s],
            }
            for s in range(game.players)
        ],
        "consent_asked": game.asked,
        "alliance": (
            {"chooser": game.alliance[0], "chosen": game.alliance[1]} if game.alliance else None
        ),
        "totals": list(game.totals),
        "controls": list(game._controls),
        "to_move": game.to_move,
        "piece_to_move": game.piece_to_move,
        "legal_moves": game.legal_actions() if in_play and seat == game.to_move else [],
        "result": outcome.to_json() if outcome else None,
    }


def restore(game: AbbottGame, view: Mapping[str, Any]) -> None:
    """Make ``game`` (new, with the view's players and target) play exactly like the state ``view``
    was taken from, for search bots.

    The game is perfect information except the unused cards, which no action can reach, so
    they are filled with every card not in sight. ``history`` is left empty: a view does not show
    past hands, so ``outcome()`` of the rebuilt state lists only the hands it goes on to play. ``turns_taken`` is not in the view, and it only matters
    for the blocked dealer's first turn: a card under the dealer's piece means that turn is
    still to come (moving off leaves the card behind, landing takes it, and the blocked dealer
    takes it), so the count is exact then, and any count past the first round is equivalent.
    """
    players = game.players
    game.hand = view["hand"]
    game.totals = list(view["totals"])
    result = view["result"]
    if result is not None:
        game.phase, game.winner = OVER, result["winner"]
    elif view["to_move"] is None:
        game.phase = DEAL
    else:
        game.phase = PLAY
    game.grid = [
        EMPTY if code is None else parse_card(code) for row in view["grid"] for code in row
    ]
    game.pieces = [r * game.size + c for r, c in view["pieces"]]
    game.captured = [[parse_card(code) for code in seat["cards"]] for seat in view["seats"]]
    in_sight = {c for c in game.grid if c != EMPTY}.union(*game.captured)
    game.unused = [c for c in make_deck() if c not in in_sight]
    game.first_mover = view["first_mover"] or 0
    game.turn = view["piece_to_move"] if view["piece_to_move"] is not None else game.first_mover
    into_round = (game.turn - game.first_mover) % players
    dealer_waits = game.grid[game.pieces[(game.first_mover - 1) % players]] != EMPTY
    game.turns_taken = into_round if dealer_waits else players + into_round
    game.turns_begun = game.turns_taken
    alliance = view["alliance"]
    game.alliance = (alliance["chooser"], alliance["chosen"]) if alliance else None
    game.proposed = [seat["proposed_end"] for seat in view["seats"]]
    game.asked = view["consent_asked"]
    game._rebuild()
