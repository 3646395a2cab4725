"""How long a table takes to answer a click on a throttled phone: Debian's Chromium at 390×844
with its CPU slowed four times and DevTools' "Slow 4G" network, against the production shape.

    python -m benchmarks.table_click [--clicks 30] [--cpu 4] [--workers 2]

It starts its own PostgreSQL and Redis (:mod:`benchmarks.shape`), ``make serve`` and one worker
(the bots play there, as in production), gathers the static files as a deployment does, registers a
player and creates a heads-up ``switch`` match against a random bot through the API, then opens its
table in Chromium (Playwright) with the throttling on and clicks a legal move — a card rather than
a draw — whenever it is the player's turn, until ``--clicks`` or the match's end (then another
match). For each click it measures in the page, from the click: the first thing the page shows (the
move's buttons wait, "Sending your move…"), and the table drawn as the server answered
(``data-version`` changed). It also times the table's first load until a move can be clicked, and
counts the bytes that load transferred. Figures go to docs/performance.md ("The web client").
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import time
import urllib.request
from typing import Any

from benchmarks import shape

PHONE = {"width": 390, "height": 844}
# DevTools' "Slow 4G" (its throttling presets): 150 ms of latency, 1.6 Mbit/s down, 750 kbit/s up.
SLOW_4G = {
    "offline": False,
    "latency": 150,
    "downloadThroughput": 1.6 * 1024 * 1024 / 8,
    "uploadThroughput": 750 * 1024 / 8,
}
PASSWORD = "a long benchmark phrase"

# In the page: click the move's button; resolve with the milliseconds until the page first
# changed, and until it drew the answer (a new data-version).
CLICK = """(move) => new Promise((resolve) => {
  const root = document.getElementById("table");
  const before = root.dataset.version;
  const button = [...root.querySelectorAll("button[data-move]")].find((b) => b.dataset.move === move);
  let shown = null;
  const start = performance.now();
  const watch = new MutationObserver(() => {
    shown ??= performance.now() - start;
    if (root.dataset.version !== before) {
      watch.disconnect();
      resolve([shown, performance.now() - start]);
    }
  });
  watch.observe(root, {subtree: true, childList: true, attributes: true, characterData: true});
  button.click();
})"""


def api(base: str, method: str, path: str, body: Any = None, token: str = "") -> Any:
    request = urllib.request.Request(
        f"{base}/api/v1{path}",
        method=method,
        data=None if body is None else json.dumps(body).encode(),
        headers={
            "Content-Type": "application/json",
            **({"Authorization": f"Token {token}"} if token else {}),
        },
    )
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.load(answer)


def new_match(base: str, token: str) -> int:
    match = api(
        base,
        "POST",
        "/matches/",
        {"ruleset": "switch", "seats": 2, "bots": [{"seat": 1, "strategy": "random"}]},
        token,
    )
    api(base, "POST", f"/matches/{match['id']}/start/", {}, token)
    return int(match["id"])


def choose(moves: list[dict[str, Any]]) -> dict[str, Any]:
    """A card rather than a draw: a play answers with more to draw (the pile, the hand)."""
    return min(moves, key=lambda move: (move["action"] != "play", json.dumps(move, sort_keys=True)))


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def main(argv: list[str] | None = None) -> None:
    parser = shape.arguments(__doc__ or "", workers=2)
    parser.add_argument("--clicks", type=int, default=30, help="clicks measured")
    parser.add_argument(
        "--cpu", type=float, default=4, help="Chromium's CPU slowed this many times"
    )
    options = parser.parse_args(argv)

    from playwright.sync_api import sync_playwright

    executable = shape.chromium_path()
    if executable is None:
        raise SystemExit("Chromium is not installed (apt-get install chromium)")
    with shape.PrivateServices("table-click-", shape.UNTHROTTLED) as services:
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
            token = api(base, "POST", "/players/", {"username": "phone", "password": PASSWORD})[
                "token"
            ]
            measure(base, token, executable, shape.CHROMIUM_FLAGS, options, sync_playwright)
        finally:
            worker.stop()
            server.stop()


def measure(
    base: str, token: str, executable: str, flags: list[str], options: Any, sync_playwright: Any
) -> None:
    shown: list[float] = []
    drawn: list[float] = []
    loads: list[tuple[float, int]] = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable, args=flags)
        context = browser.new_context(viewport=PHONE, base_url=base, is_mobile=True, has_touch=True)
        context.add_init_script(
            f"localStorage.setItem('switch.play.token', {json.dumps(token)});"
            "localStorage.setItem('switch.play.username', 'phone');"
        )
        page = context.new_page()
        cdp = context.new_cdp_session(page)
        cdp.send("Network.enable")
        cdp.send("Network.emulateNetworkConditions", SLOW_4G)
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": options.cpu})
        while len(drawn) < options.clicks:
            match = new_match(base, token)
            started = time.monotonic()
            page.goto(f"/play/matches/{match}/")
            table = page.locator("#table")
            page.locator(
                "#table button[data-move]:enabled, #table[data-status=finished]"
            ).first.wait_for(timeout=60_000)
            transferred = page.evaluate(
                "performance.getEntriesByType('resource').concat(performance.getEntriesByType('navigation'))"
                ".reduce((sum, entry) => sum + (entry.transferSize || 0), 0)"
            )
            loads.append(((time.monotonic() - started) * 1000, int(transferred)))
            while len(drawn) < options.clicks:
                page.locator(
                    "#table[data-status=finished], #table[data-to-move='0'] button[data-move]:enabled"
                ).first.wait_for(timeout=60_000)
                if table.get_attribute("data-status") != "active":
                    break
                moves = [
                    json.loads(b.get_attribute("data-move") or "{}")
                    for b in table.locator("button[data-move]:enabled").all()
                ]
                if not moves:
                    continue
                first, answered = page.evaluate(
                    CLICK, json.dumps(choose(moves), separators=(",", ":"))
                )
                shown.append(first)
                drawn.append(answered)
        browser.close()
    print(f"CPU ×{options.cpu:g}, Slow 4G (150 ms, 1.6 Mbit/s down), 390×844: {len(drawn)} clicks")
    for name, values in (("first change shown", shown), ("answer drawn", drawn)):
        print(
            f"  {name}: median {statistics.median(values):.0f} ms, "
            f"p90 {percentile(values, 0.9):.0f} ms, max {max(values):.0f} ms"
        )
    first_load, transferred = loads[0]
    print(
        f"  first load until a move can be clicked: {first_load:.0f} ms, {transferred:,} bytes transferred"
    )
    if len(loads) > 1:
        print(
            f"  later loads (cached): median {statistics.median(load for load, _ in loads[1:]):.0f} ms"
        )


if __name__ == "__main__":
    main()
