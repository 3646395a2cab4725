"""The calls a bot makes, typed with the schema's own types (``switchbot.schema``): the JSON the
service answers, as it arrives. Reads and writes that may simply be sent again are tried again
until the server answers (``Transport``); a move is not — its caller reads the match afresh first
(``Runner.play``)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, cast

from switchbot.feed import Cursor, follow
from switchbot.schema import (
    ActionRequest,
    Challenge,
    FeedEvent,
    FeedPage,
    Ladder,
    MatchCreateRequest,
    MatchSummary,
    Membership,
    MoveResult,
    Player,
    Registered,
    View,
)
from switchbot.transport import ApiError, Transport, new_key


class Client:
    """The service at ``server`` (``http://host:port``), as the player whose token it holds."""

    def __init__(self, transport: Transport) -> None:
        self.transport = transport

    def sign_in(self, username: str, password: str, *, bot_account: bool = True) -> str:
        """Register ``username`` (a bot account unless told otherwise), or sign in if it exists;
        keep and return its token."""
        credentials = {"username": username, "password": password}
        try:
            answer = self.transport.request(
                "POST", "/players/", body={**credentials, "bot": bot_account}
            )
        except ApiError as error:
            if error.code != "username_taken":
                raise
            answer = self.transport.request("POST", "/auth/token/", body=credentials)
        self.transport.token = str(cast(Registered, answer)["token"])
        return self.transport.token

    def me(self) -> Player:
        return cast(Player, self.transport.request("GET", "/players/me/"))

    def match(self, match_id: int) -> View:
        return cast(View, self.transport.request("GET", f"/matches/{match_id}/"))

    def move(self, match_id: int, action: ActionRequest, *, key: str) -> MoveResult:
        """Post one action, once: a failure is raised for the caller to read the match again."""
        answer = self.transport.request(
            "POST", f"/matches/{match_id}/moves/", body=action, key=key, retry=False
        )
        return cast(MoveResult, answer)

    def create_match(self, settings: MatchCreateRequest) -> View:
        return cast(View, self.write("/matches/", settings))

    def start_match(self, match_id: int) -> View:
        return cast(View, self.write(f"/matches/{match_id}/start/"))

    def active_matches(self) -> list[MatchSummary]:
        """The matches being played in which the bot has a seat."""
        return cast(list[MatchSummary], self.pages("/matches/", status="active", player="me"))

    def challenge(self, challenge_id: int) -> Challenge:
        return cast(Challenge, self.transport.request("GET", f"/challenges/{challenge_id}/"))

    def pending_challenges(self) -> list[Challenge]:
        return cast(list[Challenge], self.pages("/challenges/", status="pending"))

    def accept_challenge(self, challenge_id: int) -> Challenge:
        return cast(Challenge, self.write(f"/challenges/{challenge_id}/accept/"))

    def decline_challenge(self, challenge_id: int, reason: str = "generic") -> Challenge:
        return cast(
            Challenge, self.write(f"/challenges/{challenge_id}/decline/", {"reason": reason})
        )

    def ladders(self) -> list[Ladder]:
        return cast(list[Ladder], self.pages("/ladders/"))

    def join_ladder(self, ladder_id: int) -> Membership:
        """Join (a bot account; joining again makes an inactive member active again)."""
        return cast(Membership, self.write(f"/ladders/{ladder_id}/join/"))

    def feed_end(self) -> Cursor:
        """A cursor after the newest entry of the bot's feed: what comes next is news. The feed
        is numbered without gaps, so its newest entry is its oldest kept one plus their count."""
        try:
            page = cast(
                FeedPage, self.transport.request("GET", "/players/me/events/", params={"limit": 1})
            )
        except ApiError as error:  # its oldest entries are gone: the 410 says where it ends
            if error.code != "cursor_expired":
                raise
            return Cursor(int(error.problem["last"]), str(error.problem["incarnation"]))
        first = page["results"][0]["seq"] if page["results"] else 1
        return Cursor(first + page["count"] - 1)  # its incarnation: the stream's answer says

    def feed(self, cursor: Cursor) -> Iterator[FeedEvent]:
        """The feed after ``cursor``, for ever (``switchbot.feed.follow``)."""
        return follow(self.transport, cursor)

    def write(self, path: str, body: Any = None) -> Any:
        """A POST under a fresh ``Idempotency-Key``, tried again with it until the server answers."""
        return self.transport.request("POST", path, body=body, key=new_key())

    def pages(self, path: str, **query: str) -> list[Any]:
        """Every item of a paginated list."""
        items: list[Any] = []
        page_number = 1
        while True:
            page = self.transport.request("GET", path, params={**query, "page": page_number})
            if isinstance(page, list):  # a list that is not paginated
                return page
            items += page["results"]
            if not page.get("next"):
                return items
            page_number += 1
