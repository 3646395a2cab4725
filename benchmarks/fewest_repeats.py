"""How long the desk takes to state the true fewest repeats of a round, and how often it can.

    python -m benchmarks.fewest_repeats

Club nights drawn as the desk draws them (``switchgame.tournament.seating.draw_round``, the mode
and table size of each case, every round re-planned after the ones before), then the report of the
next round (``meetings.repeat_report``): the exact fewest repeats and least cost by the
branch-and-bound search (``switchgame/tournament/fewest.py``), within its budget of branches.
Prints, per field size, the CPU time of the report (median and worst), and how many reports were
proven (the true minima) or left at the lower bound. Seeded: the same cases every run.
"""

from __future__ import annotations

import random
import statistics
import time
from collections import defaultdict

from switchgame.tournament.meetings import RoundSeating, SeatingHistory, repeat_report
from switchgame.tournament.seating import SeatingMode, TableBounds, draw_round

CASES_PER_FIELD = 12
FIELDS = (8, 12, 16, 20, 24, 32)


def main() -> None:
    rng = random.Random(2026_11_28)
    rows: dict[int, list[tuple[float, bool]]] = defaultdict(list)
    for size in FIELDS:
        for _ in range(CASES_PER_FIELD):
            table_size = rng.choice((3, 4, 4, 5))
            mode = rng.choice((SeatingMode.BALANCED, SeatingMode.SWISS))
            bounds = TableBounds(2, 7, table_size)
            entries = list(range(size))
            played: list[RoundSeating[int]] = []
            for _round in range(rng.randint(1, 5)):
                drawn = draw_round(
                    entries,
                    mode=mode,
                    bounds=bounds,
                    history=SeatingHistory.from_rounds(played),
                    seed=rng.randrange(2**32),
                )
                played.append(drawn.rounds[0])
            history = SeatingHistory.from_rounds(played[:-1])
            started = time.process_time()
            report = repeat_report([played[-1]], history)
            rows[size].append((time.process_time() - started, report.proven))
    print("entrants  reports  CPU median  CPU worst  proven")
    for size, measured in rows.items():
        cpu = [seconds for seconds, _ in measured]
        proven = sum(done for _, done in measured)
        print(
            f"{size:8}  {len(measured):7}  {statistics.median(cpu) * 1000:8.1f} ms"
            f"  {max(cpu) * 1000:7.1f} ms  {proven:3} of {len(measured)}"
        )


if __name__ == "__main__":
    main()
