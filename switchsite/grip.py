"""GRIP, the protocol of the connection tier (Pushpin; docs/decisions/2026-11-28-connection-tier.md).

Behind the tier, a view that waits answers once and hands the request over: "hold it on these
channels". Pushpin then holds it and a publisher sends it what is published to the channels. This
module is the protocol alone — who is the tier, the hold instructions, the items to publish, the
signed links by which the tier asks again — and knows nothing of matches or feeds.

- **Who is the tier.** Pushpin signs every request it passes on with a JWT (HS256, key
  ``GRIP_KEY``) in ``Grip-Sig``. Only a request whose signature checks out and has not expired is
  answered with hold instructions (:func:`from_tier`); any other is served as before, in
  process (``make run``, a web host reached directly).
- **Holds.** :func:`hold_stream` (Server-Sent Events) and :func:`hold_response` (a long poll's
  answer, kept until a publication or the timeout) set the ``Grip-*`` headers on the answer.
  A channel's ``prev-id`` is the last ``seq`` the answer gave: a publication that does not follow on
  (``prev-id`` of the item ≠ the hold's) makes the tier ask Django again, so nothing is skipped.
- **The next link.** A stream's answer names the URL by which the tier recovers a gap; the tier
  requests it without the client's headers, so it carries who asked, signed (:func:`tier_link`,
  read back by :func:`link_holder`): the user and the token, valid for ``LINK_MAX_AGE``.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import logging
import math
import time
import urllib.request
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from django.conf import settings
from django.core import signing
from django.http import HttpRequest, HttpResponse

logger = logging.getLogger(__name__)

LINK_SALT = "switchsite.tier-link"
# A next link older than this is refused: the stream ends and its client reconnects.
LINK_MAX_AGE = 24 * 3600
PUBLISH_TIMEOUT_SECONDS = 5.0
# Pushpin asks every held stream's next link again after this many seconds (120 unless told), all
# the streams of a path at once: a day, so that it does not, every two minutes, ask Django again
# for every stream it holds. It asks when a publication does not follow on, which is what counts.
NEXT_LINK_TIMEOUT = 86400


# --- who is the tier ----------------------------------------------------------------------------


def _b64decode(part: str) -> bytes:
    return base64.urlsafe_b64decode(part + "=" * (-len(part) % 4))


def signed_by_tier(token: str, key: str, now: float) -> bool:
    """Whether ``token`` is a JWT signed with ``key`` (HS256) whose ``exp`` is still ahead."""
    try:
        header_b64, claims_b64, signature_b64 = token.split(".")
        expected = hmac.new(
            key.encode(), f"{header_b64}.{claims_b64}".encode(), hashlib.sha256
        ).digest()
        if not hmac.compare_digest(expected, _b64decode(signature_b64)):
            return False
        header = json.loads(_b64decode(header_b64))
        claims = json.loads(_b64decode(claims_b64))
    except ValueError:  # not three parts, not base64, not JSON
        return False
    expires = claims.get("exp") if isinstance(claims, dict) else None
    return (
        isinstance(header, dict)
        and header.get("alg") == "HS256"
        and isinstance(expires, int | float)
        and expires > now
    )


def from_tier(request: HttpRequest) -> bool:
    """Whether the connection tier passed this request on (and will hold it if asked)."""
    key = settings.GRIP_KEY
    signature = request.headers.get("Grip-Sig")
    return bool(key and signature and signed_by_tier(signature, key, time.time()))


# --- holds ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Channel:
    """A channel to hold a request on; ``prev_id`` the last id the answer gave of it."""

    name: str
    prev_id: int | None = None

    def header(self) -> str:
        return self.name if self.prev_id is None else f"{self.name}; prev-id={self.prev_id}"


def _channels(channels: Sequence[Channel]) -> str:
    return ", ".join(channel.header() for channel in channels)


def hold_stream(
    response: HttpResponse, channels: Sequence[Channel], *, next_link: str, keepalive: float
) -> HttpResponse:
    """Keep ``response`` (Server-Sent Events) open on ``channels``, a comment line after
    ``keepalive`` seconds of silence; ``next_link`` is asked when a publication does not follow on."""
    response["Grip-Hold"] = "stream"
    response["Grip-Channel"] = _channels(channels)
    response["Grip-Keep-Alive"] = (
        f": keepalive\\n\\n; format=cstring; timeout={math.ceil(keepalive)}"
    )
    response["Grip-Link"] = f"<{next_link}>; rel=next; timeout={NEXT_LINK_TIMEOUT}"
    return response


def hold_response(response: Any, channels: Sequence[Channel], *, timeout: float) -> Any:
    """Keep the request waiting on ``channels`` for up to ``timeout`` seconds (whole seconds, at
    least one); ``response`` — its status, headers and body — is the answer if nothing comes."""
    response["Grip-Hold"] = "response"
    response["Grip-Channel"] = _channels(channels)
    response["Grip-Timeout"] = str(max(1, math.ceil(timeout)))
    return response


def last_id(request: HttpRequest) -> int | None:
    """The last id the tier gave the held request now asking again: its ``Grip-Last: <channel>;
    last-id=<id>`` header names the one channel held with a ``prev-id``."""
    for entry in request.headers.get("Grip-Last", "").split(","):
        for parameter in entry.split(";")[1:]:
            key, _, value = parameter.strip().partition("=")
            if key == "last-id" and value.isascii() and value.isdigit():
                return int(value)
    return None


# --- next links ----------------------------------------------------------------------------------


def tier_link(path: str, *, user_id: int, token_id: int | None, **query: Any) -> str:
    """``path`` with ``query`` and the signed holder, for the tier to ask again on its own."""
    holder = signing.dumps({"u": user_id, "t": token_id}, salt=LINK_SALT)
    return f"{path}?{urlencode({**query, 'tier': holder})}"


@dataclass(frozen=True)
class LinkHolder:
    user_id: int
    token_id: int | None


def link_holder(request: HttpRequest) -> LinkHolder | None:
    """Who a next link was made for, if this request is the tier following one."""
    signed = request.GET.get("tier")
    if not signed or not from_tier(request):
        return None
    try:
        holder = signing.loads(signed, salt=LINK_SALT, max_age=LINK_MAX_AGE)
    except signing.BadSignature:
        return None
    return LinkHolder(int(holder["u"]), holder["t"])


# --- publishing ----------------------------------------------------------------------------------


def item(
    channel: str,
    *,
    item_id: int,
    prev_id: int,
    stream: str | None = None,
    response: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """An item for ``channel`` that follows ``prev_id``: ``stream`` appended to its streams,
    ``response`` (``{"body-patch": …}``, a JSON Patch of the held answer's body, or ``{"action":
    "hint"}``, which makes the tier ask Django again) for its waiting long polls."""
    formats: dict[str, Any] = {}
    if stream is not None:
        formats["http-stream"] = {"content": stream}
    if response is not None:
        formats["http-response"] = response
    return {
        "channel": channel,
        "id": str(item_id),
        "prev-id": str(prev_id),
        # Published in order already: without this, an item whose prev-id Pushpin no longer
        # remembers (its channel quiet for id_cache_ttl) waits message_wait (5 s) for one.
        "no-seq": True,
        "formats": formats,
    }


HINT = {"action": "hint"}


def close_item(channel: str) -> dict[str, Any]:
    """An item that ends the streams held on ``channel``."""
    return {"channel": channel, "formats": {"http-stream": {"action": "close"}}}


def publish(items: Iterable[dict[str, Any]], urls: Iterable[str]) -> None:
    """POST ``items`` to each tier instance's publishing endpoint, in one request each; raises
    ``OSError`` if one does not take them."""
    body = json.dumps({"items": list(items)}).encode()
    for url in urls:
        request = urllib.request.Request(
            url, data=body, headers={"Content-Type": "application/json"}, method="POST"
        )
        with urllib.request.urlopen(request, timeout=PUBLISH_TIMEOUT_SECONDS) as answer:
            answer.read()
