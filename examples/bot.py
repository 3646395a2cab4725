#!/usr/bin/env python3
"""A complete bot for the Switch game service, in the standard library only.

It signs up (or signs in), creates a match against the server's bots — or takes a seat in an open
match (``--join``), or waits to be challenged (``--challenges``) — then follows its own feed over
Server-Sent Events, one connection for every match it plays, and answers each ``your_turn`` with
one move chosen from the view that comes with it. That is the whole loop: every decision the bot
must take arrives as a ``your_turn``. It accepts every challenge it gets, prints what it does, and
stops when ``--matches`` matches have ended.

    python3 examples/bot.py --username robo --password 'a long secret'      # switch, 2 seats
    python3 examples/bot.py ... --ruleset jacks-twos-eights --seats 4 --bots heuristic
    python3 examples/bot.py ... --ruleset abbott --seats 4                    # Abbott's Switch
    python3 examples/bot.py ... --join            # sit down at the newest open match instead
    python3 examples/bot.py ... --challenges      # wait for challenges and play them

Its play is simple on purpose (docs/api.md, "A bot in ten minutes"): it plays a card (in Abbott's
Switch, takes one) when it can, agrees when asked to end an Abbott hand, and otherwise does the
first thing it is allowed to.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any


class CursorExpired(Exception):
    """410 ``cursor_expired``: the feed cannot go on from the bot's cursor (the server's database
    was restored from a backup, or old entries were cleared away). ``problem`` says from where."""

    def __init__(self, problem: dict[str, Any]) -> None:
        super().__init__(problem["detail"])
        self.problem = problem


class Api:
    """JSON over HTTP with the bot's token."""

    def __init__(self, server: str) -> None:
        self.base = server.rstrip("/") + "/api/v1"
        self.token = ""
        # The database incarnation the feed's numbers belong to (docs/api.md, "Restores"): sent
        # back with the cursor, so that a cursor from before a restore is refused, not misread.
        self.incarnation = ""

    def request(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=data, method=method)
        request.add_header("Content-Type", "application/json")
        if self.token:
            request.add_header("Authorization", f"Token {self.token}")
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return response.status, json.load(response)
        except urllib.error.HTTPError as error:  # a problem document: {"code", "detail", ...}
            return error.code, json.load(error)

    def sign_in(self, username: str, password: str) -> None:
        credentials = {"username": username, "password": password}
        status, body = self.request("POST", "/players/", credentials)
        if status == 409:  # username_taken: it is us, from an earlier run
            status, body = self.request("POST", "/auth/token/", credentials)
        if status not in (200, 201):
            sys.exit(f"cannot sign in: {body.get('detail')}")
        self.token = body["token"]

    def feed(self, after: int) -> Iterator[dict[str, Any]]:
        """The bot's feed as Server-Sent Events, from after ``after``, until the server ends the
        stream (it does every minute or so; the caller reconnects with the last ``seq``)."""
        query = f"?incarnation={self.incarnation}" if self.incarnation else ""
        request = urllib.request.Request(self.base + "/players/me/stream/" + query)
        request.add_header("Authorization", f"Token {self.token}")
        request.add_header("Last-Event-ID", str(after))
        try:
            stream = urllib.request.urlopen(request, timeout=90)
        except urllib.error.HTTPError as error:
            if error.code == 410:
                raise CursorExpired(json.load(error)) from None
            raise
        with stream:
            self.incarnation = stream.headers["Switch-Incarnation"]
            data = []
            for raw in stream:
                line = raw.decode().rstrip("\n")
                if line.startswith("data:"):
                    data.append(line[5:].strip())
                elif not line and data:  # a blank line ends an event
                    yield json.loads("\n".join(data))
                    data = []


def choose(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """Any object of ``legal_moves`` can be posted back as it is; prefer getting rid of cards
    (shedding) or taking one (Abbott), and agree when asked to end an Abbott hand."""
    moves = view["legal_moves"]
    if view["game"] == "abbott":
        if {"action": "decline_end"} in moves:  # asked to agree to end the hand: agree
            return {"action": "propose_end"}
        takes = [m for m in moves if m["action"] == "move" and view["grid"][m["to"][0]][m["to"][1]]]
        steps = [m for m in moves if m["action"] in ("move", "pass")]
        return rng.choice(takes or steps or moves)
    plays = [m for m in moves if m["action"] == "play"]
    return rng.choice(plays or moves)


def describe(move: dict[str, Any]) -> str:
    return " ".join(str(value) for key, value in move.items() if key != "expected_version")


class Bot:
    def __init__(self, api: Api, username: str, rng: random.Random) -> None:
        self.api = api
        self.username = username
        self.rng = rng

    def answer(self, view: dict[str, Any]) -> None:
        """One move for a ``your_turn``, posted with the version it was chosen at."""
        move = {**choose(view, self.rng), "expected_version": view["version"]}
        status, body = self.api.request("POST", f"/matches/{view['id']}/moves/", move)
        if status == 201:
            print(f"match {view['id']} v{view['version']}: {describe(move)}")
        else:  # stale_version: the match moved on, and a newer your_turn is on its way
            print(
                f"match {view['id']} v{view['version']}: {body.get('code')}: {body.get('detail')}"
            )

    def create(
        self, ruleset: str, seats: int, strategy: str, target: int | None, practice_seed: str | None
    ) -> int:
        bots = [{"seat": seat, "strategy": strategy} for seat in range(1, seats)]
        settings = {"ruleset": ruleset, "seats": seats, "bots": bots, "target": target}
        if practice_seed:
            settings["practice_seed"] = practice_seed
        status, match = self.api.request("POST", "/matches/", settings)
        if status != 201:
            sys.exit(f"cannot create the match: {match.get('code')}: {match.get('detail')}")
        print(
            f"created match {match['id']}: {ruleset}, you at seat 0, {strategy} bots at 1–{seats - 1}"
        )
        status, body = self.api.request("POST", f"/matches/{match['id']}/start/")
        if status != 200:
            sys.exit(f"cannot start match {match['id']}: {body.get('code')}: {body.get('detail')}")
        return int(match["id"])

    def join(self) -> int:
        _, lobby = self.api.request("GET", "/matches/?open=true")
        if not lobby["results"]:
            sys.exit("no open match to join")
        match_id = int(lobby["results"][0]["id"])
        status, body = self.api.request("POST", f"/matches/{match_id}/join/")
        print(f"joined match {match_id}: {status} {body.get('detail', '')}")
        return match_id

    def accept(self, challenge_id: int, challenger: str, ruleset: str) -> None:
        print(f"challenged by {challenger} to {ruleset}: accepting")
        self.api.request("POST", f"/challenges/{challenge_id}/accept/")

    def catch_up(self) -> None:
        """Answer what was waiting for this bot before it started following its feed (say, from
        before a restart): challenges not yet answered, and matches where it is to move."""
        _, pending = self.api.request("GET", "/challenges/?status=pending")
        for challenge in pending["results"]:
            mine = [i for i in challenge["to"] if i["player"] == self.username]
            if mine and mine[0]["answer"] is None:
                self.accept(challenge["id"], challenge["from"], challenge["ruleset"])
        _, playing = self.api.request("GET", "/matches/?status=active&player=me")
        for match in playing["results"]:
            _, view = self.api.request("GET", f"/matches/{match['id']}/")
            if view["legal_moves"]:
                self.answer(view)

    def play(self, after: int, matches_wanted: int) -> None:
        """Follow the feed from after ``after`` until ``matches_wanted`` matches have ended."""
        ended = 0
        while True:
            try:
                for event in self.api.feed(after):
                    after = event["seq"]
                    kind, data = event["type"], event["data"]
                    if kind == "your_turn":
                        self.answer(data["view"])
                    elif kind == "challenge":
                        self.accept(data["challenge"], data["from"], data["ruleset"])
                    elif kind == "match_end":
                        ended += 1
                        outcome = data.get("result") or data
                        print(f"match {data['match']} ended: {outcome}")
                        if ended >= matches_wanted:
                            return
            except CursorExpired as expired:
                # Go on from the feed's end as it is now, after reading what may have been missed.
                print(f"{expired}: catching up")
                self.api.incarnation = expired.problem["incarnation"]
                after = expired.problem["last"]
                self.catch_up()
            except (urllib.error.URLError, ConnectionError, TimeoutError) as error:
                print(f"stream interrupted ({error}); reconnecting")
                time.sleep(1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--server", default="http://127.0.0.1:8000")
    parser.add_argument("--username", required=True)
    parser.add_argument("--password", required=True)
    parser.add_argument("--ruleset", default="switch", help="the match to create (GET /rulesets/)")
    parser.add_argument("--seats", type=int, default=2, help="seats of the match to create")
    parser.add_argument("--bots", default="random", help="the server bots' strategy")
    parser.add_argument("--target", type=int, default=None, help="Abbott: the total to play to")
    start = parser.add_mutually_exclusive_group()
    start.add_argument("--join", action="store_true", help="take a seat in an open match")
    start.add_argument("--challenges", action="store_true", help="wait to be challenged")
    parser.add_argument("--matches", type=int, default=1, help="stop after this many end")
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument(
        "--practice-seed",
        default=None,
        help="64 hex digits: a practice match, whose deals and server bots the seed fixes "
        "(with --seed, the same game again)",
    )
    args = parser.parse_args()

    api = Api(args.server)
    api.sign_in(args.username, args.password)
    bot = Bot(api, args.username, random.Random(args.seed))
    # The feed is numbered 1, 2, 3… without gaps: start after its newest entry, before anything
    # happens, rather than replaying the feed of earlier runs.
    _, feed = api.request("GET", "/players/me/events/?limit=1")
    after = feed["count"]
    bot.catch_up()
    if args.join:
        bot.join()
    elif args.challenges:
        print(f"waiting for challenges to {args.username}")
    else:
        bot.create(args.ruleset, args.seats, args.bots, args.target, args.practice_seed)
    bot.play(after, args.matches)


if __name__ == "__main__":
    main()
