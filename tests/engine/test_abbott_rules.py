"""Abbott's Switch rule by rule, from explicit grids (tests/engine/abbott_grids.py): the layout and
the deal, moving, alliances, a partner of 16 or more, and actions, views and options (docs/rules.md
§4; decisions in §7.7). The end of a hand and of the game: test_abbott_hand_end.py."""

from __future__ import annotations

import json
from typing import Any

import pytest

from switchgame.abbott.rulesets import RULESETS, create_game
from switchgame.cards import card_code, make_deck
from switchgame.protocol import IllegalMove, InvalidAction, InvalidLayout, InvalidOptions
from switchgame.shuffle import DealRng
from tests.engine.abbott_grids import FULL6, SEED, edit, hand_end, layout, move, moves, new_game

# ---------------------------------------------------------------------------- layout and the deal


def test_start_squares_and_first_mover() -> None:
    """§4 Layout: seat 0 (south) at (5,0), 1 (west) at (0,0), 2 (north) at (0,5), 3 (east) at (5,5);
    the first mover is seat 0 and the dealer the last seat of the first round."""
    game = new_game()
    view = game.view(None)
    assert view["pieces"] == [[5, 0], [0, 0], [0, 5], [5, 5]]
    assert (view["first_mover"], view["dealer"], view["to_move"]) == (0, 3, 0)
    two = new_game(players=2)
    assert two.view(None)["pieces"] == [[4, 0], [0, 4]]
    assert (two.dealer, two.to_move, len(two.view(None)["grid"])) == (1, 0, 5)


def test_seeded_deal_puts_the_first_36_shuffled_cards_row_by_row() -> None:
    game = create_game("abbott", 4)
    events = game.deal(SEED)
    deck = make_deck()
    DealRng(SEED).shuffle(deck)
    rows = [[card_code(c) for c in deck[r * 6 : r * 6 + 6]] for r in range(6)]
    assert game.view(None)["grid"] == rows
    assert events[0].type == "deal"
    assert events[0].data["hand"] == 1
    assert events[0].data["grid"] == rows
    assert events[0].data["from_layout"] is False
    other = create_game("abbott", 4)
    other.deal(b"another seed")
    assert other.view(None)["grid"] != rows
    two = create_game("abbott-2", 2)
    two.deal(SEED)
    assert [c for row in two.view(None)["grid"] for c in row] == [card_code(c) for c in deck[:25]]


@pytest.mark.parametrize(
    "bad",
    [
        {"grid": [[None] * 6] * 5},
        {"grid": [[None] * 5] * 6},
        {"grid": [["AS"] + [None] * 5, ["AS"] + [None] * 5] + [[None] * 6] * 4},  # AS twice
        {"grid": [["ZZ"] + [None] * 5] + [[None] * 6] * 5},
        {"grid": [["X1"] + [None] * 5] + [[None] * 6] * 5},
        {"grid": [[None] * 6] * 6, "stock": []},
        {"cards": []},
    ],
)
def test_invalid_layouts_are_refused_and_change_nothing(bad: dict[str, Any]) -> None:
    game = create_game("abbott", 4)
    before = game.to_dict()
    with pytest.raises(InvalidLayout):
        game.deal(SEED, bad)
    assert game.to_dict() == before


def test_the_cards_left_out_of_the_layout_are_in_no_view_or_event() -> None:
    game = create_game("abbott", 4)
    events = json.dumps([e.for_viewer(0) for e in game.deal(SEED)])
    views = json.dumps([game.view(seat) for seat in (None, 0, 1, 2, 3)])
    assert len(game.unused) == 16
    for code in map(card_code, game.unused):
        assert f'"{code}"' not in events
        assert f'"{code}"' not in views


def test_layout_accepts_aliases_and_leaves_the_rest_unused() -> None:
    game = create_game("abbott", 4)
    (event,) = game.deal(SEED, layout({(2, 2): "10s", (3, 3): "ah"}))
    # Not a shuffle, so a checker of the seed's deal (scripts/verify_deals.py) leaves it alone.
    assert event.data["from_layout"] is True
    assert game.view(None)["grid"][2][2] == "TS"
    assert game.view(None)["grid"][3][3] == "AH"
    assert len(game.unused) == 50


def test_deal_only_when_a_hand_is_due() -> None:
    game = new_game()
    with pytest.raises(IllegalMove):
        game.deal(SEED)


# -------------------------------------------------------------------------------------- moving


def test_rook_moves_stop_before_pieces() -> None:
    """§4 Move: along a row or column, any number of squares, never onto or over another piece."""
    game = new_game()
    assert moves(game) == {(5, c) for c in range(1, 5)} | {(r, 0) for r in range(1, 5)}
    with pytest.raises(IllegalMove, match="not along a row or a column"):
        move(game, 4, 1)
    with pytest.raises(IllegalMove, match="stands on"):
        move(game, 5, 5)


def test_no_jumping_over_a_piece_and_refusals_change_nothing() -> None:
    game = new_game()
    move(game, 2, 0)  # seat 0 up column 0
    before = game.to_dict()
    with pytest.raises(IllegalMove) as refused:
        move(game, 3, 0)  # seat 1 from (0,0) down over seat 0 at (2,0)
    assert refused.value.reason == "a piece stands between (0,0) and (3,0)"
    assert game.to_dict() == before
    assert (1, 0) in moves(game)
    assert (3, 0) not in moves(game)


def test_landing_on_a_card_takes_it_and_empty_squares_are_crossed() -> None:
    """§4 Move: onto or over empty squares allowed; landing on a card takes it face up."""
    game = new_game({(5, 3): "KH", (0, 3): "AH"})
    assert (5, 3) in moves(game)
    events = move(game, 5, 3)  # over the empty (5,1) and (5,2)
    assert events[0]["data"] == {"seat": 0, "piece": 0, "from": [5, 0], "to": [5, 3], "card": "KH"}
    assert game.view(None)["seats"][0]["cards"] == ["KH"]
    assert game.view(None)["grid"][5][3] is None
    events = move(game, 0, 1)  # seat 1 onto an empty square: no card
    assert events[0]["data"]["card"] is None
    assert game.view(None)["seats"][1]["cards"] == []


def test_a_move_is_at_least_one_square_so_the_first_move_leaves_the_start_card() -> None:
    """§4: you must move at least one square, so your first move cannot take your starting card;
    you may come back for it later."""
    game = new_game()
    with pytest.raises(IllegalMove, match="at least one square"):
        move(game, 5, 0)
    assert {"action": "move", "to": [5, 0]} not in game.legal_actions()
    move(game, 4, 0)  # seat 0 steps off (5,0) and takes 4H... the card of (4,0)
    move(game, 0, 1)
    move(game, 0, 4)
    move(game, 5, 4)
    events = move(game, 5, 0)  # seat 0 comes back for its starting card
    assert events[0]["data"]["card"] == card_code(30)
    assert game.captured[0] == [24, 30]


def test_blocked_dealer_takes_the_card_he_stands_on() -> None:
    """§4: a dealer completely blocked on his first turn takes the card he stands on."""
    game = new_game()
    move(game, 5, 4)  # seat 0 beside the dealer (seat 3, at (5,5))
    move(game, 1, 0)  # seat 1
    move(game, 4, 5)  # seat 2 above the dealer
    assert game.to_move == 3
    assert moves(game) == set()
    assert {"action": "pass"} in game.legal_actions()
    with pytest.raises(IllegalMove):
        move(game, 5, 3)
    (event,) = [e.to_dict() for e in game.apply({"action": "pass"})]
    assert event["type"] == "pass"
    assert event["data"] == {"seat": 3, "piece": 3, "card": card_code(35)}
    assert game.captured[3] == [35]
    assert game.view(None)["grid"][5][5] is None
    assert game.to_move == 0


def test_a_blocked_player_misses_the_turn_and_takes_nothing() -> None:
    """§4: a player who cannot move misses the turn (only the blocked dealer's first turn takes)."""
    game = edit(new_game(), pieces=[[0, 1], [0, 0], [1, 0], [5, 5]], turn=1, turns_taken=5)
    before = game.view(None)["grid"]
    assert game.legal_actions()[0] == {"action": "pass"}
    events = game.apply({"action": "pass"})
    assert events[0].data == {"seat": 1, "piece": 1, "card": None}
    assert game.view(None)["grid"] == before
    assert game.captured[1] == []
    assert game.to_move == 2


def test_a_blocked_non_dealer_keeps_standing_on_his_card_on_his_first_turn() -> None:
    game = edit(new_game(), pieces=[[0, 1], [0, 0], [1, 0], [5, 5]], turn=1, turns_taken=1)
    game.apply({"action": "pass"})
    assert game.captured[1] == []
    assert game.view(None)["grid"][0][0] == "AC"


def test_pass_only_when_blocked() -> None:
    game = new_game()
    with pytest.raises(IllegalMove, match="cannot move passes"):
        game.apply({"action": "pass"})
    assert {"action": "pass"} not in game.legal_actions()


def test_the_deal_rotates_and_the_new_dealer_has_the_exception() -> None:
    """§4: the deal rotates each hand: in hand 2 seat 1 moves first and seat 0 deals."""
    game = new_game({(3, 0): "AS"})
    events = move(game, 3, 0)  # seat 0 takes the only card
    assert hand_end(events)["reason"] == "grid_empty"
    assert game.needs_deal
    dealt = game.deal(SEED, layout(FULL6))
    assert dealt[0].data["first_mover"] == 1
    assert dealt[0].data["dealer"] == 0
    assert game.to_move == 1
    move(game, 4, 0)  # seat 1 down column 0, beside seat 0
    move(game, 1, 5)  # seat 2
    move(game, 5, 1)  # seat 3 along row 5, beside seat 0
    assert game.to_move == 0
    game.apply({"action": "pass"})
    assert game.captured[0] == [30]  # the card at (5,0)


# ----------------------------------------------------------------------------------- alliances


def test_alliance_once_per_hand_and_the_partner_cannot_refuse() -> None:
    """§4 Alliance: once per hand, on your turn before moving; the partner cannot refuse."""
    game = new_game()
    events = game.apply({"action": "ally", "partner": 2})
    assert events[0].data == {"chooser": 0, "chosen": 2, "controls": [0, 1, 2, 3]}
    assert game.view(None)["alliance"] == {"chooser": 0, "chosen": 2}
    assert game.to_move == 0  # the chooser still moves this turn
    assert game.turn_id == (1, 0)  # the same turn: the service's turn clock keeps running
    with pytest.raises(IllegalMove, match="already been formed"):
        game.apply({"action": "ally", "partner": 1})
    move(game, 4, 0)
    assert game.to_move == 1
    assert game.turn_id == (1, 1)
    assert not [a for a in game.legal_actions() if a["action"] == "ally"]  # nothing to accept
    with pytest.raises(IllegalMove, match="already been formed"):
        game.apply({"action": "ally", "partner": 3})


def test_alliance_partner_must_be_another_seat() -> None:
    game = new_game()
    assert [a["partner"] for a in game.legal_actions() if a["action"] == "ally"] == [1, 2, 3]
    with pytest.raises(IllegalMove, match="yourself"):
        game.apply({"action": "ally", "partner": 0})
    with pytest.raises(IllegalMove, match="no seat 4"):
        game.apply({"action": "ally", "partner": 4})


def test_no_alliances_with_two_players() -> None:
    game = new_game(players=2)
    assert not [a for a in game.legal_actions() if a["action"] == "ally"]
    with pytest.raises(IllegalMove, match="two-player"):
        game.apply({"action": "ally", "partner": 1})


def test_chosen_partner_winning_scores_three_and_seven() -> None:
    game = new_game({(0, 2): "AS"})
    game.apply({"action": "ally", "partner": 1})
    move(game, 4, 0)
    end = hand_end(move(game, 0, 2))  # seat 1 takes the only card
    assert (end["winner"], end["scores"], end["totals"]) == (1, [3, 7, 0, 0], [3, 7, 0, 0])
    assert end["alliance"] == {"chooser": 0, "chosen": 1}


# -------------------------------------------------------------------------------- 16 or more


def test_sixteen_or_more_moves_the_partners_piece() -> None:
    """§4 16 or more: Jones (17) chooses Brown and makes Brown's moves; Brown's legal moves are
    offered to Jones, and the card goes to Brown."""
    smith, jones, robinson, brown = range(4)
    game = new_game({(5, 3): "AS"}, totals=[14, 17, 15, 4])
    move(game, 4, 0)  # Smith
    game.apply({"action": "ally", "partner": brown})
    assert game.view(None)["controls"] == [smith, jones, robinson, jones]
    move(game, 0, 1)  # Jones moves his own piece
    move(game, 0, 4)  # Robinson
    assert (game.to_move, game.piece_to_move) == (jones, brown)
    assert game.view(jones)["legal_moves"]
    assert game.view(brown)["legal_moves"] == []
    events = move(game, 5, 3)  # Jones moves Brown's piece onto the ace
    assert events[0]["data"]["seat"] == jones
    assert events[0]["data"]["piece"] == brown
    assert game.captured[brown] == [3]  # AS
    end = hand_end(events)
    assert end["winner"] == brown
    assert end["totals"] == [14, 20, 15, 11]
    assert events[-1]["type"] == "match_end"
    assert game.is_over
    outcome = game.outcome()
    assert outcome is not None
    assert events[-1]["data"] == outcome.to_json() == game.view(None)["result"]
    assert (outcome.winner, outcome.totals) == (jones, (14, 20, 15, 11))
    ((hand,),) = [outcome.hands]
    assert (hand.winner, hand.points) == (brown, (0, 3, 0, 7))
    assert hand.teams == ((jones, brown), (smith,), (robinson,))


def test_a_chooser_who_names_a_sixteen_plus_partner_hands_him_the_move_at_once() -> None:
    game = new_game(totals=[0, 17, 0, 0])
    game.apply({"action": "ally", "partner": 1})
    assert game.view(None)["controls"] == [1, 1, 2, 3]
    assert (game.to_move, game.piece_to_move) == (1, 0)


def test_control_ends_with_the_hand() -> None:
    game = new_game({(3, 0): "AS"}, totals=[16, 0, 0, 0])
    game.apply({"action": "ally", "partner": 2})
    assert game.view(None)["controls"] == [0, 1, 0, 3]
    end = hand_end(move(game, 3, 0))  # the chooser wins: nobody scores
    assert (end["winner"], end["scores"]) == (0, [0, 0, 0, 0])
    assert game.needs_deal
    assert game.view(None)["controls"] == [0, 1, 2, 3]


def test_no_control_when_both_partners_have_sixteen() -> None:
    game = new_game(totals=[16, 17, 0, 0])
    game.apply({"action": "ally", "partner": 1})
    assert game.view(None)["controls"] == [0, 1, 2, 3]


# ---------------------------------------------------------------------- actions, views, options


@pytest.mark.parametrize(
    "action",
    [
        "move",
        {"action": "jump"},
        {"to": [1, 1]},
        {"action": "move"},
        {"action": "move", "to": [1]},
        {"action": "move", "to": [True, 0]},
        {"action": "move", "to": ["1", "0"]},
        {"action": "move", "to": [4, 0], "card": "AS"},
        {"action": "ally"},
        {"action": "ally", "partner": "2"},
        {"action": "pass", "now": True},
    ],
)
def test_malformed_actions(action: Any) -> None:
    game = new_game()
    before = game.to_dict()
    with pytest.raises(InvalidAction):
        game.apply(action)
    assert game.to_dict() == before


def test_off_grid_moves_and_fields_the_rules_do_not_know() -> None:
    """The rules know nothing of versions: ``expected_version`` is the service's (checked and
    taken off by the API before an action reaches the rules)."""
    game = new_game()
    with pytest.raises(IllegalMove, match="not on the 6×6 grid"):
        game.apply({"action": "move", "to": [6, 0]})
    with pytest.raises(InvalidAction, match="expected_version"):
        game.apply({"action": "move", "to": [4, 0], "expected_version": 3})
    game.apply({"action": "move", "to": [4, 0]})
    assert game.to_move == 1


def test_view_is_the_same_for_every_seat_but_the_legal_moves() -> None:
    game = new_game()
    move(game, 3, 0)
    views = [game.view(seat) for seat in (None, 0, 1, 2, 3)]
    assert views[2]["legal_moves"] == game.legal_actions()
    for view in views:
        json.dumps(view)
        assert {k: v for k, v in view.items() if k != "legal_moves"} == {
            k: v for k, v in views[0].items() if k != "legal_moves"
        }
        if view is not views[2]:
            assert view["legal_moves"] == []
    seat0 = views[0]["seats"][0]
    assert seat0 == {
        "seat": 0,
        "cards": [card_code(18)],
        "best_hand": {"category": "high_card", "cards": [card_code(18)]},
        "total": 0,
        "proposed_end": False,
    }
    assert views[0]["totals"] == [0, 0, 0, 0]
    assert views[0]["controls"] == [0, 1, 2, 3]
    assert (views[0]["to_move"], views[0]["piece_to_move"], views[0]["result"]) == (1, 1, None)


def test_default_action_improves_the_hand_most_and_passes_when_blocked() -> None:
    game = new_game({(5, 2): "AC", (2, 0): "KD", (5, 4): "7C", (3, 0): "QC"})
    assert game.default_action() == {"action": "move", "to": [5, 2]}  # the ace, highest card
    game = edit(game, captured=[["7H"], [], [], []])
    assert game.default_action() == {"action": "move", "to": [5, 4]}  # a pair of sevens
    flush = ["2S", "5S", "7S", "9S", "JS"]
    game = edit(game, captured=[flush, [], [], []])
    assert game.default_action() == {"action": "move", "to": [5, 2]}  # no gain: the highest card
    blocked = edit(new_game(), pieces=[[0, 1], [0, 0], [1, 0], [5, 5]], turn=1, turns_taken=5)
    assert blocked.default_action() == {"action": "pass"}


def test_create_game_validates() -> None:
    assert set(RULESETS) == {"abbott", "abbott-2"}
    assert RULESETS["abbott"].players == (4, 4)
    assert RULESETS["abbott-2"].options_json()["target"] == 40
    assert create_game("abbott", 4, target=30).target == 30
    assert create_game("abbott", 4, {"grid_size": 6}).size == 6
    with pytest.raises(InvalidOptions):
        create_game("abbott", 3)
    with pytest.raises(InvalidOptions):
        create_game("abbott-2", 4)
    with pytest.raises(InvalidOptions, match="unknown option"):
        create_game("abbott", 4, {"jokers": 2})
    with pytest.raises(InvalidOptions, match="fixed"):
        create_game("abbott", 4, {"grid_size": 7})
    with pytest.raises(InvalidOptions):
        create_game("abbott", 4, target=0)
    with pytest.raises(InvalidOptions):
        create_game("switch", 4)
