"""Backup and restore as docs/operations.md runs them: ``pg_dump`` of a database taken in the middle
of a tournament — one table scored, one match half played — restored with ``pg_restore`` into a
fresh database, where play goes on: the match moves on from where it was, its events and feeds
number on without a gap, the next round is seated, standings are what they were and then grow.

Redis is not part of a backup (it holds queued tasks, rate-limit counters and the sweep's marks,
all of which the sweeps and clients make again), so nothing of it is restored here."""

from __future__ import annotations

import subprocess
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import connection

from games import selectors
from games import services as games
from games.models import FeedEvent, Match, MatchEvent
from switchgame import bots
from tests.faults.conftest import needs
from tests.tournaments.conftest import end_match, won_by_seat_0
from tournaments import services
from tournaments.models import Round, Tournament
from tournaments.powers import directors
from tournaments.selectors import standings_table

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="pg_dump and pg_restore"),
]

# Without voluntary draws a four-player deal of `switch` lasts a few hundred moves at most.
HOUSE_RULES = {"may_draw_voluntarily": False}


def postgres_args() -> list[str]:
    db = connection.settings_dict
    return ["-h", str(db["HOST"]), "-p", str(db["PORT"] or 5432), "-U", str(db["USER"])]


@pytest.fixture
def restored_into_fresh_database(tmp_path: Path) -> Iterator[Any]:
    """A function that dumps the test database (``pg_dump -Fc``), restores the dump into a new
    database (``pg_restore``) and points the test's connection at it; dropped afterwards."""
    for program in ("pg_dump", "pg_restore", "createdb", "dropdb"):
        needs(program)
    settings_dict = connection.settings_dict
    original = settings_dict["NAME"]
    fresh = f"{original}_restored_{uuid.uuid4().hex[:8]}"

    def restore() -> None:
        dump = tmp_path / "switch.dump"
        subprocess.run(["pg_dump", *postgres_args(), "-Fc", "-f", str(dump), original], check=True)
        subprocess.run(["createdb", *postgres_args(), fresh], check=True)
        subprocess.run(
            [
                "pg_restore",
                *postgres_args(),
                "--no-owner",
                "--exit-on-error",
                "-d",
                fresh,
                str(dump),
            ],
            check=True,
        )
        connection.close()
        settings_dict["NAME"] = fresh

    yield restore
    connection.close()
    settings_dict["NAME"] = original
    subprocess.run(["dropdb", *postgres_args(), "--if-exists", fresh], check=True)


def play_moves(match_id: int, moves: int | None = None) -> int:
    """Play the seat to move as a client would (the heuristic bot choosing from its view), up to
    ``moves`` moves or to the end of the match; returns how many were played."""
    played = 0
    while moves is None or played < moves:
        loaded = selectors.match_load(match_id=match_id)
        seat = loaded.seat_to_move
        if loaded.match.status != Match.Status.ACTIVE or seat is None:
            break
        assert seat.player is not None  # every seat of this tournament is a person
        action = bots.choose_action(
            "heuristic",
            game=loaded.match.game,
            view=loaded.game.view(seat.index),
            facts=bots.MatchFacts(
                loaded.match.ruleset, loaded.match.seat_count, seat.index, HOUSE_RULES
            ),
            seed=f"{match_id}:{loaded.match.version}",
        )
        games.action_apply(match_id=match_id, user=seat.player, action=action)
        played += 1
    return played


def standings(tournament: Tournament) -> list[dict[str, Any]]:
    return standings_table(tournament=tournament).rows


def test_a_dump_taken_mid_tournament_restores_and_play_goes_on(
    restored_into_fresh_database, tasks_in_process
):
    organiser = get_user_model().objects.create_user("desk", is_staff=True)
    organiser.groups.add(directors())  # a tournament director
    tournament = services.tournament_create(
        creator=organiser,
        name="Restored night",
        ruleset="switch",
        scoring="french",
        planned_rounds=2,
        table_size=4,
        deals_per_round=1,
        seating_mode="balanced",
        options=HOUSE_RULES,
    )
    for number in range(8):
        player = get_user_model().objects.create_user(f"p{number}")
        services.entry_register(
            tournament_id=tournament.pk, user=player, entrant=services.Entrant()
        )
    first_round = services.tournament_start(tournament_id=tournament.pk, user=organiser)
    scored, playing = [t.match_id for t in first_round.tables.order_by("number")]
    assert playing is not None  # an online table has its match
    end_match(scored, won_by_seat_0(4, 12))
    assert play_moves(playing, 20) == 20
    half_played = Match.objects.get(pk=playing)
    feed_before = FeedEvent.objects.count()
    standings_before = standings(tournament)

    restored_into_fresh_database()

    assert Match.objects.get(pk=playing).version == half_played.version
    assert FeedEvent.objects.count() == feed_before
    assert standings(tournament) == standings_before
    assert play_moves(playing) > 0
    assert Match.objects.get(pk=playing).status == Match.Status.FINISHED
    seqs = list(MatchEvent.objects.filter(match_id=playing).values_list("seq", flat=True))
    assert seqs == list(range(1, len(seqs) + 1))  # numbered on from the dump without a gap
    assert Tournament.objects.get(pk=tournament.pk).status == Tournament.Status.ROUND_COMPLETE
    second_round = services.round_next(tournament_id=tournament.pk, user=organiser)
    for table in second_round.tables.all():
        end_match(table.match_id, won_by_seat_0(4, 5))
    assert Tournament.objects.get(pk=tournament.pk).status == Tournament.Status.FINISHED
    assert Round.objects.filter(tournament=tournament).count() == 2
    after = standings(tournament)
    assert len(after) == len(standings_before) == 8
    assert after != standings_before  # the second round counted
