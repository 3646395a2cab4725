"""Game records (switchgame/records/gamerecord.py): built from a match's settings and log, they re-create every
state from the record alone, for both games — and a record tampered with anywhere (a seed, a
commitment, an action, a seat, the result, a deal cut short) fails verification, saying where."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from switchgame.records.gamerecord import (
    FORMAT,
    Record,
    RecordError,
    positions,
    record_from_log,
    verify_record,
)
from switchgame.records.replay import MatchSettings, replay
from tests.engine.earlier_results import earlier_form
from tests.engine.test_replay import ABBOTT_LAYOUT, SHEDDING_LAYOUT, Played, play, settings_of

MATCHES = [
    settings_of("abbott", 4, layout=ABBOTT_LAYOUT),
    settings_of("abbott-2", 2),
    settings_of("switch", 2, layout=SHEDDING_LAYOUT, deals=2),
    settings_of("french", 3, target=150),
    settings_of("jack-change-it", 4, deals=2),
]


def record_match(settings: MatchSettings, game: str, status: str) -> dict[str, Any]:
    """The record's ``match`` object for a match of ``settings`` played here."""
    return {
        "id": 1,
        "ruleset": settings.ruleset,
        "game": game,
        "seat_count": settings.players,
        "options": dict(settings.options),
        "deals": settings.deals,
        "target": settings.target,
        "layout": settings.layout,
        "turn_seconds": 60,
        "status": status,
    }


def record_of(played: Played, *, status: str = "finished") -> Record:
    settings = played.settings
    outcome = played.game.outcome()
    return record_from_log(
        match=record_match(settings, played.game.game, status),
        players=[
            {"seat": seat, "player": f"p{seat}", "bot": None, "resigned": False}
            for seat in range(settings.players)
        ],
        events=played.log,
        result=outcome.to_json() if outcome else {"abandoned": True, "reason": "test"},
        seed_in_play=played.seed,
    )


@pytest.mark.parametrize(
    "settings", MATCHES, ids=lambda s: f"{s.ruleset}-{s.players}{'-layout' if s.layout else ''}"
)
def test_a_record_re_creates_every_state_the_log_gives(settings) -> None:
    played = play(settings, 11, resign_at=7)
    record = record_of(played)

    replayed = replay(played.settings, played.log)
    states = [p.state.to_dict() for p in positions(record)]
    logged = [step.state.to_dict() for step in replayed.steps if step.kind != "seat_change"]
    verified = verify_record(record)

    assert record["format"] == FORMAT
    assert states[-1] == played.game.to_dict()
    # Every state the log passes through is one of the record's (a timeout's defaults are several
    # positions of the record in one step of the log).
    assert all(state in states for state in logged)
    assert verified.deals == len(record["deals"]) >= 1
    assert verified.actions == sum(len(d["actions"]) for d in record["deals"])
    assert any(a.get("timeout") for d in record["deals"] for a in d["actions"])


@pytest.fixture(scope="module")
def record() -> Record:
    return record_of(play(settings_of("switch", 3, deals=2), 4))


def tampered(record: Record, change) -> Record:
    copied = copy.deepcopy(record)
    change(copied)
    return copied


def first_play(record: Record) -> tuple[int, dict[str, Any]]:
    actions = record["deals"][0]["actions"]
    return next((i, a) for i, a in enumerate(actions) if a["action"]["action"] == "play")


def test_an_untouched_record_verifies(record) -> None:
    assert verify_record(record).result == record["result"]


def test_a_changed_seed_fails_its_commitment(record) -> None:
    def change(r: Record) -> None:
        r["deals"][1]["seed"] = "00" * 32

    with pytest.raises(RecordError, match="deal 2: its seed does not match") as error:
        verify_record(tampered(record, change))
    assert error.value.deal == 2


def test_a_seed_and_commitment_changed_together_deal_other_cards(record) -> None:
    """A forger who replaces both deals other cards, and the actions stop being legal."""
    from switchgame.shuffle import seed_commitment

    def change(r: Record) -> None:
        r["deals"][0]["seed"] = "11" * 32
        r["deals"][0]["shuffle_commitment"] = seed_commitment(bytes.fromhex("11" * 32))

    with pytest.raises(RecordError, match="deal 1, action"):
        verify_record(tampered(record, change))


def test_a_changed_action_is_not_legal(record) -> None:
    def change(r: Record) -> None:
        r["deals"][0]["actions"][0]["action"] = {"action": "end_turn"}  # before playing or drawing

    with pytest.raises(RecordError, match=r"deal 1, action 1: .* is not legal"):
        verify_record(tampered(record, change))


def test_an_action_by_the_wrong_seat_is_refused(record) -> None:
    def change(r: Record) -> None:
        entry = r["deals"][0]["actions"][0]
        entry["seat"] = (entry["seat"] + 1) % 3

    with pytest.raises(RecordError, match=r"deal 1, action 1: seat .* acts, but seat"):
        verify_record(tampered(record, change))


def test_a_removed_action_breaks_what_follows(record) -> None:
    def change(r: Record) -> None:
        del r["deals"][0]["actions"][len(r["deals"][0]["actions"]) // 2]

    with pytest.raises(RecordError):
        verify_record(tampered(record, change))


def test_a_changed_result_is_not_what_the_game_reached(record) -> None:
    def change(r: Record) -> None:
        r["result"]["winner"] = (r["result"]["winner"] + 1) % 3

    with pytest.raises(RecordError, match="the result is not the one the game reached"):
        verify_record(tampered(record, change))


def test_a_result_recorded_before_tallies_still_verifies() -> None:
    """docs/rules.md §7.6: a record of a match that ended before results carried tallies verifies
    with its result as it was written."""
    record = record_of(play(settings_of("switch", 4), 0))
    earlier = earlier_form(record["result"])
    assert earlier != record["result"]

    assert verify_record({**record, "result": earlier}).result == earlier


def test_a_finished_match_cut_short_is_not_over(record) -> None:
    def change(r: Record) -> None:
        r["deals"].pop()

    with pytest.raises(RecordError, match="its game is not over after 1 deals"):
        verify_record(tampered(record, change))


def test_a_timeout_must_play_the_default_action(record) -> None:
    index, _ = first_play(record)

    def change(r: Record) -> None:
        r["deals"][0]["actions"][index]["timeout"] = True

    with pytest.raises(RecordError, match="must play the default action"):
        verify_record(tampered(record, change))


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda r: r.update(format="pgn"), "not a game record"),
        (lambda r: r["match"].update(ruleset="chess"), "bad settings"),
        (lambda r: r["players"].pop(), "one entry per seat"),
        (lambda r: r["deals"][0].update(number=2), "numbered 1, 2, 3"),
        (lambda r: r["deals"][0].update(seed="zz"), "must be hex"),
        (lambda r: r["deals"][0]["actions"].append({"seat": "x"}), "an action is"),
        (lambda r: r["match"].update(status="active"), '"status" must be one of'),
    ],
)
def test_a_malformed_record_is_refused_with_a_reason(record, change, message) -> None:
    with pytest.raises(RecordError, match=message):
        verify_record(tampered(record, change))


def test_an_illegal_play_charged_by_blunder_penalty_is_in_the_record() -> None:
    """docs/rules.md §2.14: with ``blunder_penalty`` an illegal play is taken back and its player
    draws; the log holds what it cost, and the record the play, which verifies as a blunder."""
    played = play(settings_of("switch", 2, options={"blunder_penalty": 2}), 3)
    # Replay the match with one blunder before its first action: a card the player does not hold.
    blundered = Played(played.settings, played.settings.new_game())
    blundered.commit(blundered.deal(None))
    held = blundered.game.view(blundered.game.to_move)["you"]["hand"]
    missing = next(
        code for code in ("2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C") if code not in held
    )
    blundered.commit(blundered.game.apply({"action": "play", "card": missing}))

    record = record_of(blundered, status="abandoned")

    first = record["deals"][0]["actions"][0]
    assert first["action"] == {"action": "play", "card": missing}
    verify_record(record)
