"""Rated results replayed in date order: a new result changes only its holders, a correction is
replayed from the corrected result onwards in bounded batches, a late result replays what came
after it, the sweep finds lost work, and a replay never blocks a move (PostgreSQL)."""

from __future__ import annotations

import threading
import time
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.db import connection, connections, transaction
from django.utils import timezone

from games import services, tasks
from games.models import Match, RatedResult, Rating, RatingChange, Seat
from games.services import ratings as rating_service
from switchgame import ratings
from switchgame.protocol import HandOutcome, Outcome

pytestmark = pytest.mark.django_db
START = timezone.now() - timedelta(days=1)


def write(source: str, teams: list[list[str]], ranks: list[int], minutes: int, **kw) -> None:
    services.rated_results_write(
        game="shedding",
        results=[(source, teams, ranks)],
        played_at=START + timedelta(minutes=minutes),
        **kw,
    )


def replay_all(batch: int = rating_service.REPLAY_BATCH) -> int:
    steps = 1
    while services.ratings_replay_step(game="shedding", batch=batch):
        steps += 1
    return steps


def flat(by_holder: dict[str, tuple[float, float]]) -> dict[str, float]:
    """μ and σ per holder as one flat mapping (what ``pytest.approx`` compares)."""
    return {
        f"{holder} {name}": value
        for holder, pair in by_holder.items()
        for name, value in zip(("mu", "sigma"), pair, strict=True)
    }


def stored() -> dict[str, float]:
    return flat({r.holder: (r.mu, r.sigma) for r in Rating.objects.filter(game="shedding")})


def folded(history: list[tuple[list[list[str]], list[int]]]) -> dict[str, float]:
    """Every rating from scratch, by the pure model: what any replay must arrive at."""
    current: dict[str, ratings.Rating] = {}
    for teams, ranks in history:
        current.update(ratings.rate_match(ratings.RatedMatch(teams=teams, ranks=ranks), current))
    return flat({holder: (rating.mu, rating.sigma) for holder, rating in current.items()})


HISTORY = [
    ([["a"], ["b"]], [1, 2]),
    ([["b"], ["c"]], [1, 2]),
    ([["a"], ["c"], ["d"]], [2, 1, 3]),
    ([["c"], ["d"]], [1, 2]),
    ([["a", "b"], ["c"], ["d"]], [1, 2, 2]),
    ([["b"], ["d"]], [2, 1]),
]


def write_history(history=HISTORY) -> None:
    for number, (teams, ranks) in enumerate(history):
        write(f"match:{number}", teams, ranks, minutes=number)


def test_a_new_result_rates_only_its_own_holders():
    write_history()
    replay_all()
    before = stored()
    changes = RatingChange.objects.count()

    write("match:new", [["a"], ["c"]], [1, 2], minutes=100)
    assert replay_all() == 1

    after = stored()
    assert after == folded([*HISTORY, ([["a"], ["c"]], [1, 2])])
    assert {key.split()[0] for key in after if after[key] != before[key]} == {"a", "c"}
    assert RatingChange.objects.count() == changes + 2  # nothing else was rewritten
    assert Rating.objects.get(holder="a", game="shedding").games == 4


def test_a_correction_is_replayed_from_the_corrected_result_in_bounded_batches():
    write_history()
    replay_all()
    corrected = list(HISTORY)
    corrected[2] = ([["a"], ["c"], ["d"]], [3, 2, 1])

    with transaction.atomic():
        write("match:2b", *corrected[2], minutes=2, replacing="match:2")
    first_changes = {c.result.source: c.mu for c in RatingChange.objects.select_related("result")}
    steps = replay_all(batch=2)

    assert steps == 2  # the corrected result and the three after it, two at a time
    assert stored() == pytest.approx(folded(corrected))
    changes = {c.result.source: c.mu for c in RatingChange.objects.select_related("result")}
    assert changes["match:0"] == first_changes["match:0"]  # before the correction: untouched
    assert not RatedResult.objects.filter(applied=False).exists()
    assert not services.games_to_replay(quiet_for=timedelta(0))


def test_a_result_that_arrives_late_replays_what_came_after_it():
    write_history(HISTORY[:2] + HISTORY[3:])
    replay_all()
    late = HISTORY[2]
    write("match:late", *late, minutes=0)  # played just after the first, rated after the rest

    replay_all(batch=3)

    assert stored() == pytest.approx(folded([HISTORY[0], late, HISTORY[1], *HISTORY[3:]]))


def test_the_sweep_publishes_a_replay_whose_task_was_lost(settings):
    settings.CELERY_TASK_ALWAYS_EAGER = True
    with transaction.atomic():  # the task published after this commit is "lost": not run
        write("match:0", *HISTORY[0], minutes=0)
    assert services.games_to_replay(quiet_for=timedelta(seconds=5)) == ["shedding"]

    assert tasks.sweep_ratings() == 1
    assert tasks.sweep_ratings() == 0  # published once per stall period
    assert stored() == pytest.approx(folded(HISTORY[:1]))
    assert not services.games_to_replay(quiet_for=timedelta(0))


def ended(game: str, seats: list[str], hands: list[HandOutcome], ranking) -> Match:
    """A finished rated match (made with the ORM: what the pipeline holds when it ends one)."""
    users = get_user_model().objects
    creator = users.create_user("creator")
    match = Match.objects.create(
        ruleset="abbott" if game == "abbott" else "switch",
        game=game,
        seat_count=len(seats),
        created_by=creator,
        rated=True,
        status=Match.Status.FINISHED,
        finished_at=timezone.now(),
        result=Outcome(hands=tuple(hands), totals=(0,) * len(seats), ranking=ranking).to_json(),
    )
    for index, who in enumerate(seats):
        bot = who.startswith("bot:")
        Seat.objects.create(
            match=match,
            index=index,
            player=None if bot else users.create_user(who),
            bot_strategy=who.removeprefix("bot:") if bot else "",
        )
    return match


def test_an_abbott_match_is_rated_once_with_its_last_alliances_as_teams():
    match = ended(
        "abbott",
        ["ann", "bot:random", "cal", "dee"],
        [
            HandOutcome(1, (0, 0, 0, 0), 0, (0, 1, 2, 3), ((0,), (1,), (2,), (3,))),
            HandOutcome(2, (0, 0, 0, 0), 2, (2, 3, 0, 1), ((0, 3), (1,), (2,))),
        ],
        ranking=(2, 3, 0, 1),
    )
    rating_service.match_rated(match, list(match.seats.order_by("index")))

    (result,) = RatedResult.objects.filter(source=f"match:{match.pk}")
    users = get_user_model().objects
    ann, cal, dee = (ratings.user_holder(users.get(username=n).pk) for n in ("ann", "cal", "dee"))
    assert result.teams == [[ann, dee], ["bot:random"], [cal]]
    assert result.ranks == [2, 3, 1]  # Dee is second overall: her alliance ranks above the bot


def test_two_bots_of_one_strategy_are_rated_once_by_their_first_seat():
    match = ended(
        "shedding",
        ["ann", "bot:random", "bot:random"],
        [HandOutcome(1, (0, 0, 9), 2, (2, 0, 1), ((0,), (1,), (2,)))],
        ranking=(2, 0, 1),
    )
    rating_service.match_rated(match, list(match.seats.order_by("index")))

    (result,) = RatedResult.objects.filter(source=f"match:{match.pk}")
    assert result.teams[1:] == [["bot:random"]]
    assert result.ranks == [2, 3]  # ann second, the bot (by its seat 1) last


@pytest.mark.skipif(connection.vendor != "postgresql", reason="real row locks")
@pytest.mark.django_db(transaction=True)
def test_a_move_of_a_player_being_rated_is_not_blocked_by_the_replay(monkeypatch):
    users = get_user_model().objects
    ann, ben = users.create_user("ann"), users.create_user("ben")
    match = services.match_create(creator=ann, ruleset="switch", seats=2, players=[ann, ben])
    loaded = services.match_start(match_id=match.pk, user=ann)
    duel = [[ratings.user_holder(ann.pk)], [ratings.user_holder(ben.pk)]]
    history = [(duel, [1, 2]) for _ in range(4)]
    write_history(history)
    replay_all()
    history[1] = (duel, [2, 1])
    write("match:1b", *history[1], minutes=1, replacing="match:1")

    holding, release = threading.Event(), threading.Event()
    store = rating_service._store

    def store_then_hold(*args, **kwargs):
        store(*args, **kwargs)
        holding.set()  # the replay's transaction keeps its locks until released
        release.wait(timeout=30)

    def replay_in_its_own_connection():
        try:
            replay_all(batch=1)
        finally:
            connections.close_all()

    monkeypatch.setattr(rating_service, "_store", store_then_hold)
    replay = threading.Thread(target=replay_in_its_own_connection)
    replay.start()
    try:
        assert holding.wait(timeout=30)
        to_move = ann if loaded.game.to_move == 0 else ben
        with connection.cursor() as cursor:  # a move that waited on a lock would fail at once
            cursor.execute("SET lock_timeout = '500ms'")
        started = time.monotonic()
        moved = services.action_apply(
            match_id=match.pk, user=to_move, action=loaded.game.legal_actions()[0]
        )
        assert time.monotonic() - started < 0.5
        assert moved.loaded.match.version > loaded.match.version
    finally:
        release.set()
        replay.join(timeout=30)
    assert not replay.is_alive()
    assert stored() == pytest.approx(folded(history))
