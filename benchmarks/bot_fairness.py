"""Whether one player's server bots starve another's: the bot answer latency of a player's match,
quiet and while another player floods the workers at their fair share, in the same run.

Needs the production shape: ``DATABASE_URL`` (PostgreSQL) and ``CELERY_BROKER_URL`` (Redis, a
database of its own: its queue is emptied) set, e.g.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/switch_bench \\
    CELERY_BROKER_URL=redis://127.0.0.1:6379/13 python -m benchmarks.bot_fairness

It migrates that database and starts one worker as ``deploy/`` runs it (the prefork pool, one
process per core unless ``--concurrency``). The *player* plays heads-up ``switch`` against a
``heuristic`` bot, moving as soon as it is their turn; each of their moves is timed from its
commit to the commit of the bot's answer. The *flooder* keeps ``USER_BOT_SEATS`` server bots at
work at once: matches of ``--flood-seats`` seats, the flooder at one and ``montecarlo`` bots at the
others, the flooder moving at once whenever it is their turn (a script), a new match as soon as
one ends. The player's answers are timed first with the workers quiet, then under the flood.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import threading
import time
import uuid
from typing import Any

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "switchsite.settings")
os.environ.setdefault("SECRET_KEY", "benchmark-only")


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def answer_latencies(player: Any, moves: int, strategy: str) -> list[float]:
    """Seconds from each of ``player``'s moves to its bot's answer, over ``moves`` answers."""
    from games import selectors, services
    from games.models import Match

    latencies: list[float] = []
    while len(latencies) < moves:
        match = services.match_create(
            creator=player,
            ruleset="switch",
            seats=2,
            bots_wanted=[{"seat": 1, "strategy": strategy}],
        )
        services.match_start(match_id=match.pk, user=player)
        while len(latencies) < moves:
            loaded = selectors.match_load(match_id=match.pk)
            if loaded.match.status != Match.Status.ACTIVE:
                break
            if loaded.game.to_move != 0:
                time.sleep(0.002)
                continue
            started = time.perf_counter()
            result = services.action_apply(
                match_id=match.pk, user=player, action=loaded.game.legal_actions()[0]
            )
            if result.loaded.game.to_move != 1:
                continue  # the player plays on (or the match ended): no answer to time
            after = result.loaded.match.version
            while not Match.objects.filter(pk=match.pk, version__gt=after).exists():
                time.sleep(0.002)
            latencies.append(time.perf_counter() - started)
        Match.objects.filter(pk=match.pk, status=Match.Status.ACTIVE).update(
            status=Match.Status.ABANDONED
        )
    return latencies


class Flood(threading.Thread):
    """The flooder: matches full of ``montecarlo`` bots up to their fair share, kept going."""

    def __init__(self, flooder: Any, seats: int) -> None:
        super().__init__(name="flood", daemon=True)
        self.flooder, self.seats = flooder, seats
        self.stopping = threading.Event()
        self.matches: set[int] = set()
        self.moves = 0

    def run(self) -> None:
        from django.db import connection

        from games import selectors, services
        from games.models import Match
        from switchsite.problems import LimitReached

        bots = [{"seat": seat, "strategy": "montecarlo"} for seat in range(1, self.seats)]
        try:
            while not self.stopping.is_set():
                try:
                    match = services.match_create(
                        creator=self.flooder, ruleset="switch", seats=self.seats, bots_wanted=bots
                    )
                    services.match_start(match_id=match.pk, user=self.flooder)
                    self.matches.add(match.pk)
                except LimitReached:
                    pass  # at the fair share: play on
                for match_id in sorted(self.matches):
                    loaded = selectors.match_load(match_id=match_id)
                    if loaded.match.status != Match.Status.ACTIVE:
                        self.matches.discard(match_id)
                    elif loaded.game.to_move == 0:
                        services.action_apply(
                            match_id=match_id,
                            user=self.flooder,
                            action=loaded.game.legal_actions()[0],
                        )
                        self.moves += 1
                time.sleep(0.01)
        finally:
            Match.objects.filter(pk__in=self.matches, status=Match.Status.ACTIVE).update(
                status=Match.Status.ABANDONED
            )
            connection.close()


def versions(flooder: Any) -> int:
    """The moves played so far in the flooder's matches (each advances its match's version)."""
    from django.db.models import Sum

    from games.models import Match

    return Match.objects.filter(created_by=flooder).aggregate(moves=Sum("version"))["moves"] or 0


def report(name: str, latencies: list[float]) -> str:
    return (
        f"{name}: {len(latencies)} answers; p50 {statistics.median(latencies) * 1000:.0f} ms, "
        f"p95 {percentile(latencies, 0.95) * 1000:.0f} ms, max {max(latencies) * 1000:.0f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=40, help="answers timed in each phase")
    parser.add_argument("--concurrency", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--flood-seats", type=int, default=8)
    parser.add_argument("--strategy", default="heuristic", help="the player's bot")
    args = parser.parse_args()
    if not os.environ.get("DATABASE_URL") or not os.environ.get("CELERY_BROKER_URL"):
        sys.exit("set DATABASE_URL and CELERY_BROKER_URL (see the module docstring)")

    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from switchsite.celery import app

    call_command("migrate", verbosity=0)
    app.control.purge()
    command = [
        sys.executable,
        "-m",
        "celery",
        "-A",
        "switchsite",
        "worker",
        "--loglevel",
        "WARNING",
    ]
    worker = subprocess.Popen([*command, "--concurrency", str(args.concurrency)])
    users = get_user_model().objects
    tag = uuid.uuid4().hex[:6]
    try:
        time.sleep(5)  # the worker connects
        quiet = answer_latencies(users.create_user(f"player-{tag}"), args.moves, args.strategy)
        flooder = users.create_user(f"flooder-{tag}")
        flood = Flood(flooder, args.flood_seats)
        flood.start()
        time.sleep(10)  # the flood reaches its fair share
        began, moves_before, versions_before = time.monotonic(), flood.moves, versions(flooder)
        flooded = answer_latencies(users.create_user(f"player2-{tag}"), args.moves, args.strategy)
        seconds = time.monotonic() - began
        bot_moves = versions(flooder) - versions_before - (flood.moves - moves_before)
        flood.stopping.set()
        flood.join(timeout=60)
        print(
            f"worker: prefork, {args.concurrency} processes; flood: USER_BOT_SEATS="
            f"{settings.USER_BOT_SEATS} montecarlo bots at tables of {args.flood_seats}: "
            f"{bot_moves} of their moves in the {seconds:.0f} s timed ({bot_moves / seconds:.1f}/s)"
        )
        print(report("quiet", quiet))
        print(report("flood", flooded))
    finally:
        worker.terminate()
        worker.wait(timeout=60)


if __name__ == "__main__":
    main()
