"""The text notation of game records (switchgame/records/notation.py): every record, of both games, written and
read back is the same record, one line per action; and a text that is not the notation is refused
with the line that is not."""

from __future__ import annotations

import pytest

from switchgame.records.gamerecord import Record, RecordError, verify_record
from switchgame.records.notation import action_text, record_from_text, record_text
from tests.engine.test_gamerecord import record_of
from tests.engine.test_replay import ABBOTT_LAYOUT, play, settings_of


@pytest.mark.parametrize(
    "settings",
    [
        settings_of("abbott", 4, layout=ABBOTT_LAYOUT),
        settings_of("switch", 3, deals=2),
        settings_of("black-jack", 4),
    ],
    ids=lambda s: s.ruleset,
)
def test_a_record_written_and_read_back_is_the_same_record(settings) -> None:
    record = record_of(play(settings, 3, resign_at=5))
    record["players"][1].update(resigned=True, bot="heuristic")
    record["players"][2].update(player=None, bot="random")

    text = record_text(record)

    assert record_from_text(text) == record
    actions = sum(len(deal["actions"]) for deal in record["deals"])
    assert len([line for line in text.splitlines() if line.startswith("  ")]) == actions
    assert '[Seat1 "p1 (resigned) bot:heuristic"]' in text
    assert '[Seat2 "bot:random"]' in text
    assert " (timeout)" in text
    verify_record(record_from_text(text))


@pytest.fixture(scope="module")
def short_record() -> Record:
    return record_of(play(settings_of("switch", 2), 0))


def test_abbott_deals_are_hands() -> None:
    text = record_text(record_of(play(settings_of("abbott", 4), 1)))

    assert "\nHand 1 seed " in text
    assert "\nDeal " not in text


@pytest.mark.parametrize(
    ("action", "text"),
    [
        ({"action": "play", "card": "8S"}, "play 8S"),
        ({"action": "play", "card": "JC", "suit": "S"}, "play JC suit S"),
        ({"action": "play", "card": "TD", "announce": "last_card"}, "play TD last card"),
        (
            {"action": "play", "card": "JD", "suit": "H", "announce": "last_card"},
            "play JD suit H last card",
        ),
        ({"action": "draw"}, "draw"),
        ({"action": "end_turn"}, "end turn"),
        ({"action": "move", "to": [2, 3]}, "move 2,3"),
        ({"action": "ally", "partner": 2}, "ally S2"),
        ({"action": "pass"}, "pass"),
        ({"action": "propose_end"}, "propose end"),
        ({"action": "decline_end"}, "decline end"),
        (
            {"action": "play", "card": "8S", "announce": "mate"},
            '{"action": "play", "card": "8S", "announce": "mate"}',
        ),
        ({"action": "juggle", "balls": 3}, '{"action": "juggle", "balls": 3}'),
        ({"action": "draw", "count": 2}, '{"action": "draw", "count": 2}'),
    ],
)
def test_each_action_has_its_words_and_reads_back(short_record, action, text) -> None:
    record = {**short_record, "deals": [{**short_record["deals"][0], "actions": []}]}
    record["deals"][0]["actions"] = [{"seat": 0, "action": action}]

    assert action_text(action) == text
    assert record_from_text(record_text(record))["deals"][0]["actions"][0]["action"] == action


@pytest.mark.parametrize(
    ("line", "where"),
    [
        ("  1. S0 fly away", "line 3"),
        ("[Seats two]", "line 3"),
        ("Deal one seed ab commitment cd", "line 3"),
    ],
)
def test_a_line_that_is_not_the_notation_is_refused_with_its_number(line, where) -> None:
    text = '[Format "switch-record/1"]\n# a comment\n' + line + "\n"

    with pytest.raises(RecordError, match=f"{where} is not the notation"):
        record_from_text(text)


def test_an_action_before_any_deal_is_refused() -> None:
    with pytest.raises(RecordError, match="line 1 is not the notation"):
        record_from_text("  1. S0 draw\n")
