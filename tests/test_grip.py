"""The connection tier's protocol (switchsite.grip) and the notifications' seq ranges, without a tier."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json

import pytest
from django.test import RequestFactory

from switchsite import grip
from switchsite.serving import notifier

KEY = "tier-key"
NOW = 1_800_000_000.0


def jwt(claims: dict[str, object], *, key: str = KEY, alg: str = "HS256") -> str:
    """A JWT as Pushpin signs its Grip-Sig."""

    def part(data: bytes) -> str:
        return base64.urlsafe_b64encode(data).decode().rstrip("=")

    head = part(json.dumps({"typ": "JWT", "alg": alg}).encode())
    body = part(json.dumps(claims).encode())
    signature = hmac.new(key.encode(), f"{head}.{body}".encode(), hashlib.sha256).digest()
    return f"{head}.{body}.{part(signature)}"


@pytest.mark.parametrize(
    ("token", "trusted"),
    [
        (jwt({"iss": "pushpin", "exp": NOW + 60}), True),
        (jwt({"iss": "pushpin", "exp": NOW - 1}), False),  # expired
        (jwt({"iss": "pushpin", "exp": NOW + 60}, key="another"), False),
        (jwt({"iss": "pushpin", "exp": NOW + 60}, alg="none"), False),
        (jwt({"iss": "pushpin"}), False),  # no expiry
        ("not.a.jwt", False),
        ("", False),
    ],
)
def test_only_a_fresh_signature_with_the_key_is_the_tiers(token: str, trusted: bool):
    assert grip.signed_by_tier(token, KEY, NOW) is trusted


def test_without_a_key_no_request_is_the_tiers(settings):
    request = RequestFactory().get("/", HTTP_GRIP_SIG=jwt({"exp": 4_000_000_000}, key=""))
    settings.GRIP_KEY = ""
    assert not grip.from_tier(request)
    settings.GRIP_KEY = KEY
    assert not grip.from_tier(request)
    request = RequestFactory().get("/", HTTP_GRIP_SIG=jwt({"exp": 4_000_000_000}))
    assert grip.from_tier(request)


@pytest.mark.parametrize(
    ("header", "last"),
    [
        ("m4.s0.u7; last-id=17", 17),
        ("m4.v; last-id=3, k12", 3),
        ("k12", None),
        ("m4.v; last-id=-3", None),
        ("", None),
    ],
)
def test_the_last_id_the_tier_gave_is_read_from_grip_last(header: str, last: int | None):
    assert grip.last_id(RequestFactory().get("/", HTTP_GRIP_LAST=header)) == last


def test_a_link_names_its_holder_only_to_the_tier(settings):
    settings.GRIP_KEY = KEY
    link = grip.tier_link("/api/v1/players/me/stream/", user_id=7, token_id=12, after=3)
    signature = jwt({"exp": 4_000_000_000})

    def asked(path: str) -> grip.LinkHolder | None:
        return grip.link_holder(RequestFactory().get(path, HTTP_GRIP_SIG=signature))

    assert asked(link) == grip.LinkHolder(7, 12)
    assert grip.link_holder(RequestFactory().get(link)) is None  # not through the tier
    assert asked(link.replace("tier=", "tier=x")) is None


def test_notifications_name_the_seqs_each_statement_wrote():
    assert notifier.parse_ranges("m:3@7-9,4@1-1") == ("m", [(3, (7, 9)), (4, (1, 1))])
    assert notifier.parse_ranges("k:12") == ("k", [(12, None)])
    assert notifier.parse_ranges("f:*") == ("f", None)
    assert notifier.parse_payload("m:3@7-9,4@1-1") == ("m", [3, 4])
    with pytest.raises(ValueError, match="seven"):
        notifier.parse_ranges("m:3@seven-9")
