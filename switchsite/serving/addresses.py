"""The client's address, as far as it can be known, for everything that counts or logs callers.

Behind ``TRUSTED_PROXIES`` proxies (a TLS-terminating load balancer, say) the connection comes from
the last of them, and each appends the address it was reached from to ``X-Forwarded-For``. Only
those last entries can be believed: whatever comes before them is what the client itself sent,
and a client that sends a new address each time would be a new caller each time (the reviewed
flaw: unlimited password guesses past a per-address limit). So the client is the entry
``TRUSTED_PROXIES`` places from the right — the one the outermost trusted proxy wrote — and with
no trusted proxy (the default), the connection's own peer.

:func:`with_client_address` puts it in the ASGI scope before anything reads it, so the ASGI
server's access log, Django's ``REMOTE_ADDR``, the API's throttles and the login lockouts all see
the same address.
"""

from __future__ import annotations

import ipaddress
from typing import Any

FORWARDED_FOR = b"x-forwarded-for"


def client_address(
    headers: list[tuple[bytes, bytes]], peer: str | None, trusted_proxies: int
) -> str | None:
    """The client's address: ``peer`` itself, or behind ``trusted_proxies`` proxies the address
    the outermost of them wrote into ``X-Forwarded-For`` (the leftmost entry when there are fewer;
    the peer when that entry is not an IP address)."""
    if trusted_proxies == 0:
        return peer
    entries = [
        entry.strip()
        for name, value in headers
        if name.lower() == FORWARDED_FOR
        for entry in value.decode("latin-1").split(",")
    ]
    if not entries:
        return peer
    chosen = entries[-min(trusted_proxies, len(entries))]
    try:
        return str(ipaddress.ip_address(chosen))
    except ValueError:
        return peer


def with_client_address(scope: dict[str, Any], trusted_proxies: int) -> None:
    """Set the HTTP scope's ``client`` to the client's address (in place: the server's access log
    reads this same scope)."""
    peer = scope.get("client")
    address = client_address(scope["headers"], peer[0] if peer else None, trusted_proxies)
    if address is not None and (peer is None or address != peer[0]):
        scope["client"] = (address, 0)
