"""Scenario tests of the common skeleton (docs/rules.md §2), each from an explicit layout."""

from __future__ import annotations

import copy
import json
import pickle
from typing import Any, cast

import pytest

from switchgame.cards import CARD_CODES, codes
from switchgame.protocol import IllegalMove, InvalidLayout, InvalidOptions
from switchgame.shedding import create_game
from tests.engine.test_shedding_helpers import assert_conserved, hand_codes, layout_game, play

DRAW = {"action": "draw"}
END = {"action": "end_turn"}


def p(card: str, **extra: str) -> dict[str, str]:
    return {"action": "play", "card": card, **extra}


def test_matching_by_suit_or_rank_and_a_clear_refusal() -> None:
    """docs/rules.md §2 Matching: suit or rank of the top card; a refusal says why and changes nothing."""
    game = layout_game("switch", [["7H", "9D", "3S", "KC"], ["5D", "6D"]], "9S")
    legal = game.legal_actions()
    assert p("9D") in legal
    assert p("3S") in legal
    assert p("7H") not in legal
    assert p("KC") not in legal
    before = game.to_dict()
    with pytest.raises(IllegalMove, match="7H does not match 9S or the active suit S"):
        game.apply(p("7H"))
    with pytest.raises(IllegalMove, match="you do not hold 5D"):
        game.apply(p("5D"))
    assert game.to_dict() == before


def test_history_entries_are_shared_between_views_and_refuse_changes() -> None:
    """Every view renders the deal's whole public log from entries built once per process: a view
    that changed one would change every later view, so they refuse changes."""
    game = layout_game("switch", [["7H", "9D", "JS"], ["5D", "6D"]], "9S")
    first, second = game.view(0)["history"], game.view(1)["history"]
    assert first == [{"type": "starter", "card": "9S"}]
    assert first[0] is second[0]
    with pytest.raises(TypeError, match="shared"):
        first[0]["card"] = "2C"
    assert json.loads(json.dumps(first)) == [{"type": "starter", "card": "9S"}]


def test_legal_actions_are_shared_read_only_and_copy_into_plain_dicts() -> None:
    """Every legal_actions() hands out the same action objects: read-only Mappings to the type
    checker, and at run time (where a view's Any-typed history entries, the same class, get no
    type's help) they refuse changes; apply takes them, or a copy of one, alike."""
    game = layout_game("switch", [["7H", "9D", "JS"], ["5D", "6D"]], "9S")
    legal = game.legal_actions()
    assert [a is b for a, b in zip(legal, game.legal_actions(), strict=True)] == [True] * len(legal)
    action = cast(dict[str, Any], legal[0])  # what an untyped caller could try
    with pytest.raises(TypeError, match="shared"):
        action["announce"] = "last_card"
    with pytest.raises(TypeError, match="shared"):
        action.pop("card")
    assert action == p("9D")
    copied = dict(action)
    copied["announce"] = "last_card"
    assert type(copied) is dict
    assert copy.deepcopy(action) == action
    assert pickle.loads(pickle.dumps(action)) == action
    assert json.loads(json.dumps(legal)) == legal
    twin = game.copy()
    assert [e.to_dict() for e in game.apply(action)] == [
        e.to_dict() for e in twin.apply(dict(action))
    ]
    assert game.to_dict() == twin.to_dict()


def test_seeded_deal_gives_hands_one_at_a_time_and_a_non_power_starter() -> None:
    """docs/rules.md §2 Deal and Starter (switch: the starter may not be a power card)."""
    for seed in range(30):
        game = create_game("switch", 4)
        events = game.deal(seed.to_bytes(2, "big"))
        assert [len(h) for h in game.hands] == [7, 7, 7, 7]
        assert game.rules.power[game.discard[0]] is None
        assert events[0].type == "deal"
        assert game.to_move == 0
        assert_conserved(game)


def test_forbidden_starter_goes_under_the_stock() -> None:
    """docs/rules.md §2 Starter: a power starter goes to the bottom of the stock, the next is turned."""
    game = create_game("switch", 2)
    game.deal(b"s", {"hands": [["3C"], ["4C"]], "stock": ["2C", "8D", "5H", "6H"]})
    view = game.view(None)
    assert view["top_card"] == "5H"
    assert view["active_suit"] == "H"
    stock = codes(game.stock)  # bottom first
    assert stock[:2] == ["8D", "2C"]  # turned, refused, and put under the stock in that order
    assert stock[-1] == "6H"  # the new top


def test_starter_power_allowed_has_no_effect() -> None:
    """docs/rules.md §2 Starter / §3 jack-change-it: a power starter sets the suit and nothing else."""
    game = layout_game("jack-change-it", [["3C", "9D", "KH"], ["4C", "5C"]], "2D")
    view = game.view(0)
    assert view["pending"] == {"draw": 0, "skip": 0, "draw_card": None, "skip_card": None}
    assert view["active_suit"] == "D"
    assert view["legal_moves"] == [p("9D")]


def test_draw_one_ends_the_turn() -> None:
    """docs/rules.md §2 Drawing, draw_rule one."""
    game = layout_game("switch", [["3C", "4C"], ["5D", "6D"]], "9S", ["7S"])
    events = game.apply(DRAW)
    draw = next(e for e in events if e.type == "draw")
    assert draw.data == {"count": 1, "reason": "draw"}
    assert draw.private == {"cards": ["7S"]}
    assert game.to_move == 1
    assert hand_codes(game, 0) == ["3C", "4C", "7S"]


def test_voluntary_draw_only_where_allowed() -> None:
    """docs/rules.md §2 Drawing: may_draw_voluntarily (switch yes, black-jack no)."""
    game = layout_game("switch", [["3S", "4C"], ["5D", "6D"]], "9S")
    assert DRAW in game.legal_actions()
    game = layout_game("black-jack", [["3S", "4C"], ["5D", "6D"]], "9S")
    assert DRAW not in game.legal_actions()
    with pytest.raises(IllegalMove, match="does not let you draw"):
        game.apply(DRAW)


def test_one_then_play_may_play_the_drawn_card() -> None:
    """docs/rules.md §2 draw_rule one_then_play (J28): a playable drawn card may be played at once."""
    game = layout_game("jacks-twos-eights", [["3C", "4C"], ["5D", "6D"]], "9S", ["7S", "KD"])
    game.apply(DRAW)
    assert game.to_move == 0
    assert game.legal_actions() == [p("7S"), END]
    with pytest.raises(IllegalMove, match="only play the card you drew"):
        game.apply(p("3C"))
    game.apply(p("7S"))
    assert game.to_move == 1
    # A drawn card that does not play ends the turn by itself.
    game.apply(DRAW)
    assert game.to_move == 0
    assert hand_codes(game, 1) == ["5D", "6D", "KD"]


def test_until_playable_draws_until_a_card_plays() -> None:
    """docs/rules.md §2 draw_rule until_playable (french)."""
    game = layout_game("french", [["3C", "5C"], ["5D", "6D"]], "9S", ["7D", "KH", "QS", "8C"])
    events = game.apply(DRAW)
    draw = next(e for e in events if e.type == "draw")
    assert draw.private == {"cards": ["7D", "KH", "QS"]}
    assert draw.data["count"] == 3
    assert game.legal_actions() == [p("QS"), END]
    game.apply(END)
    assert game.to_move == 1


def test_draw_two() -> None:
    """docs/rules.md §2 draw_rule two (take-two)."""
    game = layout_game("take-two", [["3C", "5C"], ["5D", "6D"]], "9S", ["7D", "KH"])
    game.apply(DRAW)
    assert hand_codes(game, 0) == ["3C", "5C", "7D", "KH"]
    assert game.to_move == 1


def test_stock_exhausted_reshuffles_the_discard_pile_but_its_top() -> None:
    """docs/rules.md §2 Stock exhausted: the discard pile except the top card becomes the stock; with
    nothing left at all the draw takes what exists (nothing) and never crashes."""
    named = {"9C", "3D", "9S"}
    rest = [c for c in CARD_CODES[:52] if c not in named]
    game = layout_game("switch", [["9C", "3D"], rest], "9S", options={"last_card_penalty": "none"})
    assert game.stock == []
    game.apply(p("9C"))
    events = game.apply(DRAW)  # seat 1: the stock is empty, 9S lies under 9C
    assert [e.type for e in events][:2] == ["reshuffle", "draw"]
    assert events[1].private == {"cards": ["9S"]}
    view = game.view(None)
    assert (view["top_card"], view["discard_count"], view["stock_count"]) == ("9C", 1, 0)
    assert game.legal_actions() == [DRAW]  # seat 0 holds 3D on 9C
    events = game.apply(DRAW)
    assert [e.data["count"] for e in events if e.type == "draw"] == [0]
    assert game.to_move == 1
    assert_conserved(game)


def test_blocked_deal_is_won_by_the_lowest_tally() -> None:
    """docs/rules.md §2 Blocked deal: nobody can play or draw; lowest tally, fewest cards, turn order."""
    options = {
        "must_not_be_lower": True,
        "finish_on_power": False,
        "powers": {"A": {"draw": 4}, "J": None, "K": {"reverse": True}},
    }
    named = {"AH", "KC", "KD", "KS", "KH"}
    game = create_game("switch", 5, options)
    rest = [c for c in CARD_CODES[:52] if c not in named]
    game.deal(b"b", {"hands": [["AH"], ["KC"], ["KD"], ["KS"], rest], "starter": "KH"})
    events = []
    for _ in range(5):
        assert game.legal_actions() == [DRAW]
        events += game.apply(DRAW)
    end = next(e for e in events if e.type == "deal_end")
    assert end.data["blocked"] is True
    assert end.data["winner"] == 1
    assert end.data["placings"][:4] == [1, 2, 3, 0]
    tally_rest = end.data["tallies"][4]
    assert end.data["points"][1] == 20 + 10 + 10 + tally_rest
    assert game.is_over


def test_pending_pick_up_stacks_and_taking_it_ends_the_turn() -> None:
    """docs/rules.md §2 Pending penalty and §3 switch 2s: answered with a 2 (+2), else picked up."""
    game = layout_game(
        "switch",
        [["2C", "3C", "4C"], ["2D", "9D", "5D"], ["6H", "7H", "8S"]],
        "5C",
        ["TS", "JH", "QS", "KS", "AS"],
    )
    game.apply(p("2C"))
    assert game.view(None)["pending"]["draw"] == 2
    assert game.legal_actions() == [p("2D"), DRAW]
    game.apply(p("2D"))
    assert game.to_move == 2
    assert game.view(None)["pending"]["draw"] == 4
    assert game.legal_actions() == [DRAW]
    with pytest.raises(IllegalMove, match="pick-up of 4"):
        game.apply(END)
    game.apply(DRAW)
    assert len(game.hands[2]) == 7
    assert game.to_move == 0
    assert game.view(None)["pending"]["draw"] == 0


def test_skip_makes_the_next_player_miss_a_turn() -> None:
    """docs/rules.md §2 Skip / §3 switch 8."""
    game = layout_game("switch", [["8C", "3C"], ["4C", "5C"], ["6C", "7C"]], "9C")
    events = game.apply(p("8C"))
    assert [e.seat for e in events if e.type == "skip"] == [1]
    assert game.to_move == 2


def test_a_skip_in_a_two_player_game_begins_a_new_turn_for_the_same_seat() -> None:
    """docs/rules.md §2 Skip with two players: the player moves again, and ``turn_id`` says a new turn
    began (the service restarts turn clocks on it, not on the seat to move)."""
    game = layout_game("switch", [["8C", "3C", "4H"], ["4C", "5C"]], "9C")
    first_turn = game.turn_id
    game.apply(p("8C"))
    assert game.to_move == 0
    assert game.turn_id != first_turn


def test_turn_id_holds_within_a_turn_and_moves_on_with_each_turn() -> None:
    """docs/rules.md §2 draw_rule one_then_play: drawing and then playing the drawn card is one turn."""
    game = layout_game("jacks-twos-eights", [["3C", "4C"], ["5D", "6D"]], "9S", ["7S", "KD"])
    first_turn = game.turn_id
    game.apply(DRAW)
    assert game.turn_id == first_turn  # still deciding whether to play the drawn 7S
    game.apply(END)
    second_turn = game.turn_id
    assert second_turn != first_turn
    assert game.to_move == 1
    game.apply(DRAW)
    assert game.turn_id not in (first_turn, second_turn)
    assert game.to_dict()["turns"] == 3
    assert type(game).from_dict(game.to_dict()).turn_id == game.turn_id


def test_reverse_and_two_player_reverse() -> None:
    """docs/rules.md §2 Reverse: direction flips; with two players it acts as a skip unless set otherwise."""
    game = layout_game("take-two", [["JC", "3C"], ["4C", "5C"], ["6C", "7C"]], "9C")
    game.apply(p("JC"))
    assert game.direction == -1
    assert game.to_move == 2
    game = layout_game("take-two", [["JC", "3C", "3D"], ["4C", "5C"]], "9C")
    game.apply(p("JC"))
    assert game.to_move == 0
    game = layout_game(
        "take-two",
        [["JC", "3C", "3D"], ["4C", "5C"]],
        "9C",
        options={"two_player_reverse": "reverse"},
    )
    game.apply(p("JC"))
    assert game.to_move == 1
    assert game.direction == -1


def test_last_card_announcement_and_draw_penalty() -> None:
    """docs/rules.md §2 Last card: penalty draw_N at the end of the turn; an untrue announcement is refused."""
    game = layout_game(
        "switch", [["3C", "4C", "5C"], ["6C", "6D", "6H"]], "9C", ["KS", "QS", "JS", "TS"]
    )
    with pytest.raises(IllegalMove, match="only when the play leaves you one card"):
        game.apply(p("3C", announce="last_card"))
    events = game.apply(p("3C"))
    assert not any(e.type == "penalty" for e in events)
    events = play(game, p("6C"), p("4C"))  # seat 0 keeps one card without announcing
    penalty = next(e for e in events if e.type == "penalty")
    assert penalty.data == {"kind": "last_card", "draw": 2}
    assert len(game.hands[0]) == 3
    game = layout_game("switch", [["3C", "4C"], ["4D", "6D"]], "9C", ["KS", "QS"])
    events = game.apply(p("3C", announce="last_card"))
    assert [e.type for e in events][:2] == ["play", "announce"]
    assert game.view(None)["seats"][0]["announced"] is True
    assert len(game.hands[0]) == 1


def test_no_finish_penalty_bars_the_last_card() -> None:
    """docs/rules.md §2 Last card no_finish (jack-change-it): the last card may not be played next turn."""
    game = layout_game("jack-change-it", [["3C", "4C"], ["5C", "6C", "9D"]], "9C", ["KS", "QH"])
    game.apply(p("3C"))  # no announcement
    game.apply(p("5C"))
    assert game.legal_actions() == [DRAW]
    with pytest.raises(IllegalMove, match="did not announce"):
        game.apply(p("4C"))
    game.apply(DRAW)
    assert hand_codes(game, 0) == ["4C", "KS"]


def test_no_finish_draw_n_and_going_out_after_announcing() -> None:
    """docs/rules.md §3 black-jack: going out without having announced draws 2 instead."""
    game = layout_game("black-jack", [["3C", "5D"], ["5C", "6C", "9D"]], "9C", ["KS", "QH", "2H"])
    game.apply(p("3C"))  # leaves 5D, not announced; nothing continues the run: the turn ends
    assert game.to_move == 1
    play(game, p("5C"), END)  # 6C could continue the run; seat 1 stops
    assert game.legal_actions() == [DRAW]  # 5D would match 5C, but it is barred
    game.apply(DRAW)
    assert len(game.hands[0]) == 3
    game = layout_game("black-jack", [["3C", "5C"], ["6C", "6H", "9D"]], "9C")
    play(game, p("3C", announce="last_card"), p("6C"), p("5C"))
    assert game.finish_order == [0]
    assert game.is_over


def test_skip_and_draw_penalty_misses_the_next_turn() -> None:
    """docs/rules.md §2 Last card skip_and_draw_1 (french)."""
    game = layout_game("french", [["3C", "5C"], ["6C", "7C", "8C"]], "9C", ["KS", "QH", "TD"])
    events = game.apply(p("3C"))
    assert any(e.type == "penalty" and e.data.get("skip") == 1 for e in events)
    assert len(game.hands[0]) == 2
    events = game.apply(p("6C"))
    assert [e.seat for e in events if e.type == "skip"] == [0]
    assert game.to_move == 1


def test_finish_on_power_false_makes_the_player_draw() -> None:
    """docs/rules.md §2 Finishing / §3 take-two: no finishing on a power card; such a player draws 2."""
    game = layout_game("take-two", [["8C"], ["6C", "7C", "9D"]], "9C", ["KS", "QH"])
    assert game.legal_actions() == [DRAW]
    with pytest.raises(IllegalMove, match="may not finish on a power card"):
        game.apply(p("8C"))
    game.apply(DRAW)
    assert len(game.hands[0]) == 3


def test_play_until_one_left_gives_a_finishing_order() -> None:
    """docs/rules.md §2 Finishing (play_until one_left) and §5 Placement."""
    game = layout_game(
        "take-two",
        [["3C", "4C"], ["5C", "6C", "TD"], ["9C", "TC", "KD"]],
        "7C",
        ["QS", "QH", "QD", "3S"],
        options={"last_card_penalty": "none"},
    )
    play(game, p("3C"), p("5C"), p("9C"), p("4C"))
    assert game.finish_order == [0]
    assert not game.is_over
    assert game.to_move == 1
    play(game, p("6C"), p("TC"), p("TD"))
    outcome = game.outcome()
    assert outcome is not None
    (deal,) = outcome.hands
    assert deal.placings[:2] == (0, 1)
    assert deal.winner == 0
    assert deal.points[0] == (6 + 10) + (10 + 10)  # §5: the hands when seat 0 went out


def test_blunder_penalty_draws_instead_of_refusing() -> None:
    """docs/rules.md §2 Illegal moves: blunder_penalty N takes the move back and the player draws N."""
    game = layout_game(
        "switch", [["3C", "4C"], ["5D", "6D"]], "9C", ["KS", "QS"], options={"blunder_penalty": 2}
    )
    events = game.apply(p("5D"))
    assert events[0].type == "penalty"
    assert events[0].data["kind"] == "blunder"
    assert len(game.hands[0]) == 4
    assert game.to_move == 0
    with pytest.raises(IllegalMove):
        game.apply(END)  # only plays are blunders


def test_multi_deal_match_rotates_the_first_seat_and_adds_scores() -> None:
    """docs/rules.md §2 Deal (first seat rotates) and §5 (a match is a number of deals)."""
    game = create_game("switch", 3, deals=2)
    game.deal(b"d", {"hands": [["3C"], ["4D", "QD"], ["5H", "KH"]], "starter": "9C"})
    events = game.apply(p("3C"))
    end = next(e for e in events if e.type == "deal_end")
    assert end.data["points"][0] == 15 + 10 + 5 + 10  # §5: 4D 15, QD 10, 5H 5, KH 10
    assert game.needs_deal
    assert game.to_move is None
    assert not game.is_over
    game.deal(b"second")
    assert game.to_move == 1
    assert game.view(None)["deal"] == 2
    assert game.scores[0] == 40


def test_play_to_a_target() -> None:
    """docs/rules.md §5: play to a target total."""
    game = create_game("switch", 2, target=10)
    game.deal(b"d", {"hands": [["3C"], ["4D", "QD"]], "starter": "9C"})
    game.apply(p("3C"))
    assert game.is_over
    outcome = game.outcome()
    assert outcome is not None
    assert outcome.winner == 0


@pytest.mark.parametrize(
    ("layout", "message"),
    [
        ({"hands": [["3C"]]}, "2 hands"),
        ({"hands": [["3C"], ["3C"]]}, "3C is named 2 times"),
        ({"hands": [["3C"], ["ZZ"]]}, "ZZ"),
        ({"hands": [["3C"], []]}, "empty"),
        ({"hands": [["3C"], ["4C"]], "starter": "X1"}, "joker"),
        ({"hands": [["3C"], ["4C"]], "pile": []}, "pile"),
        ("hands", "object"),
    ],
)
def test_invalid_layouts(layout: object, message: str) -> None:
    game = create_game("switch", 2)
    with pytest.raises(InvalidLayout, match=message):
        game.deal(b"x", layout)  # type: ignore[arg-type]
    assert game.needs_deal


def test_layout_stock_is_on_top_and_the_rest_shuffled_under_it() -> None:
    game = create_game("switch", 2)
    game.deal(b"x", {"hands": [["3C"], ["4C"]], "starter": "9C", "stock": ["KS", "QS"]})
    assert codes(game.stock)[-2:] == ["QS", "KS"]  # KS on top
    assert len(game.stock) == 52 - 3
    assert_conserved(game)


def test_players_outside_the_range_are_invalid_options() -> None:
    with pytest.raises(InvalidOptions, match="players"):
        create_game("french", 8)


def test_default_action_takes_the_pick_up_draws_or_ends_the_turn() -> None:
    """The turn clock's action (the API guide): take the pending penalty, draw, end the turn."""
    game = layout_game("switch", [["2C", "3C", "4C"], ["2D", "9D", "5D"]], "5C", ["TS", "QS"])
    assert game.default_action() == DRAW  # voluntary draw is allowed in switch
    game.apply(p("2C"))
    assert game.default_action() == DRAW  # takes the pick-up rather than answering
    game = layout_game("black-jack", [["4H", "5H", "KD"], ["5C", "6C"]], "4D", ["TS"])
    assert game.default_action() == p("4H")  # no voluntary draw: the first legal play
    game.apply(p("4H"))
    assert game.default_action() == END
    game = layout_game("black-jack", [["8C", "3D"], ["8D", "5C"], ["6H", "7H"]], "9C", ["TS"])
    game.apply(p("8C"))
    assert game.default_action() == END  # accepts the skip


def test_spectator_view_shows_counts_only() -> None:
    """The API guide, "The view": spectators get no hand and no legal moves; nobody sees the stock order."""
    game = layout_game("switch", [["3C", "4C"], ["5D", "6D", "7D"]], "9C", ["TS", "QS"])
    view = game.view(None)
    assert view["you"] is None
    assert view["legal_moves"] == []
    assert [s["hand_count"] for s in view["seats"]] == [2, 3]
    assert view["stock_count"] == 52 - 6
    assert game.view(1)["legal_moves"] == []
    assert game.view(0)["legal_moves"] == game.legal_actions()
    with pytest.raises(ValueError, match="no seat"):
        game.view(2)
