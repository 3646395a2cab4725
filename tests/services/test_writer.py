"""Both ways of writing a match's advance (:mod:`games.services.writer`) — one statement on
PostgreSQL, a statement per table through the ORM on any database — write the same rows, and neither
writes anything when the match is no longer at the version it was read at."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.db import connection, transaction

from games import services
from games.models import FeedEvent, Match, MatchEvent, Player
from games.services import writer
from games.services.writer import Advance, FeedEntry

pytestmark = pytest.mark.django_db


def postgresql_only(write):
    return pytest.param(
        write,
        marks=pytest.mark.skipif(
            connection.vendor != "postgresql", reason="a PostgreSQL statement"
        ),
    )


WRITERS = [
    pytest.param(writer._advance_by_orm, id="orm"),
    postgresql_only(writer._advance_in_one_statement),
]
FIELDS = ("version", "state", "deal_seed", "last_event_seq")


@pytest.fixture
def table():
    users = get_user_model().objects
    first, second = users.create_user("first"), users.create_user("second")
    for user in (first, second):
        Player.objects.create(user=user, feed_seq=10)
    match = services.match_create(creator=first, ruleset="switch", seats=2)
    return match, first, second


def advance(match: Match, first, second):
    """The match one version on, two events (one private) and three feed entries, two of them for
    the same player, whose numbers must follow each other in order; one keyed by seat numbers,
    which JSON writes as strings."""
    read_version = match.version
    match.version += 1
    match.state = {"quote": 'a "b" \\ c', "accent": "é", "nested": [1, None, {"x": True}]}
    match.deal_seed = "ab" * 32
    match.last_event_seq = 2
    events = [
        MatchEvent(match=match, seq=1, type="deal", seat=None, data={"cards": 5}, private=None),
        MatchEvent(match=match, seq=2, type="draw", seat=1, data={}, private={"card": "9S"}),
    ]
    feed = [
        FeedEntry(first.pk, "your_turn", match.pk, {"seat": 0}),
        FeedEntry(second.pk, "match_end", match.pk, {"result": None}),
        FeedEntry(first.pk, "match_end", match.pk, {"result": {"totals": {0: 60, 1: 0}}}),
    ]
    return read_version, events, feed


@pytest.mark.parametrize("write", WRITERS)
def test_an_advance_writes_the_match_its_events_and_numbered_feed_entries(write, table):
    match, first, second = table
    read_version, events, feed = advance(match, first, second)

    with transaction.atomic():
        assert write(Advance(match, read_version, FIELDS, events, feed)) is True

    stored = Match.objects.get(pk=match.pk)
    assert [getattr(stored, name) for name in FIELDS] == [getattr(match, name) for name in FIELDS]
    assert list(
        MatchEvent.objects.filter(match=match).values_list("seq", "type", "seat", "data", "private")
    ) == [(1, "deal", None, {"cards": 5}, None), (2, "draw", 1, {}, {"card": "9S"})]
    assert list(
        FeedEvent.objects.filter(match=match)
        .order_by("player__user__username", "seq")
        .values_list("player__user__username", "seq", "type", "data")
    ) == [
        ("first", 11, "your_turn", {"match": match.pk, "seat": 0}),
        ("first", 12, "match_end", {"match": match.pk, "result": {"totals": {"0": 60, "1": 0}}}),
        ("second", 11, "match_end", {"match": match.pk, "result": None}),
    ]
    assert Player.objects.get(user=first).feed_seq == 12
    assert Player.objects.get(user=second).feed_seq == 11


@pytest.mark.parametrize("write", WRITERS)
def test_a_stale_version_writes_nothing(write, table):
    match, first, second = table
    read_version, events, feed = advance(match, first, second)
    Match.objects.filter(pk=match.pk).update(version=read_version + 5)  # someone else moved

    with transaction.atomic():
        assert write(Advance(match, read_version, FIELDS, events, feed)) is False

    assert Match.objects.get(pk=match.pk).version == read_version + 5
    assert not MatchEvent.objects.filter(match=match).exists()
    assert not FeedEvent.objects.filter(match=match).exists()
    assert Player.objects.get(user=first).feed_seq == 10


def test_a_user_made_in_the_admin_gets_a_profile_and_the_entry_pushed_to_them():
    director = get_user_model().objects.create_superuser("director", password="x")
    assert not Player.objects.filter(user=director).exists()

    services.player_notify(
        user_id=director.pk, event_type="round_seated", match=None, data={"round": 1}
    )

    assert list(FeedEvent.objects.filter(player__user=director).values_list("seq", "type")) == [
        (1, "round_seated")
    ]
