"""The pure decision step of the pipeline (switchgame/decision.py), without a database: what an
advance does — status, clock, seeds and deals, ``your_turn``, ``match_end``, bots to wake."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any

from switchgame import catalog
from switchgame.decision import Abandon, Decision, Holder, MatchRead, Start, Status, decide
from switchgame.protocol import Event, GameState
from switchgame.shuffle import seed_commitment
from tests.engine.abbott_grids import asked_to_agree
from tests.engine.test_abbott_rules import new_game as abbott_game
from tests.engine.test_shedding_helpers import layout_game

NOW = datetime(2026, 11, 25, 12, 0, tzinfo=UTC)
SEED = bytes(range(32))
ANN, BEN, CAT, DAN = 11, 12, 13, 14
STOCK = ["3S", "4S", "5S", "6S", "TS", "QS", "KS", "3D", "4D", "5D", "6D", "7D", "8D", "QD"]


def people(*user_ids: int) -> list[Holder]:
    return [Holder(seat, user, bot=False, resigned=False) for seat, user in enumerate(user_ids)]


def bot(seat: int) -> Holder:
    return Holder(seat, None, bot=True, resigned=False)


def active(game: GameState, **fields: Any) -> MatchRead:
    """The match as read before an action of a game in play."""
    read = MatchRead(
        status=Status.ACTIVE,
        version=7,
        turn=game.turn_id,
        deal_number=1,
        deal_seed="ab" * 32,
        turn_seconds=None,
        turn_deadline=None,
        layout=None,
    )
    return replace(read, **fields)


def act(game: GameState, action: dict[str, Any], holders: list[Holder], **read: Any) -> Decision:
    """Apply ``action`` as an operation would, then decide."""
    before = active(game, **read)
    events = game.apply(action)
    return decide(read=before, game=game, holders=holders, events=events, now=NOW, new_seed=SEED)


def test_a_new_turn_of_a_person_pushes_your_turn_with_the_new_version():
    game = layout_game("switch", [["9S", "5D"], ["5C", "6C"]], "9H", STOCK)

    decision = act(game, {"action": "play", "card": "9S"}, people(ANN, BEN))

    assert decision.version == 8
    assert decision.your_turn == Holder(1, BEN, bot=False, resigned=False)
    assert not decision.bot_to_move
    assert decision.status == Status.ACTIVE
    assert not decision.ended
    assert decision.notices == []


def test_the_same_seat_acting_again_within_its_turn_is_told_again():
    """jacks-twos-eights: sets then runs in one turn (docs/rules.md §3.7) — after 9H the seat may
    play on, so it must hear that it is still to act, at the new version."""
    game = layout_game(
        "jacks-twos-eights", [["9H", "9S", "8S", "KD"], ["5D", "6D"], ["6C", "7H"]], "TH", STOCK
    )
    turn = game.turn_id

    decision = act(game, {"action": "play", "card": "9H"}, people(ANN, BEN, CAT))

    assert game.turn_id == turn  # not a new turn…
    assert decision.your_turn is not None
    assert decision.your_turn.seat == 0  # …but the same seat acts again
    assert decision.version == 8


def test_a_draw_that_leaves_a_play_is_a_decision_pushed():
    """jacks-twos-eights draws one, then the drawn card may be played (`one_then_play`)."""
    game = layout_game("jacks-twos-eights", [["KD", "QC"], ["5D", "6D"]], "9H", ["9S", *STOCK])

    decision = act(game, {"action": "draw"}, people(ANN, BEN))

    assert game.to_move == 0
    assert decision.your_turn is not None
    assert decision.your_turn.seat == 0


def test_a_queen_to_cover_is_a_decision_pushed():
    game = layout_game("black-jack", [["QC", "5D", "8H"], ["5C", "6S"]], "9C", STOCK)

    decision = act(game, {"action": "play", "card": "QC"}, people(ANN, BEN))

    assert decision.your_turn is not None
    assert decision.your_turn.seat == 0


def test_a_bot_to_act_is_woken_and_told_nothing():
    game = layout_game("switch", [["9S", "5D"], ["5C", "6C"]], "9H", STOCK)

    decision = act(game, {"action": "play", "card": "9S"}, [*people(ANN), bot(1)])

    assert decision.bot_to_move
    assert decision.your_turn is None


def test_a_seat_a_bot_took_over_is_played_by_the_bot_but_still_hears_the_end():
    game = layout_game("switch", [["9S"], ["5C", "6C"]], "9H", STOCK)
    taken = Holder(1, BEN, bot=True, resigned=False)

    decision = act(game, {"action": "play", "card": "9S"}, [*people(ANN), taken])

    assert decision.status == Status.FINISHED
    assert {n.user_id for n in decision.notices} == {ANN, BEN}


def test_a_resigned_seat_is_never_told_to_act():
    game = layout_game("switch", [["9S", "5D"], ["5C", "6C"]], "9H", STOCK)
    left = Holder(1, BEN, bot=True, resigned=True)

    decision = act(game, {"action": "play", "card": "9S"}, [*people(ANN), left])

    assert decision.your_turn is None
    assert decision.bot_to_move


def test_a_change_by_someone_else_tells_the_person_to_act_again():
    """A resignation (or anything else) moves the version: the waiting seat's earlier your_turn is
    stale, so it hears again, at the new version."""
    game = layout_game("switch", [["9S", "5D"], ["5C", "6C"], ["7C", "8C"]], "9H", STOCK)
    holders = [*people(ANN, BEN), Holder(2, CAT, bot=True, resigned=True)]
    resign = Event("resign", 2, {"replaced_by": "heuristic"})

    decision = decide(
        read=active(game), game=game, holders=holders, events=[resign], now=NOW, new_seed=SEED
    )

    assert decision.your_turn == holders[0]
    assert decision.version == 8


def test_abbott_the_sixteen_plus_partner_is_told_to_move_the_other_piece():
    """docs/rules.md §4: seat 1 (17) chose seat 0 and moves seat 0's piece: seat 1 is to act."""
    game = abbott_game(totals=[0, 17, 0, 0])
    holders = people(ANN, BEN, CAT, DAN)

    decision = act(game, {"action": "ally", "partner": 1}, holders)

    assert (game.to_move, game.piece_to_move) == (1, 0)
    assert decision.your_turn == holders[1]


def test_abbott_a_seat_asked_to_agree_to_end_the_hand_is_told():
    """The seat whose piece its partner moves never acts in the hand, until it is asked to agree."""
    game = asked_to_agree()
    holders = people(ANN, BEN, CAT, DAN)

    decision = act(game, {"action": "propose_end"}, holders)  # seat 3, the last that acts

    assert decision.your_turn == holders[0]
    assert decision.your_turn is not None
    assert [e.type for e in decision.events] == ["propose_end", "consent_asked"]


def test_the_clock_restarts_on_a_new_turn_and_runs_on_within_a_turn():
    deadline = NOW + timedelta(seconds=20)
    new_turn = layout_game("switch", [["9S", "5D"], ["5C", "6C"]], "9H", STOCK)
    same_turn = layout_game(
        "jacks-twos-eights", [["9H", "9S", "KD"], ["5D", "6D"], ["6C", "7H"]], "TH", STOCK
    )
    clock = {"turn_seconds": 60, "turn_deadline": deadline}

    restarted = act(new_turn, {"action": "play", "card": "9S"}, people(ANN, BEN), **clock)
    kept = act(same_turn, {"action": "play", "card": "9H"}, people(ANN, BEN, CAT), **clock)
    untimed = act(
        layout_game("switch", [["9S", "5D"], ["5C", "6C"]], "9H", STOCK),
        {"action": "play", "card": "9S"},
        people(ANN, BEN),
    )

    assert restarted.turn_deadline == NOW + timedelta(seconds=60)
    assert kept.turn_deadline == deadline
    assert untimed.turn_deadline is None


def test_a_deal_that_ends_reveals_its_seed_and_the_next_is_dealt_with_a_commitment():
    game = layout_game("switch", [["9S"], ["5C", "6C"]], "9H", STOCK, deals=2)

    decision = act(game, {"action": "play", "card": "9S"}, people(ANN, BEN))

    deal_end = next(e for e in decision.events if e.type == "deal_end")
    deal = next(e for e in decision.events if e.type == "deal")
    assert decision.events.index(deal_end) < decision.events.index(deal)
    assert deal_end.data["seed"] == "ab" * 32
    assert deal.data["shuffle_commitment"] == seed_commitment(SEED)
    assert (decision.deal_number, decision.deal_seed) == (2, SEED.hex())
    assert decision.status == Status.ACTIVE
    assert decision.your_turn is not None  # the new deal's first seat


def test_the_end_of_the_match_finishes_it_and_tells_everyone_seated_once():
    game = layout_game("switch", [["9S"], ["5C", "6C"], ["7C", "8C"]], "9H", STOCK)
    holders = [*people(ANN, BEN), Holder(2, CAT, bot=True, resigned=True)]

    decision = act(game, {"action": "play", "card": "9S"}, holders, turn_seconds=60)

    outcome = game.outcome()
    assert outcome is not None
    assert decision.status == Status.FINISHED
    assert decision.ended
    assert decision.result == outcome.to_json()
    assert [(n.user_id, n.type, n.data) for n in decision.notices] == [
        (ANN, "match_end", {"result": outcome.to_json()}),
        (BEN, "match_end", {"result": outcome.to_json()}),
    ]
    assert decision.your_turn is None
    assert not decision.bot_to_move
    assert decision.turn_deadline is None


def test_an_abandonment_ends_with_a_match_end_event_and_tells_everyone_seated():
    game = layout_game("switch", [["9S", "5D"], ["5C", "6C"]], "9H", STOCK)
    holders = [*people(ANN), Holder(1, BEN, bot=True, resigned=True)]
    ending = Abandon({"abandoned": True, "resigned": [1]})
    resign = Event("resign", 1, {"replaced_by": None})

    decision = decide(
        read=active(game, turn_seconds=60, turn_deadline=NOW),
        game=game,
        holders=holders,
        events=[resign],
        now=NOW,
        new_seed=SEED,
        transition=ending,
    )

    assert decision.status == Status.ABANDONED
    assert decision.result == {"abandoned": True, "resigned": [1]}
    assert [(e.type, e.data) for e in decision.events] == [
        ("resign", {"replaced_by": None}),
        ("match_end", {"abandoned": True, "resigned": [1]}),
    ]
    assert [(n.user_id, n.data) for n in decision.notices] == [(ANN, {"abandoned": True})]
    assert (decision.your_turn, decision.bot_to_move, decision.turn_deadline) == (None, False, None)


def test_the_start_deals_the_first_hand_from_the_layout_and_tells_the_first_seat():
    game = catalog.new_game("switch", 2, {})
    layout = {"hands": [["9S", "5H"], ["5C", "6C"]], "starter": "9H", "stock": STOCK}
    read = MatchRead(
        status=Status.WAITING,
        version=2,
        turn=game.turn_id,
        deal_number=0,
        deal_seed="",
        turn_seconds=30,
        turn_deadline=None,
        layout=layout,
    )
    holders = people(ANN, BEN)

    decision = decide(
        read=read, game=game, holders=holders, events=[], now=NOW, new_seed=SEED, transition=Start()
    )

    assert decision.status == Status.ACTIVE
    assert decision.events[0].type == "deal"
    assert decision.events[0].data["shuffle_commitment"] == seed_commitment(SEED)
    assert game.view(0)["you"]["hand"] == ["9S", "5H"]
    assert decision.your_turn == holders[0]
    assert decision.turn_deadline == NOW + timedelta(seconds=30)


def test_a_waiting_match_that_changes_tells_nobody_to_act():
    game = catalog.new_game("switch", 2, {})
    read = replace(active(game), status=Status.WAITING, deal_number=0, deal_seed="")

    decision = decide(
        read=read, game=game, holders=people(ANN, BEN), events=[], now=NOW, new_seed=SEED
    )

    assert decision.status == Status.WAITING
    assert decision.events == []
    assert (decision.your_turn, decision.bot_to_move, decision.ended) == (None, False, False)
