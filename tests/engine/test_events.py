"""Events: what a viewer may see of them, and that they compare by value (protocol.Event)."""

import pytest

from switchgame.protocol import Event


def test_drawn_cards_are_shown_only_to_the_seat_that_drew_them():
    event = Event("draw", 2, {"count": 2, "reason": "draw"}, {"cards": ["7H", "QS"]})

    assert event.for_viewer(2)["data"] == {"count": 2, "reason": "draw", "cards": ["7H", "QS"]}
    assert event.for_viewer(1)["data"] == {"count": 2, "reason": "draw"}
    assert event.for_viewer(None)["data"] == {"count": 2, "reason": "draw"}
    assert event.data == {"count": 2, "reason": "draw"}  # for_viewer did not change the event


def test_events_compare_by_value_and_round_trip_through_dicts():
    event = Event("draw", 0, {"count": 1}, {"cards": ["AS"]})

    assert Event.from_dict(event.to_dict()) == event
    assert event != Event("draw", 0, {"count": 1}, {"cards": ["KS"]})
    assert event != Event("draw", 1, {"count": 1}, {"cards": ["AS"]})
    assert event != "draw"
    with pytest.raises(TypeError):
        hash(event)


def test_events_without_data_do_not_share_one_dict():
    first, second = Event("end_turn", 0), Event("end_turn", 1)
    first.data["noted"] = True

    assert second.data == {}


def test_with_data_adds_public_data_to_a_new_event():
    event = Event("deal_end", None, {"deal": 1})

    revealed = event.with_data(seed="00ff")

    assert revealed == Event("deal_end", None, {"deal": 1, "seed": "00ff"})
    assert event.data == {"deal": 1}
