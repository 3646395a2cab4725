"""A player's export over many matches: memory stays flat (docs/performance.md).

Needs a throw-away PostgreSQL database, e.g.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/switch_export python -m benchmarks.export_memory

It migrates the database, plays one match of a player against a bot through the services (a
practice match, so that every run plays the same game), copies it ``--matches`` times with SQL
(match, seats, events and the record deals kept when it ended), then reads the player's export as
the endpoint does (``games.archive.finished_records`` chunk by chunk, each record serialised to a
line) and prints the process's resident memory and the Python heap's peak after every ``--every``
records, the lines' total size and the time taken.
``--replay`` copies no record deals, so that every record is replayed from its log (matches that
ended before record deals were kept); ``--no-tracemalloc`` measures throughput without the heap
tracing, which slows Python.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import time
import tracemalloc

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "switchsite.settings")
os.environ.setdefault("SECRET_KEY", "benchmark-only")


PRACTICE_SEED = "00" * 31 + "2a"


def rss_mib() -> float:
    with open("/proc/self/status") as status:
        line = next(line for line in status if line.startswith("VmRSS:"))
    return int(line.split()[1]) / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=10_000)
    parser.add_argument("--every", type=int, default=1_000)
    parser.add_argument("--replay", action="store_true", help="copy no record deals")
    parser.add_argument("--no-tracemalloc", dest="trace", action="store_false")
    args = parser.parse_args()

    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connection

    from games import archive, selectors, services
    from games.models import Match
    from switchsite.encoding import json_bytes

    call_command("migrate", "--noinput", verbosity=0)
    users = get_user_model().objects
    user = users.create_user(f"exporter{random.randrange(10**9)}")
    services.player_profile(user=user)
    match = services.match_create(  # a practice match: the same game on every run
        creator=user,
        ruleset="switch",
        seats=2,
        bots_wanted=[{"seat": 1, "strategy": "random"}],
        practice_seed=PRACTICE_SEED,
    )
    services.match_start(match_id=match.pk, user=user)
    rng = random.Random(1)
    while True:
        loaded = selectors.match_load(match_id=match.pk)
        if loaded.match.status != Match.Status.ACTIVE:
            break
        if loaded.game.to_move == 0:
            legal = loaded.game.legal_actions()
            plays = [a for a in legal if a["action"] == "play"]
            action = rng.choice(plays or legal)
            services.action_apply(match_id=match.pk, user=user, action=action)
        else:
            services.bot_turns_play(match_id=match.pk, limit=1)
    services.record_deals_keep(match_id=match.pk)  # as the task published at its end does
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM games_matchevent WHERE match_id = %s", [match.pk])
        (events,) = cursor.fetchone()
        columns = ", ".join(
            connection.ops.quote_name(f.column)
            for f in Match._meta.concrete_fields
            if f.column != "id"
        )
        cursor.execute(
            f"""
            WITH copies AS (
                INSERT INTO games_match ({columns})
                SELECT {columns}
                FROM games_match, generate_series(2, %s) WHERE id = %s
                RETURNING id
            ), seats AS (
                INSERT INTO games_seat (match_id, index, player_id, bot_strategy, strikes, resigned)
                SELECT copies.id, s.index, s.player_id, s.bot_strategy, s.strikes, s.resigned
                FROM copies CROSS JOIN games_seat s WHERE s.match_id = %s
            )
            INSERT INTO games_matchevent (match_id, seq, type, seat, data, private, created_at)
            SELECT copies.id, e.seq, e.type, e.seat, e.data, e.private, e.created_at
            FROM copies CROSS JOIN games_matchevent e WHERE e.match_id = %s
            """,
            [args.matches, match.pk, match.pk, match.pk],
        )
        if not args.replay:  # each copy's record deals: the player's seat leads to every copy
            cursor.execute(
                """
                INSERT INTO games_recorddeals (match_id, deals)
                SELECT s.match_id, r.deals FROM games_seat s CROSS JOIN games_recorddeals r
                WHERE s.player_id = %s AND s.match_id <> %s AND r.match_id = %s
                """,
                [user.pk, match.pk, match.pk],
            )
    how = "replayed from their logs" if args.replay else "with their record deals kept"
    print(f"{args.matches} finished matches of {events} events each, {how}")

    if args.trace:
        tracemalloc.start()
    start, size, count, after = time.perf_counter(), 0, 0, 0
    print(f"before: RSS {rss_mib():.0f} MiB")
    while chunk := archive.finished_records(user_id=user.pk, after=after):
        for _, record in chunk:
            size += len(json_bytes(record)) + 1
            count += 1
            if count % args.every == 0:
                _, peak = tracemalloc.get_traced_memory()
                heap = f", heap peak {peak / 2**20:.1f} MiB" if args.trace else ""
                took = time.perf_counter() - start
                print(
                    f"{count:>6} records, {size / 2**20:7.1f} MiB sent: RSS {rss_mib():.0f} MiB"
                    f"{heap}, {took:.1f} s ({count / took:.0f} records/s)"
                )
        after, _ = chunk[-1]
    maxrss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    took = time.perf_counter() - start
    print(
        f"done: {count} records in {took:.1f} s ({count / took:.0f} records/s);"
        f" max RSS {maxrss:.0f} MiB"
    )


if __name__ == "__main__":
    main()
