"""The event streams and long polls behind the connection tier (Pushpin): audiences, holds, items.

An **audience** is everyone who sees a match's log alike, or a feed: a seat's view as its occupant
holds it (a channel per seat *and* occupant, so that a subscription left from before a seat changed
hands can never receive another player's cards), the spectators', a player's feed. Each has a
channel; every committed event is rendered once per audience and published to its channel
(:mod:`games.publisher`), the item's ``id`` the last ``seq`` it carries and its ``prev-id`` the
``seq`` before its first, so that the tier hands it only to holds that have everything before it.

The views answer a request from the tier as they answer any other — authentication, rights,
cursor, ``410`` — and then, instead of waiting themselves, hand it over (:func:`stream_answer`,
:func:`hold_long_poll`). A stream's answer carries the events after the cursor and the hold on
its audience's channel and on its token's (a ``close`` there ends it when the token is revoked);
its next link lets the tier ask again, on the holder's behalf, for whatever a gap left out.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.http import HttpResponse
from django.utils import timezone

from games.api import waiting
from games.services.presence import presence_write
from switchsite import grip
from switchsite.api.schema import INCARNATION_HEADER

# Long polls asking for fewer events than this wait on their audience's hint channel: an item may
# carry more events than they asked for, so a publication there makes the tier ask Django again,
# which answers with their ``limit``. Items of more events than this are hints on both channels.
BODY_LIMIT = 20
# At most this many events in one answer; if more remain, the tier asks for the rest at once.
ANSWER_EVENTS = 1000


def seat_channel(match_id: int, seat: int, user_id: int) -> str:
    return f"m{match_id}.s{seat}.u{user_id}"


def spectator_channel(match_id: int) -> str:
    return f"m{match_id}.v"


def feed_channel(user_id: int) -> str:
    return f"f{user_id}"


def token_channel(token_id: int) -> str:
    return f"k{token_id}"


def hint_channel(channel: str) -> str:
    return f"{channel}.h"


def match_channel(match_id: int, seat: int | None, user: User) -> str:
    """The channel of ``user``'s audience of the match: their seat's, or the spectators'."""
    return spectator_channel(match_id) if seat is None else seat_channel(match_id, seat, user.pk)


def sse_text(events: Sequence[dict[str, Any]]) -> str:
    return "".join(waiting.sse_message(event) for event in events)


def long_poll_patch(events: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """What turns a held long poll's empty page into the page of ``events``."""
    return [
        {"op": "replace", "path": "/count", "value": len(events)},
        {"op": "replace", "path": "/results", "value": list(events)},
    ]


def audience_items(
    channel: str, events: Sequence[dict[str, Any]], *, prev_id: int
) -> list[dict[str, Any]]:
    """One commit's ``events`` as ``channel``'s audience sees them: an item for its streams and
    long polls, and the hint for the long polls that wait on its hint channel."""
    last = events[-1]["seq"]
    small = len(events) <= BODY_LIMIT
    return [
        grip.item(
            channel,
            item_id=last,
            prev_id=prev_id,
            stream=sse_text(events),
            response={"body-patch": long_poll_patch(events)} if small else grip.HINT,
        ),
        grip.item(hint_channel(channel), item_id=last, prev_id=prev_id, response=grip.HINT),
    ]


# --- the views' side ----------------------------------------------------------------------------


def seen(user: User) -> None:
    """The user is online now (their feed asked through the tier: :mod:`games.presence` counts
    only what a web process holds)."""
    presence_write(seen={user.pk: timezone.now()})


def holder(request: Any) -> tuple[User, int | None]:
    """The requesting user, and their token's id (``None`` for a session)."""
    return request.user, (request.auth.pk if request.auth is not None else None)


def stream_answer(
    request: Any,
    *,
    events: list[dict[str, Any]],
    over: bool,
    channel: str,
    after: int,
    of_incarnation: str,
) -> HttpResponse:
    """The answer to a stream opened (or asked again) through the tier: the events after the
    cursor, then — unless the stream is over — the hold on ``channel`` after the last of them."""
    recovering = grip.last_id(request) is not None
    text = ("" if recovering else f"retry: {waiting.RECONNECT_MILLISECONDS}\n\n") + sse_text(events)
    response = HttpResponse(text, content_type="text/event-stream")
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"
    response[INCARNATION_HEADER] = of_incarnation
    last = events[-1]["seq"] if events else after
    user, token_id = holder(request)
    link = grip.tier_link(
        request.path, user_id=user.pk, token_id=token_id, after=last, incarnation=of_incarnation
    )
    if len(events) >= ANSWER_EVENTS:  # more to come: the tier asks for it at once
        response["Grip-Link"] = f"<{link}>; rel=next"
        return response
    if over:
        return response
    channels = [grip.Channel(channel, last)]
    if token_id is not None:
        channels.append(grip.Channel(token_channel(token_id)))
    return grip.hold_stream(
        response, channels, next_link=link, keepalive=settings.SSE_KEEPALIVE_SECONDS
    )


def stream_cursor(request: Any, resume_point: Callable[[], int]) -> int:
    """Where a stream's answer starts: after the last id the tier gave, when the tier asks again;
    else after the client's ``Last-Event-ID`` or ``after``."""
    last = grip.last_id(request)
    return last if last is not None else resume_point()


def hold_long_poll(response: Any, *, channel: str, after: int, limit: int, wait: float) -> Any:
    """Hold a long poll that found nothing after ``after`` on its audience's channel (the hint
    channel when it asked for fewer events than an item may carry)."""
    held_on = channel if limit >= BODY_LIMIT else hint_channel(channel)
    return grip.hold_response(response, [grip.Channel(held_on, after)], timeout=wait)
