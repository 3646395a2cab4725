"""The loop that plays a ``Bot``: it follows the bot's feed, answers every ``your_turn`` with one
move, accepts (or declines) challenges, and joins a ladder if told to — and keeps doing so through
a server's restarts, rate limits and busy matches.

A move goes out once under its own ``Idempotency-Key``. If it fails in a way that may pass (the
server unreachable, 429, 503, 409 ``match_busy``, a proxy's 502/504), the runner waits, reads the
match afresh and decides again: the same move under the same key while the match is where it was
(so that a move that did land is not played twice), a new choice once it has moved on, nothing
once it is no longer the bot's turn. Without that read a refused move would wait for ever: no new
``your_turn`` comes for a match in which nothing happened."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, cast

from switchbot.bot import Bot
from switchbot.client import Client
from switchbot.feed import Cursor, CursorExpired
from switchbot.schema import ActionRequest, FeedEvent, View
from switchbot.transport import ApiError, Unreachable, new_key

log = logging.getLogger("switchbot")

# Refusals that say the match moved on without the move: a newer `your_turn` is on its way.
OVERTAKEN = frozenset({"stale_version", "not_your_turn", "match_not_active"})
# Refusals of the move itself: the bot chose something the server does not take.
REFUSED_MOVE = frozenset({"illegal_move", "invalid_action"})


@dataclass
class Runner:
    """Plays ``bot`` as the player of ``client``'s token until ``matches`` matches have ended (for
    ever without it)."""

    bot: Bot
    client: Client
    ladder: int | None = None
    matches: int | None = None
    accept_challenges: bool = True
    ended: int = 0
    # The last version of each match the bot has answered: a your_turn seen twice is played once.
    answered: dict[int, int] = field(default_factory=dict)
    username: str = ""

    def run(self) -> None:
        self.username = self.client.me()["username"]
        cursor = self.client.feed_end()
        if self.ladder is not None:
            self.client.join_ladder(self.ladder)
            log.info("joined ladder %s", self.ladder)
        self.catch_up()
        while not self.done():
            try:
                for event in self.client.feed(cursor):
                    self.handle(event, cursor)
                    if self.done():
                        return
            except CursorExpired as expired:
                log.warning("%s: reading the matches again", expired)
                cursor.resume(expired.problem)
                self.answered.clear()  # after a restore the versions are the backup's
                self.catch_up()

    def done(self) -> bool:
        return self.matches is not None and self.ended >= self.matches

    def catch_up(self) -> None:
        """Answer what waits for the bot without a feed entry it will read: challenges not yet
        answered, and matches in which it is to act (after a start, a restart or a 410)."""
        if self.accept_challenges:
            for challenge in self.client.pending_challenges():
                mine = [i for i in challenge["to"] if i["player"] == self.username]
                if mine and mine[0]["answer"] is None:
                    with going_on(f"challenge {challenge['id']}"):
                        self.answer_challenge(challenge["id"])
        for summary in self.client.active_matches():
            with going_on(f"match {summary['id']}"):
                self.play(self.client.match(summary["id"]))

    def handle(self, event: FeedEvent, cursor: Cursor) -> None:
        kind, data = event["type"], cast(dict[str, Any], event["data"])
        if kind == "your_turn" and not cursor.is_history(event):
            with going_on(f"match {data['match']}"):
                self.play(cast(View, data["view"]))
        elif kind == "challenge" and self.accept_challenges and not cursor.is_history(event):
            with going_on(f"challenge {data['challenge']}"):
                self.answer_challenge(int(data["challenge"]))
        elif kind == "match_started":
            log.info("match %s started: seat %s", data["match"], data["seat"])
        elif kind == "match_end":
            self.ended += 1
            result = data.get("result") or {}
            outcome = f"seat {result['winner']} won" if "winner" in result else "abandoned"
            log.info("match %s ended: %s", data["match"], outcome)

    def answer_challenge(self, challenge_id: int) -> None:
        challenge = self.client.challenge(challenge_id)
        if challenge["status"] != "pending":
            return
        answer = "accepting" if self.bot.accepts(challenge) else "declining"
        log.info("challenged by %s to %s: %s", challenge["from"], challenge["ruleset"], answer)
        if answer == "accepting":
            self.client.accept_challenge(challenge_id)
        else:
            self.client.decline_challenge(challenge_id)

    def play(self, view: View) -> None:
        """One move for the bot's turn in ``view``'s match, until it is played or overtaken; a
        refusal that trying again cannot cure is raised."""
        match_id, attempt = view["id"], 0
        move: ActionRequest | None = None
        key = ""
        while view["status"] == "active" and view["legal_moves"]:
            version = view["version"]
            if self.answered.get(match_id, -1) >= version:
                return  # answered already (a your_turn delivered twice)
            if move is None or move.get("expected_version") != version:
                move, key = self.decide(view), new_key()
            try:
                self.client.move(match_id, move, key=key)
            except ApiError as error:
                if error.code in OVERTAKEN:
                    log.info("match %s v%s: %s", match_id, version, error.code)
                    return
                if error.code in REFUSED_MOVE and move != self.fallback(view):
                    log.error(
                        "match %s v%s: %s; playing the first legal move", match_id, version, error
                    )
                    move, key = self.fallback(view), new_key()
                    continue
                if not error.transient:
                    raise  # for the caller: logged (going_on), or the end (401)
                failure: ApiError | Unreachable = error
            except Unreachable as error:
                failure = error
            else:
                self.answered[match_id] = version
                log.info("match %s v%s: %s", match_id, version, describe(move))
                return
            attempt += 1
            self.client.transport.pause(attempt, failure, f"match {match_id} v{version}")
            view = self.client.match(match_id)  # where the match is now

    def decide(self, view: View) -> ActionRequest:
        """The bot's choice, with the version it was chosen at; if the bot fails, the first legal
        move (so that a bug costs a move, not a turn clock's strike)."""
        try:
            chosen = dict(self.bot.choose(view))
        except Exception:
            log.exception(
                "match %s v%s: choose() failed; playing the first legal move",
                view["id"],
                view["version"],
            )
            return self.fallback(view)
        return cast(ActionRequest, {**chosen, "expected_version": view["version"]})

    @staticmethod
    def fallback(view: View) -> ActionRequest:
        return cast(ActionRequest, {**view["legal_moves"][0], "expected_version": view["version"]})


@contextmanager
def going_on(what: str) -> Iterator[None]:
    """A refusal about one match or challenge (it ended, it is not the bot's, the server failed on
    it) is logged, and the bot goes on with the rest; a refused token (401) stops it."""
    try:
        yield
    except ApiError as error:
        if error.status == 401:
            raise
        log.error("%s: %s", what, error)


def describe(move: ActionRequest) -> str:
    """``play 8S``, ``play JH C``, ``draw``: the action, then what it carries."""
    rest = [
        str(value) for name, value in move.items() if name not in ("action", "expected_version")
    ]
    return " ".join([str(move["action"]), *rest])
