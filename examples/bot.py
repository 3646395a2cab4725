#!/usr/bin/env python3
"""A complete bot for the Switch game service, in the standard library only.

It signs up (or logs in), then follows its own feed over Server-Sent Events — one connection for
every match it plays — and answers each ``your_turn`` from the view that comes with it. It accepts
every challenge it gets, and with ``--join`` takes a seat in an open match first. It stops after
``--matches`` matches have ended.

    python examples/bot.py --server http://127.0.0.1:8000 --username robo --password 'a long secret'
    python examples/bot.py ... --join          # sit down at the newest open match as well

Its play is simple on purpose (docs/api.md, "A bot in ten minutes"): it plays a card (or, in
Abbott's Switch, takes one) when it can, and otherwise does the first thing it is allowed to.
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


class Api:
    """JSON over HTTP with the bot's token."""

    def __init__(self, server: str) -> None:
        self.base = server.rstrip("/") + "/api/v1"
        self.token = ""

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

    def events(self, after: int) -> Iterator[dict[str, Any]]:
        """The bot's feed as Server-Sent Events, from after ``after``, until the server ends the
        stream (it does every minute or so; the caller reconnects)."""
        request = urllib.request.Request(self.base + "/players/me/stream/")
        request.add_header("Authorization", f"Token {self.token}")
        request.add_header("Last-Event-ID", str(after))
        with urllib.request.urlopen(request, timeout=90) as stream:
            data = []
            for raw in stream:
                line = raw.decode().rstrip("\n")
                if line.startswith("data:"):
                    data.append(line[5:].strip())
                elif not line and data:  # a blank line ends an event
                    yield json.loads("\n".join(data))
                    data = []


def choose(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """Any object of ``legal_moves`` can be posted back as it is; prefer getting rid of cards."""
    moves = view["legal_moves"]
    plays = [m for m in moves if m["action"] == "play"]
    if view["game"] == "abbott":
        plays = [m for m in moves if m["action"] == "move" and view["grid"][m["to"][0]][m["to"][1]]]
    return rng.choice(plays or moves)


def answer(api: Api, view: dict[str, Any], rng: random.Random) -> None:
    move = {**choose(view, rng), "expected_version": view["version"]}
    status, body = api.request("POST", f"/matches/{view['id']}/moves/", move)
    if status != 201:  # e.g. stale_version: a newer your_turn is on its way
        print(f"match {view['id']}: {body.get('code')}: {body.get('detail')}")


def play(api: Api, matches_wanted: int, rng: random.Random) -> None:
    # Start from the newest event of the feed (numbered 1, 2, 3, … without gaps), after moving in
    # any match already waiting for us, rather than replaying the feed of earlier runs.
    _, feed = api.request("GET", "/players/me/events/?limit=1")
    after, ended = feed["count"], 0
    _, mine = api.request("GET", "/matches/?status=active&player=me")
    for match in mine["results"]:
        _, view = api.request("GET", f"/matches/{match['id']}/")
        if view["legal_moves"]:
            answer(api, view, rng)
    while ended < matches_wanted:
        try:
            for event in api.events(after):
                after = event["seq"]
                kind, data = event["type"], event["data"]
                if kind == "challenge":
                    api.request("POST", f"/challenges/{data['challenge']}/accept/")
                elif kind == "your_turn":
                    answer(api, data["view"], rng)
                elif kind == "match_end":
                    ended += 1
                    print(f"match {data['match']} ended: {data.get('result') or data}")
                    if ended >= matches_wanted:
                        return
        except (urllib.error.URLError, ConnectionError, TimeoutError) as error:
            print(f"stream interrupted ({error}); reconnecting")
            time.sleep(1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--server", default="http://127.0.0.1:8000")
    parser.add_argument("--username", required=True)
    parser.add_argument("--password", required=True)
    parser.add_argument("--join", action="store_true", help="take a seat in an open match")
    parser.add_argument("--matches", type=int, default=1, help="stop after this many end")
    parser.add_argument("--seed", type=int, default=None)
    args = parser.parse_args()

    api = Api(args.server)
    api.sign_in(args.username, args.password)
    if args.join:
        _, lobby = api.request("GET", "/matches/?open=true")
        if not lobby["results"]:
            sys.exit("no open match to join")
        match_id = lobby["results"][0]["id"]
        status, body = api.request("POST", f"/matches/{match_id}/join/")
        print(f"joined match {match_id}: {status} {body.get('detail', '')}")
    play(api, args.matches, random.Random(args.seed))


if __name__ == "__main__":
    main()
