"""A :class:`~games._cached_sql.CachedSqlQuery` builds the same instances as the ORM, from SQL
built once per connection, and refuses a queryset whose SQL it could not safely reuse."""

from __future__ import annotations

import gc
import threading
import weakref

import pytest
from django.contrib.auth import get_user_model
from django.db import connection, connections
from django.test.utils import CaptureQueriesContext

from games import services
from games._cached_sql import CachedSqlQuery
from games.models import Seat

pytestmark = pytest.mark.django_db


def seats_of(match_id: int):
    return Seat.objects.filter(match_id=match_id).select_related("match__created_by", "player")


seats_with_match = CachedSqlQuery(lambda match_id: seats_of(match_id).order_by("index"))


@pytest.fixture
def matches():
    """Two started matches: one of two players, one of a player and a bot."""
    users = get_user_model().objects
    first, second = users.create_user("first"), users.create_user("second")
    humans = services.match_create(creator=first, ruleset="switch", seats=2)
    services.match_join(match_id=humans.pk, user=second)
    services.match_start(match_id=humans.pk, user=first)
    with_bot = services.match_create(
        creator=second,
        ruleset="french",
        seats=2,
        bots_wanted=[{"seat": 1, "strategy": "heuristic"}],
    )
    services.match_start(match_id=with_bot.pk, user=second)
    return humans.pk, with_bot.pk


def described(seat: Seat) -> dict:
    """Every field of the seat and of what select_related brought with it."""
    player = seat.player
    return {
        "seat": {f.attname: getattr(seat, f.attname) for f in Seat._meta.concrete_fields},
        "match": {f.attname: getattr(seat.match, f.attname) for f in seat.match._meta.fields},
        "creator": seat.match.created_by.get_username(),
        "player": player.get_username() if player else None,
    }


def test_builds_what_the_orm_builds(matches):
    for match_id in matches:
        with CaptureQueriesContext(connection) as queries:
            cached = seats_with_match(match_id)
            described_cached = [described(s) for s in cached]
        assert len(queries) == 1  # the match and the players came with the seats
        assert described_cached == [described(s) for s in seats_of(match_id).order_by("index")]
        assert all(not s._state.adding and s._state.db == "default" for s in cached)
    assert seats_with_match(0) == []


def test_builds_its_sql_once_per_connection(matches, monkeypatch):
    seats_with_match(matches[0])  # its SQL built for this connection
    built_again: list[str] = []

    def as_sql(*args: object, **kwargs: object) -> tuple[str, tuple[()]]:
        built_again.append("again")
        return "", ()

    monkeypatch.setattr("django.db.models.sql.compiler.SQLCompiler.as_sql", as_sql)
    with CaptureQueriesContext(connection) as queries:
        assert [s.match_id for s in seats_with_match(matches[1])] == [matches[1]] * 2
    assert built_again == []
    assert len(queries) == 1


def test_a_constant_parameter_is_refused(matches):
    humans_only = CachedSqlQuery(lambda match_id: seats_of(match_id).filter(bot_strategy=""))
    with pytest.raises(ValueError, match="only parameter"):
        humans_only(matches[0])


@pytest.mark.django_db(transaction=True)
def test_a_finished_threads_connection_is_not_kept():
    held = []

    def in_a_thread():
        assert seats_with_match(0) == []
        held.append(weakref.ref(connections["default"]))
        connections["default"].close()

    thread = threading.Thread(target=in_a_thread)
    thread.start()
    thread.join()
    gc.collect()
    assert held[0]() is None
