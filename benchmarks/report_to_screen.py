"""From a player's confirmation on a phone to the projector showing the new standings, and the
requests a recorded result costs the room, against the production shape.

    python -m benchmarks.report_to_screen [--rounds 6] [--workers 2]

It starts its own PostgreSQL and Redis (:mod:`benchmarks.shape`), ``make serve`` and one worker,
gathers the static files as a deployment does, makes a director (``createsuperuser``) and through
the API an offline, public tournament of eight guests at tables of four whose results come from
the players' phones (``self_report: confirm``). Debian's Chromium then opens the projector
(``/tournaments/N/screen/``) and each guest's seat link at 390×844, each in a browser context
of its own, as the room's devices would. For every
table of every round, the guest in seat 1 reports the result on their page (the form: who went out,
the tallies) and the guest in seat 2 presses "Confirm" when their page shows the report; the time
is taken from that press until the projector shows the table recorded (its standings are swapped
in with it: one fetch of the page, ``tournaments/live.js``). Every request of every page is counted
from the report's first keystroke to the projector showing it. Figures go to docs/performance.md
("Results from the players' phones").
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time
import urllib.request
from typing import Any

from benchmarks import shape
from benchmarks.table_click import percentile

PHONE = {"width": 390, "height": 844}
GUESTS = ["Ann", "Bea", "Cal", "Dee", "Eve", "Fay", "Gus", "Hal"]
DIRECTOR = "director"
PASSWORD = "a long benchmark phrase"


def api(base: str, method: str, path: str, token: str, body: Any = None) -> Any:
    request = urllib.request.Request(
        f"{base}/api/v1{path}",
        method=method,
        data=None if body is None else json.dumps(body).encode(),
        headers={"Content-Type": "application/json", "Authorization": f"Token {token}"},
    )
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.load(answer)


def director_token(base: str, env: dict[str, str]) -> str:
    subprocess.run(
        [sys.executable, "manage.py", "createsuperuser", "--noinput", "-v0"],
        cwd=shape.PROJECT_ROOT,
        env={
            **env,
            "DJANGO_SUPERUSER_USERNAME": DIRECTOR,
            "DJANGO_SUPERUSER_EMAIL": "director@example.invalid",
            "DJANGO_SUPERUSER_PASSWORD": PASSWORD,
        },
        check=True,
    )
    request = urllib.request.Request(
        f"{base}/api/v1/auth/token/",
        data=json.dumps({"username": DIRECTOR, "password": PASSWORD}).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=30) as answer:
        return str(json.load(answer)["token"])


def club_night(base: str, token: str, rounds: int) -> tuple[int, dict[str, str]]:
    """The tournament, started, and each guest's seat link."""
    created = api(
        base,
        "POST",
        "/tournaments/",
        token,
        {
            "name": "Benchmark night",
            "ruleset": "switch",
            "scoring": "french",
            "rounds": rounds,
            "table_size": 4,
            "deals_per_round": 1,
            "play": "offline",
            "public": True,
            "self_report": "confirm",
        },
    )
    tournament = int(created["id"])
    api(
        base,
        "POST",
        f"/tournaments/{tournament}/register/",
        token,
        {"entries": [{"guest": g} for g in GUESTS]},
    )
    detail = api(base, "POST", f"/tournaments/{tournament}/start/", token)
    return tournament, {entry["name"]: entry["play_url"] for entry in detail["entries"]}


def main(argv: list[str] | None = None) -> None:
    parser = shape.arguments(__doc__ or "", workers=2)
    parser.add_argument("--rounds", type=int, default=6, help="rounds played (two tables each)")
    options = parser.parse_args(argv)

    from playwright.sync_api import sync_playwright

    executable = shape.chromium_path()
    if executable is None:
        raise SystemExit("Chromium is not installed (apt-get install chromium)")
    with shape.PrivateServices("report-screen-", shape.UNTHROTTLED) as services:
        subprocess.run(
            [sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"],
            cwd=shape.PROJECT_ROOT,
            env=services.env,
            check=True,
        )
        server, base = shape.web(services.env, services.logs, options.workers)
        worker = shape.worker(services.env, services.logs, "worker", concurrency=1)
        server.start()
        worker.start()
        try:
            shape.wait_for_port(int(base.rsplit(":", 1)[1]), 60, "the web tier")
            token = director_token(base, dict(services.env))
            tournament, links = club_night(base, token, options.rounds)
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(
                    executable_path=executable, args=shape.CHROMIUM_FLAGS
                )
                measure(browser, base, token, tournament, links, options.rounds)
                browser.close()
        finally:
            worker.stop()
            server.stop()


def measure(
    browser: Any, base: str, token: str, tournament: int, links: dict[str, str], rounds: int
) -> None:
    # One browser context a phone, as in the room: a browser holds at most six connections to a
    # server, and each of these pages keeps one open (its feed's stream).
    requests = [0]
    contexts = []

    def device() -> Any:
        context = browser.new_context(base_url=base)
        context.set_default_timeout(120_000)  # a shared two-core machine: slow is not wrong
        context.on("request", lambda _request: requests.__setitem__(0, requests[0] + 1))
        contexts.append(context)
        return context.new_page()

    screen = device()
    screen.goto(f"/tournaments/{tournament}/screen/")
    phones = {}
    for name, url in links.items():
        phones[name] = device()
        phones[name].set_viewport_size(PHONE)
        phones[name].goto(url)
    latencies: list[float] = []
    per_result: list[int] = []
    for number in range(1, rounds + 1):
        detail = api(base, "GET", f"/tournaments/{tournament}/", token)
        played = next(r for r in detail["rounds"] if r["number"] == number)
        for table in played["tables"]:
            names = [seat["name"] for seat in table["seats"]]
            reporter, confirmer = phones[names[0]], phones[names[1]]
            heading = f"Benchmark night: round {number}, table {table['number']}"
            reporter.get_by_role("heading", name=heading).wait_for(timeout=60_000)
            screen.locator(f"#screen-tables [data-table='{table['number']}']").wait_for()
            before = requests[0]
            reporter.get_by_label("Went out").select_option(names[0])
            for name in names[1:]:
                reporter.get_by_label(f"Tally left to {name}").fill("10")
            reporter.get_by_role("button", name="Report this result").click()
            confirm = confirmer.get_by_role("button", name="Confirm")
            confirm.wait_for(timeout=60_000)
            started = time.monotonic()
            confirm.click()
            screen.locator(f"#screen-tables [data-table='{table['number']}'].recorded").wait_for(
                timeout=60_000
            )
            latencies.append((time.monotonic() - started) * 1000)
            per_result.append(requests[0] - before)
        if number < rounds:
            api(base, "POST", f"/tournaments/{tournament}/next-round/", token)
    for context in contexts:
        context.close()
    print(
        f"{len(latencies)} results confirmed on a phone, {len(links)} phones and a projector open, "
        f"CPU {os.cpu_count()} cores"
    )
    print(
        f"  confirmation to projector: median {statistics.median(latencies):.0f} ms, "
        f"p95 {percentile(latencies, 0.95):.0f} ms, max {max(latencies):.0f} ms"
    )
    print(
        f"  requests per recorded result (every page of the room): median "
        f"{statistics.median(per_result):.0f}, max {max(per_result)}"
    )


if __name__ == "__main__":
    main()
