"""Two ladders of 200 bots on the production shape: how soon each round seats every online bot,
and whether people's moves slow down while it does.

    python -m benchmarks.ladders [--bots 200] [--rounds 3] [--interval 60] [--clients 8]

It starts its own PostgreSQL and Redis, ``make serve`` (two processes), one ``make worker`` (two
processes) and one ``make beat`` (:mod:`benchmarks.shape`); makes ``--bots`` bot accounts with the
ORM and joins each to two ladders, ``switch`` at tables of four and ``jacks-twos-eights`` heads-up
(so every round seats 50 + 100 matches); keeps them all online the way their feed streams would
(its own thread writes their presence every 15 s, as a web host does for the streams it holds);
and, from the first round's due time on, lets beat and the worker seat ``--rounds`` rounds an
``--interval`` apart. The bots never answer (their matches have an hour's clock), so the rounds
measure the seating alone.

Meanwhile ``--clients`` people play heads-up matches over HTTP, a move every 0.2 s each (view,
then move), from before the first round to after the last.

It prints, per round and ladder, the bots seated (every one must be, each round) and the seating
latency — from the round's due time to the ``match_started`` in the bot's feed — p50, p95 and
max; then the people's moves' p50 and p99 while a round was being seated (from its due time to
its last ``match_started``) against the rest of the run.
"""

from __future__ import annotations

import asyncio
import os
import threading
import time
from datetime import UTC, datetime
from typing import Any

from benchmarks import shape
from benchmarks.move_load import Pair, Round, make_players, move_client, new_match

LADDERS = (("switch", 4), ("jacks-twos-eights", 2))
PRESENCE_EVERY = 15.0
# The people's moves begin this long before the first round is due (the quiet baseline).
LEAD_SECONDS = 20.0
MOVE_PAUSE = 0.2


def make_ladders(bots: int, interval: int) -> tuple[list[int], list[int]]:
    """The bot accounts and the two ladders they all join; their ids."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Permission
    from django.db import connections

    from games.models import Player
    from matchmaking import services

    users = get_user_model().objects.bulk_create(
        get_user_model()(username=f"ladderbot{n}", password="!") for n in range(bots)
    )
    Player.objects.bulk_create(Player(user=user, bot=True) for user in users)
    keeper = get_user_model().objects.create_user("keeper")
    keeper.user_permissions.add(Permission.objects.get(codename="add_ladder"))
    ladders = [
        services.ladder_create(
            user=keeper, ruleset=ruleset, seats=seats, interval_seconds=interval, turn_seconds=3600
        )
        for ruleset, seats in LADDERS
    ]
    for ladder in ladders:
        for user in users:
            services.ladder_join(ladder_id=ladder.pk, user=user)
    connections.close_all()
    return [user.pk for user in users], [ladder.pk for ladder in ladders]


def keep_online(user_ids: list[int], stop: threading.Event) -> None:
    from django.db import connections
    from django.utils import timezone

    from games.services.presence import presence_write

    while not stop.is_set():
        presence_write(seen=dict.fromkeys(user_ids, timezone.now()))
        stop.wait(PRESENCE_EVERY)
    connections.close_all()


def schedule_first_round(ladder_ids: list[int], at: datetime) -> None:
    from matchmaking.models import Ladder

    Ladder.objects.filter(pk__in=ladder_ids).update(next_round_at=at)


def seatings(ladder_ids: list[int]) -> list[tuple[int, int, str, float]]:
    """(ladder, round, bot, seconds from the round's due time to its match_started), each seat."""
    from games.models import FeedEvent

    rows = FeedEvent.objects.filter(
        type="match_started", match__ladder_table__ladder_id__in=ladder_ids
    ).values_list(
        "match__ladder_table__ladder_id",
        "match__ladder_table__round",
        "player__user__username",
        "created_at",
    )
    return [(ladder, number, bot, at.timestamp()) for ladder, number, bot, at in rows]


def main() -> None:
    parser = shape.arguments(__doc__, clients=8)
    parser.add_argument("--bots", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--interval", type=int, default=60)
    args = parser.parse_args()
    settings = {**shape.UNTHROTTLED, "SWEEP_INTERVAL_SECONDS": "2"}
    with shape.PrivateServices("switch-ladders-", settings) as services:
        pairs = [Pair(tokens) for tokens in make_players(services.env, args.clients)]
        bot_ids, ladder_ids = make_ladders(args.bots, args.interval)
        stop = threading.Event()
        presence = threading.Thread(target=keep_online, args=(bot_ids, stop), daemon=True)
        presence.start()
        web, url = shape.web(services.env, services.logs, 2)
        worker = shape.worker(services.env, services.logs, "ladders")
        beat = shape.beat(services.env, services.logs)
        try:
            first_due = time.time() + LEAD_SECONDS + 10
            schedule_first_round(ladder_ids, datetime.fromtimestamp(first_due, tz=UTC))
            dues = [first_due + n * args.interval for n in range(args.rounds)]
            until = dues[-1] + args.interval / 2
            result = Round("moves")
            moves = asyncio.run(timed_moves(url, pairs, until, result))
        finally:
            stop.set()
            for process in (beat, worker, web):
                process.stop()
        report(args, ladder_ids, dues, seatings(ladder_ids), moves)


async def timed_moves(
    url: str, pairs: list[Pair], until: float, result: Round
) -> list[tuple[float, float]]:
    """(wall-clock start, seconds) of every person's move until ``until`` (a wall-clock time)."""
    import aiohttp

    moves: list[tuple[float, float]] = []
    async with aiohttp.ClientSession(url) as session:
        await shape.wait_until_healthy(session)
        await asyncio.gather(*(new_match(session, pair) for pair in pairs))
        deadline = time.monotonic() + (until - time.time())

        async def one(pair: Pair) -> None:
            while time.monotonic() < deadline:
                before = len(result.move_seconds)
                started = time.time()
                await move_client(session, pair, result, time.monotonic() + 1e-3, MOVE_PAUSE)
                if len(result.move_seconds) > before:
                    moves.append((started, result.move_seconds[-1]))

        await asyncio.gather(*(one(pair) for pair in pairs))
    return moves


def report(
    args: Any,
    ladder_ids: list[int],
    dues: list[float],
    seated: list[tuple[int, int, str, float]],
    moves: list[tuple[float, float]],
) -> None:
    print(
        f"{args.bots} bots on {len(ladder_ids)} ladders ({', '.join(f'{r}/{s}' for r, s in LADDERS)}),"
        f" {args.rounds} rounds {args.interval} s apart; {os.cpu_count()} cores,"
        f" load {shape.load_average()}"
    )
    busy: list[tuple[float, float]] = []
    every: list[float] = []
    for number, due in enumerate(dues, start=1):
        ends = []
        for (ruleset, seats), ladder in zip(LADDERS, ladder_ids, strict=True):
            mine = [at - due for lad, rnd, _, at in seated if lad == ladder and rnd == number]
            bots = len({bot for lad, rnd, bot, _ in seated if lad == ladder and rnd == number})
            every += mine
            if mine:
                ends.append(due + max(mine))
                print(
                    f"  round {number}, {ruleset}/{seats}: {bots} of {args.bots} bots seated;"
                    f" after the due time p50 {shape.percentile(mine, 0.5):.2f} s,"
                    f" p95 {shape.percentile(mine, 0.95):.2f} s, max {max(mine):.2f} s"
                )
            else:
                print(f"  round {number}, {ruleset}/{seats}: nobody seated")
        busy.append((due, max(ends, default=due)))
    if every:
        print(f"  every seat: p95 {shape.percentile(every, 0.95):.2f} s after its round was due")
    during = [s * 1000 for at, s in moves if any(a <= at <= b for a, b in busy)]
    quiet = [s * 1000 for at, s in moves if not any(a - 1 <= at <= b + 1 for a, b in busy)]
    for name, values in (("while seating", during), ("otherwise", quiet)):
        if values:
            print(
                f"  people's moves {name}: {len(values)} moves, p50"
                f" {shape.percentile(values, 0.5):.0f} ms, p99 {shape.percentile(values, 0.99):.0f} ms"
            )


if __name__ == "__main__":
    main()
