"""Time from a human's move to the bot's answer being applied, through the broker and a worker.

Needs the production shape: ``DATABASE_URL`` (PostgreSQL) and ``CELERY_BROKER_URL`` (Redis) set, e.g.

    DATABASE_URL=postgres://postgres:postgres@127.0.0.1:5432/switch_bench \\
    CELERY_BROKER_URL=redis://127.0.0.1:6379/13 python -m benchmarks.bot_latency --strategy heuristic

It migrates that database, starts one worker process (solo pool), plays heads-up ``switch`` matches
human v bot, and prints the median and 99th percentile of move → bot-move-committed latency.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
import uuid

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "switchsite.settings")
os.environ.setdefault("SECRET_KEY", "benchmark-only")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--strategy", default="heuristic")
    parser.add_argument("--moves", type=int, default=300, help="human moves to time")
    args = parser.parse_args()
    if not os.environ.get("DATABASE_URL") or not os.environ.get("CELERY_BROKER_URL"):
        sys.exit("set DATABASE_URL and CELERY_BROKER_URL (see the module docstring)")

    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from games import selectors, services
    from games.models import Match

    call_command("migrate", verbosity=0)
    worker = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "switchsite",
            "worker",
            "--pool",
            "solo",
            "--loglevel",
            "WARNING",
        ],
    )
    try:
        time.sleep(3)  # let the worker connect
        human = get_user_model().objects.create_user(f"bench-{uuid.uuid4().hex[:8]}")
        latencies: list[float] = []
        rng_index = 0
        while len(latencies) < args.moves:
            match = services.match_create(
                creator=human,
                ruleset="switch",
                seats=2,
                bots_wanted=[{"seat": 1, "strategy": args.strategy}],
            )
            services.match_start(match_id=match.pk, user=human)
            while len(latencies) < args.moves:
                loaded = selectors.match_load(match_id=match.pk)
                if loaded.match.status != Match.Status.ACTIVE:
                    break
                if loaded.game.to_move != 0:
                    time.sleep(0.001)
                    continue
                legal = loaded.game.legal_actions()
                rng_index += 1
                started = time.perf_counter()
                result = services.action_apply(
                    match_id=match.pk, user=human, action=legal[rng_index % len(legal)]
                )
                after = result.loaded.match.version
                if result.loaded.game.to_move != 1:
                    continue  # the human plays on (or the match ended): no bot answer to time
                while Match.objects.filter(pk=match.pk, version__gt=after).count() == 0:
                    time.sleep(0.0005)
                latencies.append(time.perf_counter() - started)
        latencies.sort()
        p99 = latencies[min(len(latencies) - 1, round(0.99 * len(latencies)))]
        print(
            f"{args.strategy}: {len(latencies)} bot answers; median {statistics.median(latencies) * 1000:.1f} ms, "
            f"p99 {p99 * 1000:.1f} ms (move applied → bot move committed, Redis + 1 worker)"
        )
    finally:
        worker.terminate()
        worker.wait(timeout=30)


if __name__ == "__main__":
    main()
