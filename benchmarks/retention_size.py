"""The database's size per 1,000 finished four-player matches, before and after retention.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/switch_retention \\
        python -m benchmarks.retention_size [--matches 1000]

It migrates that (fresh) database, then plays ``--matches`` one-deal ``switch`` matches of four
accounts each through the services, as clients do (each move an ``action_apply`` by the seat to
move, chosen by the heuristic bot from its view: every move writes its events and the players'
``your_turn`` feed entries with their views), with one ``Idempotency-Key`` row per move as clients
that send them leave. It then measures the tables (``pg_total_relation_size``: rows, indexes and
TOAST, after ``VACUUM FULL`` so that the figures are the data and not free space), dates the
matches and keys back past ``EVENT_RETENTION_DAYS`` and 24 hours, runs the retention sweep to the
end and measures again. Figures are scaled to 1,000 matches.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from datetime import timedelta

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "switchsite.settings")
os.environ.setdefault("SECRET_KEY", "benchmark-only")

TABLES = (
    "games_match",
    "games_seat",
    "games_matchevent",
    "games_feedevent",
    "games_archivedlog",
    "games_idempotentrequest",
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=1000)
    args = parser.parse_args()
    if not os.environ.get("DATABASE_URL", "").startswith("postgres"):
        sys.exit("set DATABASE_URL to a fresh PostgreSQL database (see the module docstring)")

    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connection
    from django.utils import timezone

    from games import selectors, services
    from games.models import Match
    from switchgame import bots
    from switchsite.models import IdempotentRequest

    call_command("migrate", verbosity=0)
    users = [get_user_model().objects.create_user(f"size-{n}") for n in range(4)]
    for user in users:
        services.player_profile(user=user)
    started = time.monotonic()
    moves = 0
    for number in range(args.matches):
        match = services.match_create(creator=users[0], ruleset="switch", seats=4)
        for user in users[1:]:
            services.match_join(match_id=match.pk, user=user)
        services.match_start(match_id=match.pk, user=users[0])
        while True:
            loaded = selectors.match_load(match_id=match.pk)
            seat = loaded.seat_to_move
            if loaded.match.status != Match.Status.ACTIVE or seat is None:
                break
            action = bots.choose_action(
                "heuristic",
                game=loaded.match.game,
                view=loaded.game.view(seat.index),
                facts=bots.MatchFacts(loaded.match.ruleset, 4, seat.index, loaded.match.options),
                seed=f"{match.pk}:{loaded.match.version}",
            )
            result = services.action_apply(match_id=match.pk, user=users[seat.index], action=action)
            IdempotentRequest.objects.create(
                user=users[seat.index],
                key=f"{match.pk}-{moves}",
                fingerprint="0" * 64,
                response_status=201,
                response_body={"view": selectors.match_view(loaded=result.loaded, seat=seat.index)},
            )
            moves += 1
        if (number + 1) % 50 == 0:
            print(f"{number + 1} matches, {moves} moves, {time.monotonic() - started:.0f} s")
    scale = 1000 / args.matches

    def sizes() -> dict[str, int]:
        with connection.cursor() as cursor:
            cursor.execute(f"VACUUM FULL ANALYZE {', '.join(TABLES)}")
            cursor.execute(
                "SELECT relname, pg_total_relation_size(oid) FROM pg_class WHERE relname = ANY(%s)",
                [list(TABLES)],
            )
            return {name: int(size) for name, size in cursor.fetchall()}

    before = sizes()
    Match.objects.update(
        finished_at=timezone.now() - timedelta(days=settings.EVENT_RETENTION_DAYS + 1)
    )
    IdempotentRequest.objects.update(created_at=timezone.now() - timedelta(hours=25))
    purge_started = time.monotonic()
    archived = 0
    while done := services.old_events_purge(seconds=60)[0]:
        archived += done
    from switchsite.tasks import purge_expired_idempotency_keys

    keys = purge_expired_idempotency_keys.apply().get()
    purge_seconds = time.monotonic() - purge_started
    after = sizes()

    print(
        f"\n{args.matches} four-player matches, {moves} moves ({moves / args.matches:.0f} per match)"
    )
    print(
        f"retention sweep: {archived} matches archived, {keys} keys removed in {purge_seconds:.1f} s"
    )
    print(f"{'table':26} {'before':>12} {'after':>12}   (MB per 1,000 matches)")
    for name in TABLES:
        print(f"{name:26} {before[name] * scale / 1e6:12.2f} {after[name] * scale / 1e6:12.2f}")
    total_before, total_after = sum(before.values()), sum(after.values())
    print(f"{'total':26} {total_before * scale / 1e6:12.2f} {total_after * scale / 1e6:12.2f}")
    print(f"load: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
