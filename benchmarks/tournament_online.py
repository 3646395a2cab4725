"""An online round of a big bot field played out by a real Celery worker: 256 server-bot entrants
(tables of four, ruleset ``switch``, one deal a round), round 1 published, and every table played to
its end and scored by the worker.

    python -m benchmarks.tournament_online [--entrants 256] [--strategy heuristic] [--concurrency 2]

It starts its own PostgreSQL and Redis (:mod:`benchmarks.shape`) and one worker (``make worker``'s
command, ``--concurrency`` processes), creates the tournament and publishes round 1 from this
process, then waits for the round to be complete. It prints the time to publish and to finish the
round, when the first and half the tables were scored, the matches and the bots' actions, the CPU
the worker and PostgreSQL spent, the machine's load, and the standings' length.
"""

from __future__ import annotations

import os
import time
from collections import Counter
from typing import TYPE_CHECKING

from benchmarks import shape

if TYPE_CHECKING:
    from django.contrib.auth.models import User

# The events that are a seat's own action (a card played, a card drawn); the rest follow from them.
ACTION_EVENTS = ("play", "draw")


def build(entrants: int, strategy: str) -> tuple[int, User]:
    """The tournament, open with ``entrants`` bot entries: its id and its organiser."""
    import uuid

    from django.contrib.auth import get_user_model

    from tournaments import services
    from tournaments.powers import directors

    desk = get_user_model().objects.create_user(f"bench-{uuid.uuid4().hex[:8]}", is_staff=True)
    desk.groups.add(directors())  # a tournament director
    tournament = services.tournament_create(
        creator=desk,
        name=f"Online {entrants}",
        ruleset="switch",
        scoring="french",
        planned_rounds=8,
        table_size=4,
        play="online",
    )
    services.entries_register(
        tournament_id=tournament.pk,
        user=desk,
        entrants=[services.Entrant(bot=strategy, name=f"Bot {n:03}") for n in range(entrants)],
    )
    return tournament.pk, desk


def scored_tables(tournament_id: int) -> tuple[int, int]:
    """Tables of round 1 recorded (scored) so far, and in all."""
    from tournaments.models import Table

    tables = Table.objects.filter(round__tournament_id=tournament_id, round__number=1)
    return tables.filter(recorded_at__isnull=False).count(), tables.count()


def wait_until_ready(worker: shape.Process, timeout: float = 120) -> None:
    """Until the worker says it is ready (connected and consuming), so that its start-up is not
    counted."""
    deadline = time.monotonic() + timeout
    while " ready." not in worker.log.read_text(errors="replace"):
        if time.monotonic() > deadline or not worker.alive():
            raise SystemExit(f"the worker did not become ready: see {worker.log}")
        time.sleep(0.5)


def wait_for_round(tournament_id: int, started: float, timeout: float) -> tuple[int, float, float]:
    """Until round 1 is complete: its tables, and the seconds after ``started`` at which the
    first and half of them were scored."""
    from tournaments.models import Tournament

    first: float | None = None
    half: float | None = None
    while Tournament.objects.get(pk=tournament_id).status != Tournament.Status.ROUND_COMPLETE:
        done, tables = scored_tables(tournament_id)
        elapsed = time.monotonic() - started
        if done and first is None:
            first = elapsed
        if done * 2 >= tables and half is None:
            half = elapsed
        if elapsed > timeout:
            raise SystemExit(f"timed out: {done} of {tables} tables scored")
        time.sleep(1)
    tables = scored_tables(tournament_id)[1]
    last = time.monotonic() - started
    return tables, first or last, half or last


def main() -> None:
    parser = shape.arguments(__doc__)
    parser.add_argument("--entrants", type=int, default=256)
    parser.add_argument("--strategy", default="heuristic")
    parser.add_argument("--concurrency", type=int, default=2, help="the worker's processes")
    parser.add_argument("--timeout", type=float, default=1800, help="seconds to wait for the round")
    args = parser.parse_args()

    with shape.PrivateServices("switch-tournament-online-", {}) as services:
        os.environ.update(services.env)
        import django

        django.setup()
        from games.models import MatchEvent
        from tournaments import selectors
        from tournaments import services as tournament_services
        from tournaments.models import Tournament

        worker = shape.worker(services.env, services.logs, "worker", args.concurrency)
        try:
            tournament_id, desk = build(args.entrants, args.strategy)
            wait_until_ready(worker)
            print(
                f"{args.entrants} {args.strategy} bots, tables of 4, switch, one deal;"
                f" worker concurrency {args.concurrency}; load {shape.load_average()}"
            )
            worker_cpu, database_cpu = (
                shape.cpu_seconds(shape.process_group(worker.pid)),
                shape.cpu_seconds(services.postgres.pids()),
            )
            started, own_cpu = time.monotonic(), time.process_time()
            tournament_services.tournament_start(tournament_id=tournament_id, user=desk)
            published = time.monotonic() - started
            print(
                f"round 1 seated and published (matches started) in {published:.1f} s"
                f" ({time.process_time() - own_cpu:.1f} s CPU in this process)"
            )
            tables, first, half = wait_for_round(tournament_id, started, args.timeout)
            finished = time.monotonic() - started
            worker_cpu = shape.cpu_seconds(shape.process_group(worker.pid)) - worker_cpu
            database_cpu = shape.cpu_seconds(services.postgres.pids()) - database_cpu
            events = Counter(
                MatchEvent.objects.filter(
                    match__tournament_table__round__tournament_id=tournament_id
                ).values_list("type", flat=True)
            )
            rows = selectors.standings_table(
                tournament=Tournament.objects.get(pk=tournament_id)
            ).rows
            played = Counter(row["played"] for row in rows)
            actions = sum(events[kind] for kind in ACTION_EVENTS)
            print(
                f"round 1 complete in {finished:.1f} s (first table scored at {first:.1f} s,"
                f" half at {half:.1f} s): {tables} matches, {actions} bot actions"
                f" ({actions / finished:.0f} a second; {sum(events.values())} events)"
            )
            print(
                f"CPU meanwhile: worker {worker_cpu:.1f} s, PostgreSQL {database_cpu:.1f} s;"
                f" load {shape.load_average()}; standings hold {len(rows)} entries"
                f" (rounds played: {dict(played)})"
            )
        finally:
            worker.stop()


if __name__ == "__main__":
    main()
