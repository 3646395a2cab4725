"""The match replay (switchgame/records/replay.py): from a match's settings and its event log it re-creates the
state after every step — so every view any seat or spectator was shown — for both games, and it
rejects a log that the settings and the revealed seeds do not give, saying which event and how.

The logs here are written as the service writes them (switchgame/decision.py): the deal event carries
the seed's commitment, the deal's end reveals the seed, a timed-out turn is a ``timeout`` event and
the default actions played until the turn changes, and ``bot_takeover`` / ``resign`` change who plays
a seat. tests/services/test_replay.py replays logs that the service itself wrote.
"""

from __future__ import annotations

import copy
import random
from dataclasses import dataclass, field
from typing import Any

import pytest

from switchgame.protocol import Event, GameState
from switchgame.records.replay import MatchSettings, ReplayError, replay
from switchgame.shuffle import seed_commitment
from tests.engine.earlier_results import earlier_form

DEAL_END_EVENTS = ("deal_end", "hand_end")
MAX_DEFAULT_ACTIONS = 20
ABBOTT_LAYOUT = {
    "grid": [[code if (r + c) % 3 else None for c, code in enumerate(row)] for r, row in enumerate(
        [["AS", "KS", "QS", "JS", "TS", "9S"],
         ["AH", "KH", "QH", "JH", "TH", "9H"],
         ["AD", "KD", "QD", "JD", "TD", "9D"],
         ["AC", "KC", "QC", "JC", "TC", "9C"],
         ["2S", "3S", "4S", "5S", "6S", "7S"],
         ["2H", "3H", "4H", "5H", "6H", "7H"]]
    )]
}  # fmt: skip
SHEDDING_LAYOUT = {
    "hands": [["9S", "5C", "KD"], ["5D", "6D", "2H"]],
    "starter": "9H",
    "stock": ["TC", "3S", "4H", "8C", "7D", "QS"],
}


@dataclass
class Played:
    """A match played through the engine and logged as the service logs it, with every state and
    view shown along the way (after each of the service's commits)."""

    settings: MatchSettings
    game: GameState
    log: list[dict[str, Any]] = field(default_factory=list)
    seed: str = ""  # the hex seed of the deal in play
    shown: dict[int, tuple[dict[str, Any], list[dict[str, Any]]]] = field(default_factory=dict)

    def commit(self, events: list[Event]) -> None:
        """As the pipeline decides (switchgame.decision): reveal the seed in deal ends, deal on, log, remember the views."""
        events = [e.with_data(seed=self.seed) if e.type in DEAL_END_EVENTS else e for e in events]
        if self.game.needs_deal and not self.game.is_over:
            events += self.deal(None)
        for event in events:
            self.log.append({"seq": len(self.log) + 1, **event.to_dict()})
        views = [self.game.view(seat) for seat in (None, *range(self.settings.players))]
        self.shown[len(self.log)] = (self.game.to_dict(), views)

    def deal(self, layout: dict[str, Any] | None) -> list[Event]:
        seed = random.Random(len(self.log)).randbytes(32)
        self.seed = seed.hex()
        commitment = seed_commitment(seed)
        return [
            e.with_data(shuffle_commitment=commitment) if e.type == "deal" else e
            for e in self.game.deal(seed, layout)
        ]


def play(settings: MatchSettings, seed: int, *, resign_at: int | None = None) -> Played:
    """Random play with the service's extras: one turn in 20 times out, the third timeout of a seat
    hands it to a bot, and the seat to move at ``resign_at`` actions resigns (a bot plays on)."""
    rng = random.Random(seed)
    game = settings.new_game()
    played = Played(settings, game)
    played.commit(played.deal(None if settings.layout is None else dict(settings.layout)))
    strikes = [0] * settings.players
    actions = 0
    while not game.is_over:
        seat = game.to_move
        assert seat is not None
        actions += 1
        assert actions < 20_000, "a match that does not end"
        if actions == resign_at:
            played.commit([Event("resign", seat, {"replaced_by": "heuristic"})])
            continue
        if rng.random() < 0.05:
            strikes[seat] += 1
            events = [Event("timeout", seat, {"strikes": strikes[seat]})]
            turn = game.turn_id
            for _ in range(MAX_DEFAULT_ACTIONS):
                events += game.apply(game.default_action())
                # The service stops on a new turn only; a default action that ends a shedding deal
                # leaves turn_id as it was, and the service would then ask for another one.
                if game.turn_id != turn or game.to_move is None:
                    break
            if strikes[seat] == 3:
                events.append(Event("bot_takeover", seat, {"strategy": "heuristic"}))
            played.commit(events)
            continue
        legal = game.legal_actions()
        plays = [a for a in legal if a["action"] in ("play", "move")]
        # Mostly plays: uniformly random shedding play (voluntary draws) makes deals very long.
        action = rng.choice(plays if plays and rng.random() < 0.8 else legal)
        played.commit(game.apply(action))
    return played


def settings_of(ruleset: str, players: int, **extra: Any) -> MatchSettings:
    return MatchSettings(ruleset=ruleset, players=players, **extra)


MATCHES = [
    settings_of("abbott", 4),
    settings_of("abbott-2", 2),
    settings_of("abbott", 4, layout=ABBOTT_LAYOUT),
    settings_of("switch", 4, deals=3),
    settings_of("switch", 2, layout=SHEDDING_LAYOUT, deals=2),
    settings_of("french", 3, target=150),
    settings_of("black-jack", 4, deals=2),
    settings_of("irish-switch", 3, deals=2),
    settings_of("jacks-twos-eights", 4, deals=2),
    settings_of("take-two", 2, deals=3),
    settings_of("jack-change-it", 4, deals=2),
]


def check_replay(played: Played) -> None:
    replayed = replay(played.settings, played.log)
    assert replayed.final.to_dict() == played.game.to_dict()
    for seq, (state, views) in played.shown.items():
        again = replayed.state_after(seq)
        assert again.to_dict() == state, f"state after event {seq}"
        assert [again.view(seat) for seat in (None, *range(played.settings.players))] == views
    kinds = {step.kind for step in replayed.steps}
    assert {"deal", "action"} <= kinds


@pytest.mark.slow
@pytest.mark.parametrize(
    "settings",
    MATCHES,
    ids=lambda s: f"{s.ruleset}-{s.players}{'-layout' if s.layout else ''}",
)
@pytest.mark.parametrize("seed", range(3))
def test_every_state_and_view_is_re_created(settings: MatchSettings, seed: int) -> None:
    played = play(settings, seed, resign_at=7)
    assert any(e["type"] == "timeout" for e in played.log)
    check_replay(played)


@pytest.mark.slow
def test_abbott_to_twenty_with_alliances_control_and_agreements() -> None:
    """Long Abbott games: hands won, alliances, the 16+ control and its consent question."""
    seen: set[str] = set()
    for seed in range(3):
        played = play(settings_of("abbott", 4), 100 + seed)
        seen.update(e["type"] for e in played.log)
        check_replay(played)
    assert {"ally", "propose_end", "hand_end", "match_end", "bot_takeover"} <= seen


def test_the_steps_say_what_was_played() -> None:
    played = play(settings_of("abbott", 4), 1, resign_at=3)
    replayed = replay(played.settings, played.log)
    steps = replayed.steps
    assert replayed.state_after(1) is steps[0].state
    for seq in (0, len(played.log) + 1):
        with pytest.raises(KeyError):
            replayed.state_after(seq)
    assert steps[0].kind == "deal"
    assert [step.events for step in steps] == [
        tuple(e for e in played.log if step.events[0]["seq"] <= e["seq"] <= step.last_seq)
        for step in steps
    ]
    assert sum(len(step.events) for step in steps) == len(played.log)
    resignation = next(step for step in steps if step.kind == "seat_change")
    assert resignation.actions == ()
    for step in steps:
        if step.kind == "action":
            assert len(step.actions) == 1
        if step.kind == "timeout":
            assert step.actions
            assert step.events[0]["type"] == "timeout"


# --- an unfinished deal ---------------------------------------------------------------------------


def test_the_deal_in_play_needs_its_seed() -> None:
    played = play(settings_of("switch", 4, deals=3), 5)
    deal_starts = [e["seq"] for e in played.log if e["type"] == "deal"]
    cut = deal_starts[1] + 10  # in the middle of the second deal
    while cut not in played.shown:
        cut += 1
    log = played.log[:cut]
    with pytest.raises(ReplayError, match="still in play and its seed is not revealed") as error:
        replay(played.settings, log)
    assert error.value.seq == deal_starts[1]
    second_seed = next(e for e in played.log[cut:] if e["type"] == "deal_end")["data"]["seed"]
    replayed = replay(played.settings, log, seed_in_play=second_seed)
    assert replayed.final.to_dict() == played.shown[cut][0]


# --- tampered logs ----------------------------------------------------------------------------------


def tampered(played: Played, seq: int, change: Any) -> list[dict[str, Any]]:
    log = copy.deepcopy(played.log)
    change(log[seq - 1])
    return log


def first(played: Played, kind: str, after: int = 0) -> dict[str, Any]:
    return next(e for e in played.log if e["type"] == kind and e["seq"] > after)


@pytest.fixture(scope="module")
def abbott() -> Played:
    return play(settings_of("abbott", 4), 3)


@pytest.fixture(scope="module")
def shedding() -> Played:
    return play(settings_of("switch", 4, deals=2), 3)


def test_a_card_changed_in_a_move_is_caught(abbott: Played) -> None:
    move = next(e for e in abbott.log if e["type"] == "move" and e["data"]["card"])
    log = tampered(
        abbott,
        move["seq"],
        lambda e: e["data"].update(card="AS" if e["data"]["card"] != "AS" else "KS"),
    )
    with pytest.raises(ReplayError) as error:
        replay(abbott.settings, log)
    assert error.value.seq == move["seq"]
    message = str(error.value)
    assert f"event {move['seq']}: the move event of seat {move['seat']}" in message
    assert "data.card is" in message


def test_a_drawn_card_changed_in_private_is_caught(shedding: Played) -> None:
    draw = next(e for e in shedding.log if e["type"] == "draw" and e["private"])
    log = tampered(shedding, draw["seq"], lambda e: e["private"].update(cards=["XX"]))
    with pytest.raises(ReplayError, match=r"private\.cards") as error:
        replay(shedding.settings, log)
    assert error.value.seq == draw["seq"]


def test_a_dealt_hand_changed_is_caught(shedding: Played) -> None:
    hand = first(shedding, "hand")
    log = tampered(shedding, hand["seq"], lambda e: e["private"]["cards"].reverse())
    with pytest.raises(ReplayError, match=r"the hand event of seat 0: private\.cards") as error:
        replay(shedding.settings, log)
    assert error.value.seq == hand["seq"]


@pytest.mark.parametrize("played_name", ["abbott", "shedding"])
def test_a_seed_that_does_not_match_its_commitment_is_caught(
    played_name: str, request: pytest.FixtureRequest
) -> None:
    played: Played = request.getfixturevalue(played_name)
    end = next(e for e in played.log if e["type"] in DEAL_END_EVENTS)
    log = tampered(played, end["seq"], lambda e: e["data"].update(seed="00" * 32))
    with pytest.raises(ReplayError, match="does not match its commitment") as error:
        replay(played.settings, log)
    assert error.value.seq == 1


def test_a_missing_event_is_caught(abbott: Played) -> None:
    log = copy.deepcopy(abbott.log)
    del log[5]
    with pytest.raises(ReplayError, match="event 6 is missing"):
        replay(abbott.settings, log)


def test_events_renumbered_after_one_is_removed_are_caught(abbott: Played) -> None:
    move = first(abbott, "move", after=3)
    log = copy.deepcopy(abbott.log)
    del log[move["seq"] - 1]
    for seq, event in enumerate(log, start=1):
        event["seq"] = seq
    with pytest.raises(ReplayError) as error:
        replay(abbott.settings, log)
    assert error.value.seq == move["seq"]
    assert "no legal action gives the move event of seat" in str(error.value)


def test_a_timeout_for_the_wrong_seat_is_caught(abbott: Played) -> None:
    timeout = first(abbott, "timeout")
    log = tampered(abbott, timeout["seq"], lambda e: e.update(seat=(e["seat"] + 1) % 4))
    with pytest.raises(ReplayError, match="a timeout for seat") as error:
        replay(abbott.settings, log)
    assert error.value.seq == timeout["seq"]


def test_an_event_after_the_end_is_caught(abbott: Played) -> None:
    last = abbott.log[-1]
    assert last["type"] == "match_end"
    extra = {**copy.deepcopy(abbott.log[-2]), "seq": last["seq"] + 1}
    with pytest.raises(ReplayError, match="after the end of the match"):
        replay(abbott.settings, [*abbott.log, extra])


def test_a_changed_outcome_is_caught(abbott: Played) -> None:
    last = abbott.log[-1]
    log = tampered(
        abbott, last["seq"], lambda e: e["data"].update(winner=(e["data"]["winner"] + 1) % 4)
    )
    with pytest.raises(ReplayError, match=r"data\.winner") as error:
        replay(abbott.settings, log)
    assert error.value.seq == last["seq"]


def test_the_wrong_settings_are_caught(abbott: Played) -> None:
    with pytest.raises(ReplayError, match=r"the deal event: data\.from_layout") as error:
        replay(settings_of("abbott", 4, layout=ABBOTT_LAYOUT), abbott.log)
    assert error.value.seq == 1


def test_a_match_end_logged_before_tallies_still_replays() -> None:
    """docs/rules.md §7.6: a log whose match_end was written before results carried tallies (no
    ``conceded``, losers in seat order) replays as it was written; the same with another ranking
    is caught."""
    played = next(
        p
        for p in (play(settings_of("switch", 4), seed) for seed in range(50))
        if earlier_form(p.log[-1]["data"])["ranking"] != p.log[-1]["data"]["ranking"]
    )
    last = played.log[-1]
    earlier = earlier_form(last["data"])
    replay(played.settings, tampered(played, last["seq"], lambda e: e.update(data=earlier)))

    forged = {**earlier, "ranking": earlier["ranking"][:1] + earlier["ranking"][:0:-1]}
    with pytest.raises(ReplayError, match=r"data\.ranking"):
        replay(played.settings, tampered(played, last["seq"], lambda e: e.update(data=forged)))
