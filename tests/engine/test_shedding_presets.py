"""Scenario tests of every power card of the seven presets (docs/rules.md §3), from explicit layouts."""

from __future__ import annotations

import pytest

from switchgame.protocol import IllegalMove
from switchgame.shedding import SheddingGame, create_game
from switchgame.shedding.rulesets import RULESETS
from tests.engine.test_shedding_helpers import hand_codes, layout_game, play

DRAW = {"action": "draw"}
END = {"action": "end_turn"}
STOCK = ["3S", "4S", "5S", "6S", "9S", "TS", "QS", "KS", "3D", "4D", "5D", "6D", "7D", "8D", "QD"]


def p(card: str, **extra: str) -> dict[str, str]:
    return {"action": "play", "card": card, **extra}


def pending(game: object) -> dict[str, int]:
    """The pending pick-up and skip (without the cards they answer to)."""
    seen = game.view(None)["pending"]  # type: ignore[attr-defined]
    return {"draw": seen["draw"], "skip": seen["skip"]}


# ------------------------------------------------------------------ switch


def test_switch_ace_goes_on_anything_picks_up_four_and_cannot_be_answered() -> None:
    """docs/rules.md §3 switch: Ace on any card, next picks up 4; not answerable, not on a pick-up."""
    game = layout_game("switch", [["AH", "3C", "4C"], ["2D", "AS", "5C"]], "9S", STOCK)
    assert p("AH") in game.legal_actions()
    game.apply(p("AH"))
    assert pending(game)["draw"] == 4
    assert game.legal_actions() == [DRAW]
    game.apply(DRAW)
    assert len(game.hands[1]) == 7
    game = layout_game("switch", [["2C", "3C", "4C"], ["AS", "5C", "6C"]], "9C", STOCK)
    game.apply(p("2C"))
    assert game.legal_actions() == [DRAW]  # the ace cannot be played on a pending pick-up


def test_switch_jack_names_any_suit_on_any_card_but_not_on_a_pick_up() -> None:
    """docs/rules.md §3 switch: Jack on any card, names the suit; not on a pending pick-up."""
    game = layout_game("switch", [["JD", "3C", "4C"], ["2S", "JC", "5C"]], "9S", STOCK)
    legal = game.legal_actions()
    assert [a for a in legal if a.get("card") == "JD"] == [p("JD", suit=s) for s in "CDHS"]
    with pytest.raises(IllegalMove, match="names a suit"):
        game.apply(p("JD"))
    events = game.apply(p("JD", suit="C"))
    assert [e.type for e in events][:2] == ["play", "suit"]
    assert game.view(None)["active_suit"] == "C"
    game = layout_game("switch", [["2C", "3C", "4C"], ["JS", "5C", "6C"]], "9C", STOCK)
    game.apply(p("2C"))
    assert game.legal_actions() == [DRAW]


def test_switch_one_two_per_turn() -> None:
    """docs/rules.md §3 switch: one 2 per turn (multi_card none)."""
    game = layout_game("switch", [["2C", "2D", "4C"], ["6C", "7C", "5C"]], "9C", STOCK)
    game.apply(p("2C"))
    assert game.to_move == 1


def test_switch_must_not_be_lower_option() -> None:
    """docs/rules.md §3 switch: must_not_be_lower (off by default) forbids a lower card."""
    game = layout_game(
        "switch",
        [["5S", "TS", "4C"], ["6C", "7C"]],
        "9S",
        STOCK,
        options={"must_not_be_lower": True},
    )
    with pytest.raises(IllegalMove, match="5S is lower than 9S"):
        game.apply(p("5S"))
    assert p("TS") in game.legal_actions()


# ------------------------------------------------------------------ jack-change-it


def test_jack_change_it_eight_skips_whatever_the_next_player_holds() -> None:
    """docs/rules.md §3 jack-change-it: 8 makes the next player miss a turn, even holding an 8."""
    game = layout_game("jack-change-it", [["8C", "3C"], ["8D", "4D"], ["5C", "6C"]], "9C", STOCK)
    events = game.apply(p("8C"))
    assert [e.seat for e in events if e.type == "skip"] == [1]
    assert game.to_move == 2


def test_jack_change_it_ace_of_hearts_picks_up_five_unanswerable() -> None:
    """docs/rules.md §3 jack-change-it: only the ace of hearts has a power: +5, no answer."""
    game = layout_game("jack-change-it", [["AH", "AC", "3C"], ["2H", "AS", "4D"]], "9H", STOCK)
    game.apply(p("AH"))
    assert pending(game)["draw"] == 5
    assert game.legal_actions() == [DRAW]
    game = layout_game("jack-change-it", [["AC", "AD", "3C"], ["2H", "AS", "4D"]], "9C", STOCK)
    game.apply(p("AC"))
    assert pending(game)["draw"] == 0


def test_jack_change_it_twos_stack_and_max_draw_caps_the_pick_up() -> None:
    """docs/rules.md §3 jack-change-it: 2s stack; max_draw caps what one player picks up."""
    game = layout_game(
        "jack-change-it",
        [["2C", "3C", "4C"], ["2D", "4D", "5D"], ["6H", "7H", "8H"]],
        "9C",
        STOCK,
        options={"max_draw": 3},
    )
    play(game, p("2C"), p("2D"))
    assert pending(game)["draw"] == 4
    game.apply(DRAW)
    assert len(game.hands[2]) == 6


def test_jack_change_it_queen_reverse_is_an_option() -> None:
    """docs/rules.md §3 jack-change-it: queen reverse is optional, off by default."""
    hands = [["QC", "3C"], ["4D", "5D"], ["6C", "7C"]]
    game = layout_game("jack-change-it", hands, "9C", STOCK)
    game.apply(p("QC"))
    assert game.to_move == 1
    game = layout_game(
        "jack-change-it", hands, "9C", STOCK, options={"powers": {"Q": {"reverse": True}}}
    )
    game.apply(p("QC"))
    assert game.to_move == 2
    assert game.direction == -1


# ------------------------------------------------------------------ french


def test_french_ace_is_wild_but_not_on_a_pick_up() -> None:
    """docs/rules.md §3 french: the ace stands for any card and names the suit; not on a pick-up."""
    game = layout_game("french", [["AD", "3C", "4C"], ["2C", "AS", "5C"]], "9S", STOCK)
    assert p("AD", suit="H") in game.legal_actions()
    game.apply(p("AD", suit="H"))
    assert game.view(None)["active_suit"] == "H"
    game = layout_game("french", [["2C", "3C", "4C"], ["AS", "5C", "6C"]], "9C", STOCK)
    game.apply(p("2C"))
    assert game.legal_actions() == [DRAW]


def test_french_twos_escalate_by_one_and_fours_by_four_capped_at_eight() -> None:
    """docs/rules.md §3 french: 2s pick up 2, 3, 4…; 4s 4, 8, 12 but never more than 8 at once."""
    game = layout_game(
        "french",
        [["2C", "3C", "5C"], ["2D", "4D", "5D"], ["2H", "7H", "8H"]],
        "9C",
        STOCK,
    )
    play(game, p("2C"), p("2D"))
    assert pending(game)["draw"] == 3
    game.apply(p("2H"))
    assert pending(game)["draw"] == 4
    game = layout_game(
        "french",
        [["4C", "3C", "5C"], ["4D", "2D", "5D"], ["4H", "7H", "8H"]],
        "9C",
        STOCK,
    )
    game.apply(p("4C"))
    assert p("2D") not in game.legal_actions()  # 2s and 4s do not mix
    play(game, p("4D"), p("4H"))
    assert pending(game)["draw"] == 12
    game.apply(DRAW)
    assert len(game.hands[0]) == 2 + 8


def test_french_jack_reverses() -> None:
    """docs/rules.md §3 french: the jack reverses the direction."""
    game = layout_game("french", [["JC", "3C"], ["4D", "5D"], ["6C", "7C"]], "9C", STOCK)
    game.apply(p("JC"))
    assert game.direction == -1
    assert game.to_move == 2


@pytest.mark.parametrize(
    ("players", "hand", "decks"), [(2, 12, 1), (3, 12, 1), (4, 10, 1), (6, 10, 2)]
)
def test_french_hand_sizes_and_decks(players: int, hand: int, decks: int) -> None:
    """docs/rules.md §3 french: 12 cards for 2–3 players, 10 for 4–5; two decks for 6–7."""
    game = create_game("french", players)
    game.deal(b"f")
    assert {len(h) for h in game.hands} == {hand}
    assert game.rules.decks == decks


# ------------------------------------------------------------------ black-jack


def test_black_jack_runs_go_one_way_in_one_suit() -> None:
    """docs/rules.md §3 black-jack: multi_card runs — next or previous rank, same suit, one direction."""
    game = layout_game("black-jack", [["4H", "5H", "6H", "3H", "KD"], ["5C", "6C"]], "4D", STOCK)
    game.apply(p("4H"))
    assert game.legal_actions() == [p("3H"), p("5H"), END]
    game.apply(p("5H"))
    assert game.legal_actions() == [p("6H"), END]
    with pytest.raises(IllegalMove, match="does not continue"):
        game.apply(p("3H"))
    game.apply(p("6H"))
    assert game.to_move == 1  # no 7H: the turn ends by itself


def test_black_jack_two_answers_black_jack_ace_and_red_jack() -> None:
    """docs/rules.md §3 black-jack: 2 answered by a 2 (+2), a black jack (+5), an ace / red jack (cancel)."""
    hands = [["2C", "3D", "4D"], ["JS", "AH", "JD", "2D", "5C"], ["6H", "7H", "8H"]]
    game = layout_game("black-jack", hands, "9C", STOCK)
    game.apply(p("2C"))
    legal = game.legal_actions()
    assert {a["card"] for a in legal if a["action"] == "play"} == {"JS", "AH", "JD", "2D"}
    game.apply(p("JS"))
    assert pending(game)["draw"] == 7
    game = layout_game("black-jack", hands, "9C", STOCK)
    play(game, p("2C"), p("AH", suit="S"))
    assert pending(game)["draw"] == 0
    assert game.view(None)["active_suit"] == "S"
    game = layout_game("black-jack", hands, "9C", STOCK)
    play(game, p("2C"), p("JD"))
    assert pending(game)["draw"] == 0


def test_black_jack_red_jack_cancels_one_black_jack() -> None:
    """docs/rules.md §3 black-jack: black jacks +5 and stack; a red jack cancels one (−5)."""
    game = layout_game(
        "black-jack", [["JC", "3D", "4D"], ["JS", "5C", "6C"], ["JH", "7H", "8H"]], "9C", STOCK
    )
    play(game, p("JC"), p("JS"))
    assert pending(game)["draw"] == 10
    game.apply(p("JH"))
    assert pending(game)["draw"] == 5
    assert game.to_move == 0
    assert game.legal_actions() == [DRAW]


def test_black_jack_seven_lets_the_suit_be_played() -> None:
    """docs/rules.md §3 black-jack: after a 7 the player may play every other card of its suit."""
    game = layout_game("black-jack", [["7C", "3C", "TC", "5D"], ["5C", "6S"]], "9C", STOCK)
    game.apply(p("7C"))
    assert game.legal_actions() == [p("3C"), p("TC"), END]
    play(game, p("TC"), p("3C"))
    assert hand_codes(game, 0) == ["5D"]
    assert game.to_move == 1


def test_black_jack_eight_skip_passes_on_when_answered() -> None:
    """docs/rules.md §3 black-jack: 8 skips the next player unless they play an 8, passing it on."""
    game = layout_game(
        "black-jack", [["8C", "3D", "4D"], ["8D", "5C", "6C"], ["6H", "7H", "8H"]], "9C", STOCK
    )
    game.apply(p("8C"))
    assert pending(game)["skip"] == 1
    assert game.legal_actions() == [p("8D"), END]
    game.apply(p("8D"))
    assert game.to_move == 2
    assert game.legal_actions() == [p("8H"), END]
    events = game.apply(END)
    assert any(e.type == "skip" and e.seat == 2 for e in events)
    assert game.to_move == 0


def test_black_jack_queen_must_be_covered() -> None:
    """docs/rules.md §3 black-jack: a queen must be covered by any card at once, else draw one."""
    game = layout_game("black-jack", [["QC", "5D", "8H"], ["5C", "6S"]], "9C", STOCK)
    game.apply(p("QC"))
    legal = game.legal_actions()
    assert p("5D") in legal
    assert p("8H") in legal
    assert END not in legal
    assert DRAW not in legal
    with pytest.raises(IllegalMove, match="cover"):
        game.apply(END)
    game.apply(p("5D"))
    game = layout_game("black-jack", [["QC"], ["5C", "6S"]], "9C", STOCK)
    game.apply(p("QC"))
    assert game.legal_actions() == [DRAW]  # the last card cannot be covered: draw one
    game.apply(DRAW)
    assert len(game.hands[0]) == 1
    assert game.to_move == 1


def test_black_jack_king_reverses() -> None:
    """docs/rules.md §3 black-jack: king reverses."""
    game = layout_game("black-jack", [["KC", "3D"], ["4D", "5D"], ["6H", "7H"]], "9C", STOCK)
    game.apply(p("KC"))
    assert game.to_move == 2


def test_black_jack_going_out_unannounced_with_a_run_draws_two_and_stays_in() -> None:
    """docs/rules.md §3 black-jack: a player who goes out without having announced draws 2 and
    stays in — also with several cards in one turn (J28's exception is J28's alone)."""
    hands = [["4C", "5C", "6C"], ["9C", "TD", "3D"]]
    game = layout_game("black-jack", hands, "3C", STOCK)
    play(game, p("4C"), p("5C"))  # leaves 6C without announcing it
    assert hand_codes(game, 0) == ["6C"]
    assert game.to_move == 1  # the last card may not go: nothing else continues the turn
    game.apply(p("9C"))
    assert game.to_move == 0
    assert game.legal_actions() == [DRAW]
    events = game.apply(DRAW)
    assert [e.data for e in events if e.type == "draw"] == [{"count": 2, "reason": "last_card"}]
    assert len(game.hands[0]) == 3
    assert not game.is_over


def test_black_jack_a_run_announced_on_the_way_goes_out() -> None:
    """docs/rules.md §3 black-jack: announcing the last card mid-turn lets the run go out."""
    game = layout_game("black-jack", [["4C", "5C", "6C"], ["9C", "TD", "3D"]], "3C", STOCK)
    play(game, p("4C"), p("5C", announce="last_card"), p("6C"))
    assert game.is_over
    outcome = game.outcome()
    assert outcome is not None
    assert outcome.winner == 0


def test_irish_jacks_going_out_unannounced_draw_one() -> None:
    """docs/rules.md §2 Last card, §3 irish-switch: going out with two jacks in one turn needs the
    announcement too; without it the last jack stays in hand and the player draws 1."""
    hands = [["JC", "JD"], ["4D", "5D"], ["6C", "7C"]]
    game = layout_game("irish-switch", hands, "9C", STOCK)
    events = game.apply(p("JC"))
    assert [e.data for e in events if e.type == "draw"] == [{"count": 1, "reason": "last_card"}]
    assert hand_codes(game, 0)[0] == "JD"
    assert game.to_move == 2
    game = layout_game("irish-switch", hands, "9C", STOCK)
    play(game, p("JC", announce="last_card"), p("JD"))
    assert game.is_over


@pytest.mark.parametrize(
    ("ruleset", "exempt"), [("jacks-twos-eights", True), ("black-jack", False)]
)
def test_going_out_unannounced_in_one_turn_is_an_option(ruleset: str, exempt: bool) -> None:
    """docs/rules.md §3: J28's "going out with a set or run in one turn needs no announcement" is
    the option finish_unannounced_in_one_turn, on for J28 only; either preset can change it."""
    assert RULESETS[ruleset].options["finish_unannounced_in_one_turn"] is exempt
    for option in (exempt, not exempt):
        # Sets as in J28 (a house rule for Black Jack, whose turns are runs).
        options = {"finish_unannounced_in_one_turn": option, "multi_card": "same_rank_and_runs"}
        game = layout_game(ruleset, [["5C", "5D", "5H"], ["6D", "7D"]], "9C", STOCK, options)
        play(game, p("5C"), p("5D"))
        assert (p("5H") in game.legal_actions()) is option
        assert game.to_move == (0 if option else 1)


def test_a_state_saved_before_the_option_existed_takes_the_presets_value() -> None:
    """Stored matches predate finish_unannounced_in_one_turn: they load with their preset's value."""
    for ruleset, bars in (("jacks-twos-eights", False), ("black-jack", True)):
        data = create_game(ruleset, 2).to_dict()
        del data["options"]["finish_unannounced_in_one_turn"]
        assert SheddingGame.from_dict(data).rules.bars_unannounced_in_turn is bars


# ------------------------------------------------------------------ irish-switch


def test_irish_seven_skips_and_passes_on() -> None:
    """docs/rules.md §3 irish-switch: 7 skips; answered with a 7 it passes on."""
    game = layout_game(
        "irish-switch", [["7C", "3D", "4D"], ["7D", "5C", "6C"], ["6H", "8H", "9H"]], "9C", STOCK
    )
    play(game, p("7C"), p("7D"))
    assert game.to_move == 2
    assert game.legal_actions() == [END]
    game.apply(END)
    assert game.to_move == 0


def test_irish_several_jacks_each_reverse() -> None:
    """docs/rules.md §3 irish-switch: jacks reverse; several may be played in one turn."""
    game = layout_game(
        "irish-switch", [["JC", "JD", "5H", "6H"], ["4D", "5D"], ["6C", "7C"]], "9C", STOCK
    )
    game.apply(p("JC"))
    assert game.direction == -1
    assert game.legal_actions() == [p("JD"), END]
    game.apply(p("JD"))
    assert game.direction == 1
    assert game.to_move == 1


def test_irish_king_of_hearts_seven_and_two_of_hearts_nine() -> None:
    """docs/rules.md §3 irish-switch: KH picks up 7; answered with 2H it becomes 9 for the next."""
    game = layout_game(
        "irish-switch", [["KH", "3D", "4D"], ["2H", "2C", "6C"], ["6H", "8H", "TH"]], "9H", STOCK
    )
    game.apply(p("KH"))
    assert pending(game)["draw"] == 7
    assert game.legal_actions() == [p("2H"), DRAW]  # only the 2 of hearts answers
    game.apply(p("2H"))
    assert pending(game)["draw"] == 9
    game.apply(DRAW)
    assert len(game.hands[2]) == 3 + 9


def test_irish_ace_on_its_suit_names_a_suit_and_joker_is_wild() -> None:
    """docs/rules.md §3 irish-switch: the ace goes on its own suit (or an ace); a joker stands for any card."""
    game = layout_game(
        "irish-switch",
        [["AC", "AD", "X1", "5H"], ["4S", "5S"]],
        "9D",
        STOCK,
        options={"jokers": 1},
    )
    legal = game.legal_actions()
    assert p("AC") not in legal
    assert p("AC", suit="H") not in legal
    assert p("AD", suit="S") in legal
    assert p("X1", suit="C") in legal
    game.apply(p("X1", suit="C"))
    assert game.view(None)["active_suit"] == "C"


# ------------------------------------------------------------------ jacks-twos-eights


def test_j28_goes_counter_clockwise() -> None:
    """docs/rules.md §3 jacks-twos-eights: play goes counter-clockwise from the first player."""
    game = layout_game("jacks-twos-eights", [["3C", "4D"], ["5D", "6D"], ["6C", "7H"]], "9C", STOCK)
    game.apply(p("3C"))
    assert game.to_move == 2


def test_j28_sets_then_runs() -> None:
    """docs/rules.md §3 jacks-twos-eights: on 10H: 9H 9S 8S 7S 7C in one turn."""
    game = layout_game(
        "jacks-twos-eights", [["9H", "9S", "8S", "7S", "7C", "KD"], ["5D", "6D"]], "TH", STOCK
    )
    play(game, p("9H"), p("9S"), p("8S"), p("7S"), p("7C"))
    assert hand_codes(game, 0) == ["KD"]
    assert game.to_move == 1  # nothing continues 7C: the turn ended by itself


def test_j28_jack_names_a_suit_and_that_suit_may_follow() -> None:
    """docs/rules.md §3 jacks-twos-eights: a jack on any card names a suit; keep laying that suit."""
    game = layout_game("jacks-twos-eights", [["JD", "3H", "9H", "KS"], ["5D", "6D"]], "5C", STOCK)
    game.apply(p("JD", suit="H"))
    assert game.legal_actions() == [p("3H"), p("9H"), END]
    play(game, p("9H"), p("3H"))
    assert hand_codes(game, 0) == ["KS"]


def test_j28_twos_per_two_and_eights_miss_a_turn_per_eight() -> None:
    """docs/rules.md §3 jacks-twos-eights: +2 per 2 in the chain; 8s: miss as many turns as 8s laid."""
    game = layout_game(
        "jacks-twos-eights", [["2C", "2D", "4H"], ["5D", "6D"], ["6H", "7H"]], "9C", STOCK
    )
    play(game, p("2C"), p("2D"))
    assert pending(game)["draw"] == 4
    assert game.to_move == 2
    game = layout_game(
        "jacks-twos-eights",
        [["8C", "8D", "4D", "KC"], ["5D", "9H", "3H"], ["6H", "7H", "3C"]],
        "9C",
        STOCK,
    )
    play(game, p("8C"), p("8D"))
    assert game.to_move == 2
    assert pending(game)["skip"] == 2
    events = game.apply(END)  # seat 2 misses this turn and the next
    assert game.to_move == 1
    assert [e.data for e in events if e.type == "skip"] == [{"turns": 2}]
    game.apply(p("5D"))
    events = game.apply(p("4D"))  # seat 0 → seat 2 misses its second turn → seat 1
    assert [e.seat for e in events if e.type == "skip"] == [2]
    assert game.to_move == 1


def test_j28_ace_of_hearts_cancelled_by_ace_of_spades() -> None:
    """docs/rules.md §3 jacks-twos-eights: AH picks up 5 unless answered by the ace of spades."""
    game = layout_game(
        "jacks-twos-eights", [["AH", "3D", "4D"], ["5C", "6C"], ["AS", "7H", "8H"]], "9H", STOCK
    )
    game.apply(p("AH"))
    assert game.to_move == 2
    assert game.legal_actions() == [p("AS"), DRAW]
    game.apply(p("AS"))
    assert pending(game)["draw"] == 0


def test_j28_cannot_finish_on_jack_two_or_eight_but_may_on_a_set() -> None:
    """docs/rules.md §3 jacks-twos-eights: no finishing on J, 2, 8; a set may go out unannounced."""
    game = layout_game("jacks-twos-eights", [["JC"], ["5D", "6D"]], "9C", STOCK)
    assert game.legal_actions() == [DRAW]
    game = layout_game("jacks-twos-eights", [["5C", "5D", "5H"], ["6D", "7D"]], "9C", STOCK)
    play(game, p("5C"), p("5D"), p("5H"))
    assert game.is_over
    outcome = game.outcome()
    assert outcome is not None
    assert outcome.winner == 0


# ------------------------------------------------------------------ take-two


def test_take_two_joker_picks_up_five_and_ace_names_a_suit() -> None:
    """docs/rules.md §3 take-two: ace any time names a suit; joker (if used) picks up 5."""
    game = layout_game(
        "take-two",
        [["X1", "AC", "4D"], ["5C", "6C"], ["7D", "8D"]],
        "9H",
        STOCK,
        options={"jokers": 2},
    )
    legal = game.legal_actions()
    assert p("X1") in legal
    assert p("AC", suit="D") in legal
    game.apply(p("X1"))
    assert pending(game)["draw"] == 5
    game.apply(DRAW)
    assert len(game.hands[1]) == 7


def test_take_two_jack_skip_house_option() -> None:
    """docs/rules.md §3 take-two: jack reverses (house option: skip)."""
    game = layout_game(
        "take-two",
        [["JC", "3C"], ["4D", "5D"], ["6C", "7C"]],
        "9C",
        STOCK,
        options={"powers": {"J": {"skip": 1}}},
    )
    game.apply(p("JC"))
    assert game.to_move == 2
    assert game.direction == 1


def test_black_jack_pick_up_and_skip_pending_together() -> None:
    """docs/rules.md §2.8: with a pick-up and a chained skip pending, the pick-up comes first;
    taking it serves the skip, answering it lifts the skip."""
    hands = [["7C", "2C", "8C", "KD"], ["2D", "5H", "6H"], ["3S", "4S", "5S"]]
    game = layout_game("black-jack", hands, "9C", STOCK)
    play(game, p("7C"), p("2C"), p("8C"))  # no club left: the turn ends
    assert pending(game) == {"draw": 2, "skip": 1}
    assert game.legal_actions() == [p("2D"), DRAW]
    game.apply(DRAW)
    assert len(game.hands[1]) == 5
    assert game.to_move == 2
    assert pending(game) == {"draw": 0, "skip": 0}
    game = layout_game("black-jack", hands, "9C", STOCK)
    play(game, p("7C"), p("2C"), p("8C"), p("2D"))
    assert game.to_move == 2
    assert pending(game) == {"draw": 4, "skip": 0}
