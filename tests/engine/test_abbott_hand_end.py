"""Abbott's Switch: the end of a hand (an empty grid, a lead that can no longer be beaten, no
reachable card, every acting seat agreeing) and of the game, from explicit grids
(tests/engine/abbott_grids.py; docs/rules.md §4, decisions in §7.7)."""

from __future__ import annotations

import pytest

from switchgame.abbott.game import AbbottGame
from switchgame.protocol import IllegalMove
from tests.engine.abbott_grids import (
    SEED,
    asked_to_agree,
    edit,
    hand_end,
    hand_end_or_none,
    layout,
    move,
    new_game,
)

# -------------------------------------------------------------------------------- end of hand


def test_hand_ends_when_the_grid_is_empty_and_a_tie_scores_nothing() -> None:
    """docs/rules.md §4 End of hand: no card left; Winner: a tie for best hand scores nothing."""
    game = new_game({(3, 0): "AS", (0, 2): "AH", (1, 5): "2C"})
    events = move(game, 3, 0)  # seat 0: ace high, but seat 1 could beat it with AH and 2C
    assert not [e for e in events if e["type"] == "hand_end"]
    events = move(game, 0, 2)  # seat 1: ace high too, and either of them could still add 2C
    assert not [e for e in events if e["type"] == "hand_end"]
    end = hand_end(move(game, 1, 5))  # seat 2 takes the last card
    assert (end["reason"], end["winner"], end["scores"]) == ("grid_empty", None, [0, 0, 0, 0])
    assert end["best_hands"][0] == {"category": "high_card", "cards": ["AS"]}
    assert end["best_hands"][3] == {"category": "nothing", "cards": []}
    assert game.needs_deal
    assert not game.is_over


def test_hand_ends_when_the_leader_can_no_longer_be_beaten() -> None:
    """docs/rules.md §4: nobody else's best possible hand (own cards + every card on the grid)
    beats the leader."""
    game = new_game({(3, 0): "AS", (0, 2): "2C", (2, 2): "3D"})
    end = hand_end(move(game, 3, 0))
    assert (end["reason"], end["winner"], end["scores"]) == ("unbeatable", 0, [10, 0, 0, 0])
    assert game.view(None)["grid"][0][2] == "2C"  # cards may be left on the grid


def test_a_rival_who_can_only_tie_does_not_keep_the_hand_going() -> None:
    """docs/rules.md §4 says "beats": seat 1 could at best tie seat 0's ace with AH, so the hand
    ends and seat 0 wins it."""
    game = new_game({(3, 0): "AS", (0, 2): "AH"})
    end = hand_end(move(game, 3, 0))
    assert (end["reason"], end["winner"], end["scores"]) == ("unbeatable", 0, [10, 0, 0, 0])
    assert game.view(None)["grid"][0][2] == "AH"


def test_tied_leaders_play_on_while_one_of_them_can_still_break_the_tie() -> None:
    """Seats 0 and 1 tie with A-K-Q-J-9 flushes. While TS is on the grid seat 0 could still make a
    straight flush and beat seat 1's hand, so the hand goes on; once seat 2 takes it, nobody can
    beat the tie (seat 3 could at most equal it with 9D), and it ends with a card left."""
    game = edit(
        new_game({(1, 5): "TS", (3, 3): "9D"}),
        captured=[
            ["AS", "KS", "QS", "JS", "9S"],
            ["AH", "KH", "QH", "JH", "9H"],
            ["3D", "5C"],
            ["AD", "KD", "QD", "JD"],
        ],
        pieces=[[4, 0], [1, 0], [0, 5], [5, 5]],
        turn=1,
        turns_taken=13,
    )
    assert not hand_end_or_none(move(game, 2, 0))  # seat 1 to an empty square
    end = hand_end(move(game, 1, 5))  # seat 2 takes TS
    assert (end["reason"], end["winner"], end["scores"]) == ("unbeatable", None, [0, 0, 0, 0])
    assert game.view(None)["grid"][3][3] == "9D"


def test_a_settled_tie_also_ends_the_hand() -> None:
    flush_s = ["AS", "KS", "QS", "JS", "9S"]
    flush_h = ["AH", "KH", "QH", "JH", "9H"]
    game = edit(
        new_game({(2, 2): "2C", (3, 3): "3D"}),
        captured=[flush_s, flush_h, [], []],
        pieces=[[4, 0], [1, 0], [0, 5], [5, 5]],
        turns_taken=12,
    )
    end = hand_end(move(game, 5, 0))
    assert (end["reason"], end["winner"]) == ("unbeatable", None)


def test_hand_ends_when_no_piece_can_reach_a_card() -> None:
    """§4: no piece can reach any remaining card — only possible when every card left lies under
    a completely blocked piece (docs/rules.md §4.8 explains why)."""
    game = edit(
        new_game({(0, 0): "KD", (3, 5): "2C"}),
        pieces=[[1, 0], [0, 0], [0, 1], [3, 4]],
        turn=3,
        turns_taken=7,
    )
    end = hand_end(move(game, 3, 5))  # seat 3 takes the last free card
    assert end["reason"] == "unreachable"
    assert end["winner"] == 3
    assert game.view(None)["grid"][0][0] == "KD"


def test_a_card_under_a_piece_that_can_move_is_still_reachable() -> None:
    game = edit(
        new_game({(0, 0): "KD", (3, 5): "2C"}),
        pieces=[[1, 0], [0, 0], [0, 2], [3, 4]],
        turn=3,
        turns_taken=7,
    )
    events = move(game, 3, 5)
    assert not [e for e in events if e["type"] == "hand_end"]


def test_hand_ends_when_every_acting_seat_agrees() -> None:
    """§4: or when all players agree to end (propose_end by every seat, across turns)."""
    game = new_game({(2, 2): "AS"})
    for seat, target in ((0, (4, 0)), (1, (1, 0)), (2, (1, 5))):
        game.apply({"action": "propose_end"})
        assert game.view(None)["seats"][seat]["proposed_end"]
        with pytest.raises(IllegalMove, match="already proposed"):
            game.apply({"action": "propose_end"})
        move(game, *target)
    events = [e.to_dict() for e in game.apply({"action": "propose_end"})]
    end = hand_end(events)
    assert (end["reason"], end["winner"]) == ("agreed", None)


def test_proposals_lapse_when_a_best_hand_changes_or_an_alliance_is_formed() -> None:
    game = new_game({(0, 2): "AS", (2, 2): "AH", (2, 3): "KD"})
    game.apply({"action": "propose_end"})
    move(game, 4, 0)
    move(game, 0, 2)  # seat 1 takes the ace: the standing has changed
    assert not any(s["proposed_end"] for s in game.view(None)["seats"])
    game.apply({"action": "propose_end"})  # seat 2
    game.apply({"action": "ally", "partner": 0})
    assert not any(s["proposed_end"] for s in game.view(None)["seats"])


def test_a_seat_whose_piece_its_partner_moves_is_asked_to_agree() -> None:
    """docs/rules.md §4: ending by agreement needs all players. Seat 0 never moves in this hand, so
    once every seat that acts has proposed, the engine asks seat 0, in a turn of its own."""
    game = asked_to_agree()
    turn = game.turn_id
    events = [e.to_dict() for e in game.apply({"action": "propose_end"})]  # seat 3
    assert [e["type"] for e in events] == ["propose_end", "consent_asked"]
    assert events[1]["seat"] == 0
    assert game.proposed == [False, True, True, True]  # nobody proposed for seat 0
    assert (game.to_move, game.piece_to_move) == (0, 3)
    assert game.turn_id != turn  # a new turn: the service restarts the clock and tells seat 0
    asked = [{"action": "propose_end"}, {"action": "decline_end"}]
    assert game.legal_actions() == asked
    assert game.view(0)["legal_moves"] == asked
    assert game.view(3)["legal_moves"] == []
    assert game.view(None)["consent_asked"] == 0
    assert AbbottGame.from_view(game.view(0)).legal_actions() == asked
    with pytest.raises(IllegalMove, match="asked to agree"):
        move(game, 4, 5)
    events = [e.to_dict() for e in game.apply({"action": "propose_end"})]  # seat 0 agrees
    assert [e["seat"] for e in events if e["type"] == "propose_end"] == [0]
    assert hand_end(events)["reason"] == "agreed"


def test_a_refusal_withdraws_every_proposal_and_the_turn_goes_on() -> None:
    game = asked_to_agree()
    game.apply({"action": "propose_end"})  # seat 3; seat 0 is asked
    assert game.default_action() == {"action": "decline_end"}  # a clock never agrees for anyone
    asked_turn = game.turn_id
    events = [e.to_dict() for e in game.apply({"action": "decline_end"})]
    assert events == [
        {
            "type": "decline_end",
            "seat": 0,
            "data": {"seat": 0, "proposed": [False] * 4},
            "private": None,
        }
    ]
    assert game.view(None)["consent_asked"] is None
    assert (game.to_move, game.piece_to_move) == (3, 3)  # seat 3's interrupted turn goes on
    assert game.turn_id != asked_turn
    assert {"action": "propose_end"} in game.legal_actions()
    with pytest.raises(IllegalMove, match="nobody has been asked"):
        game.apply({"action": "decline_end"})
    assert not hand_end_or_none(move(game, 4, 5))


def test_without_control_every_seat_proposes_on_its_own_turn() -> None:
    game = new_game({(2, 2): "AS"})
    game.apply({"action": "ally", "partner": 1})
    for target in ((4, 0), (1, 0), (1, 5)):
        game.apply({"action": "propose_end"})
        move(game, *target)
    events = [e.to_dict() for e in game.apply({"action": "propose_end"})]
    assert "consent_asked" not in [e["type"] for e in events]
    assert hand_end(events)["reason"] == "agreed"


# --------------------------------------------------------------------------------- the game


def test_partners_tied_at_twenty_play_on() -> None:
    """§4 Game: an equal highest total at 20 means more hands are played, until one player alone
    is highest (not necessarily one of those who tied)."""
    game = new_game({(0, 2): "AS"}, totals=[17, 13, 0, 12])
    game.apply({"action": "ally", "partner": 1})
    move(game, 4, 0)
    events = move(game, 0, 2)  # seat 0 (17) moves seat 1's piece onto the ace
    assert hand_end(events)["totals"] == [20, 20, 0, 12]
    assert not [e for e in events if e["type"] == "match_end"]
    assert game.needs_deal
    assert not game.is_over
    assert game.outcome() is None
    assert game.view(None)["result"] is None
    game.deal(SEED, layout({(3, 5): "AS"}))
    move(game, 0, 1)  # seat 1 moves first in hand 2
    move(game, 0, 4)
    events = move(game, 3, 5)  # seat 3 takes the only card: 10 points
    assert hand_end(events)["totals"] == [20, 20, 0, 22]
    assert events[-1]["type"] == "match_end"
    assert events[-1]["data"]["winner"] == 3
    assert events[-1]["data"]["totals"] == [20, 20, 0, 22]
    assert [h["number"] for h in events[-1]["data"]["hands"]] == [1, 2]
    assert game.is_over
    with pytest.raises(IllegalMove, match="over"):
        game.deal(SEED)


def test_two_player_game_to_forty() -> None:
    game = new_game({(1, 0): "AS"}, players=2, totals=[30, 0])
    events = move(game, 1, 0)
    assert hand_end(events)["scores"] == [10, 0]
    outcome = game.outcome()
    assert outcome is not None
    assert outcome.winner == 0
