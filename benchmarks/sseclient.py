"""A lean client for many thousands of Server-Sent Events streams from one process.

aiohttp keeps a session, a response, a stream reader and their buffers for each open stream: at
10,000 streams and more the benchmark client then costs more memory and CPU than the connection
tier it measures, on the same two cores. A stream here is one :class:`asyncio.Protocol`: it writes
its GET, reads the answer's head, decodes a chunked body if it is one, and hands each complete
message (``id``, ``event``, ``data``) to a callback, counting comment lines (keep-alives) apart.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


@dataclass
class SseMessage:
    id: str | None = None
    event: str | None = None
    data: list[str] = field(default_factory=list)


class ChunkedDecoder:
    """HTTP/1.1 chunked transfer coding, fed any slices of the body, giving back its bytes."""

    def __init__(self) -> None:
        self._buffer = b""
        self._left = 0  # bytes of the current chunk still to come, then its CRLF
        self._in_chunk = False
        self.finished = False

    def feed(self, data: bytes) -> bytes:
        self._buffer += data
        out = bytearray()
        while self._buffer and not self.finished:
            if self._in_chunk:
                if self._left > 0:
                    taken = self._buffer[: self._left]
                    out += taken
                    self._left -= len(taken)
                    self._buffer = self._buffer[len(taken) :]
                    continue
                if len(self._buffer) < 2:
                    break
                self._buffer = self._buffer[2:]  # the CRLF after the chunk's data
                self._in_chunk = False
                continue
            line_end = self._buffer.find(b"\r\n")
            if line_end < 0:
                break
            size = int(self._buffer[:line_end].split(b";", 1)[0], 16)
            self._buffer = self._buffer[line_end + 2 :]
            if size == 0:
                self.finished = True
                break
            self._left, self._in_chunk = size, True
        return bytes(out)


class SseStream(asyncio.Protocol):
    """One held ``GET``: ``on_message`` for each message, ``on_comment`` for each comment line;
    ``status`` once the head has come, ``opened`` set then, ``closed`` set when the connection
    ends (``ended_cleanly``: the server finished the body)."""

    def __init__(
        self,
        request: bytes,
        on_message: Callable[[SseStream, SseMessage], None],
        on_comment: Callable[[SseStream], None] | None = None,
    ) -> None:
        self.request = request
        self.on_message = on_message
        self.on_comment = on_comment
        self.status: int | None = None
        self.opened = asyncio.Event()
        self.closed = asyncio.Event()
        self.ended_cleanly = False
        self.transport: Any = None
        self._head = b""
        self._chunked: ChunkedDecoder | None = None
        self._line = b""
        self._message = SseMessage()

    def connection_made(self, transport: Any) -> None:
        self.transport = transport  # uvloop's transports are no asyncio.Transport
        transport.write(self.request)

    def data_received(self, data: bytes) -> None:
        if self.status is None:
            self._head += data
            end = self._head.find(b"\r\n\r\n")
            if end < 0:
                return
            head, data = self._head[:end].decode("latin-1"), self._head[end + 4 :]
            self._head = b""
            lines = head.split("\r\n")
            self.status = int(lines[0].split()[1])
            chunked = any(
                line.lower().startswith("transfer-encoding:") and "chunked" in line.lower()
                for line in lines[1:]
            )
            self._chunked = ChunkedDecoder() if chunked else None
            self.opened.set()
        if self._chunked is not None:
            data = self._chunked.feed(data)
            if self._chunked.finished:
                self.ended_cleanly = True
        self._parse(data)
        if self.ended_cleanly and self.transport is not None:
            self.transport.close()

    def _parse(self, data: bytes) -> None:
        lines = (self._line + data).split(b"\n")
        self._line = lines.pop()
        for raw in lines:
            line = raw.rstrip(b"\r").decode()
            if not line:
                if self._message.data or self._message.id is not None:
                    self.on_message(self, self._message)
                self._message = SseMessage()
            elif line.startswith(":"):
                if self.on_comment is not None:
                    self.on_comment(self)
            else:
                name, _, value = line.partition(":")
                value = value.removeprefix(" ")
                if name == "data":
                    self._message.data.append(value)
                elif name == "id":
                    self._message.id = value
                elif name == "event":
                    self._message.event = value

    def connection_lost(self, exc: Exception | None) -> None:
        if self._chunked is None and self.status is not None and exc is None:
            self.ended_cleanly = True  # a body without chunks ends with the connection
        self.opened.set()
        self.closed.set()

    def close(self) -> None:
        if self.transport is not None:
            self.transport.close()


def get_request(path: str, host: str, headers: dict[str, str] | None = None) -> bytes:
    lines = [f"GET {path} HTTP/1.1", f"Host: {host}", "Accept: text/event-stream"]
    lines += [f"{name}: {value}" for name, value in (headers or {}).items()]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")


async def open_stream(
    host: str,
    port: int,
    request: bytes,
    on_message: Callable[[SseStream, SseMessage], None],
    on_comment: Callable[[SseStream], None] | None = None,
    *,
    local_address: str | None = None,
) -> SseStream:
    """Connect (from ``local_address``, to spread many thousands of connections over more source
    ports than one address has) and wait for the answer's head."""
    loop = asyncio.get_running_loop()
    _, stream = await loop.create_connection(
        lambda: SseStream(request, on_message, on_comment),
        host,
        port,
        local_addr=(local_address, 0) if local_address else None,
    )
    await stream.opened.wait()
    return stream
