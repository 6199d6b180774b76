"""A chat reply streamed from the llama.cpp child server this process runs, read without the
`openai` client: the fast path to a local model's first token.

Against the child server, the openai client's own work was most of what ctxchat added to
the first token (`bench/local_model.py`, 15 ms against 11 ms for a raw request): turning
the request into its typed form and back, an HTTP request object, headers and body sent
in two writes (two wake-ups of the server), a typed object per chunk. The child is
llama.cpp's server on a loopback port, with no key, no TLS, no proxy and no retries worth
making, so this path opens one connection, sends the request in one write and reads the
server-sent events as JSON objects whose keys read as attributes (what `ReplyAssembler`
reads).

Only a 200 is read here. Any other answer, or no connection, raises `DirectRefused`
before anything was shown, and the caller asks again through the openai client, whose
errors (a refused tool or image, a too-long request, a server error) are translated as
for any endpoint: this path adds no error of its own but a stream cut mid-way.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any
from urllib.parse import urlsplit

HEAD_LIMIT = 64 * 1024  # a status line and headers; llama.cpp's are a few hundred bytes


class DirectRefused(Exception):
    """The server answered with something other than a stream (or not at all)."""


class StreamError(Exception):
    """The server reported an error inside the stream; its words are the message."""


class Fields(dict[str, Any]):
    """A JSON object whose keys read as attributes, None when absent."""

    def __getattr__(self, name: str) -> Any:
        return self.get(name)


def chat_url(base_url: str) -> tuple[str, int, str]:
    """(host, port, path) of `base_url`'s `/chat/completions`."""
    parts = urlsplit(base_url)
    host = parts.hostname or "127.0.0.1"
    return host, parts.port or 80, parts.path.rstrip("/") + "/chat/completions"


class DirectStream:
    """The chunks of one streamed reply: `await anext(stream)`, then `await stream.close()`."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self._reader = reader
        self._writer = writer
        self._chunked = False
        self._left = -1  # bytes of the body still to come; -1: until the connection closes
        self._pending = b""  # received, not yet a whole event
        self._events: list[bytes] = []
        self._done = False

    def __aiter__(self) -> DirectStream:
        return self

    async def __anext__(self) -> Fields:
        while True:
            while self._events:
                data = _event_data(self._events.pop(0))
                if data is None:
                    continue
                if data == b"[DONE]":
                    self._done = True
                    raise StopAsyncIteration
                chunk = json.loads(data, object_hook=Fields)
                if isinstance(chunk, Fields) and chunk.error is not None:
                    raise StreamError(json.dumps(chunk.error))
                if isinstance(chunk, Fields):
                    return chunk
            if self._done:
                raise StopAsyncIteration
            piece = await self._read_body()
            if not piece:
                self._done = True
                if self._pending.strip():
                    raise StreamError("the stream ended inside an event")
                raise StopAsyncIteration
            self._pending += piece.replace(b"\r\n", b"\n")
            *whole, self._pending = self._pending.split(b"\n\n")
            self._events.extend(whole)

    async def _read_body(self) -> bytes:
        reader = self._reader
        if self._chunked:
            size_line = await reader.readline()
            if not size_line.endswith(b"\n"):  # the connection closed mid-body
                raise StreamError("the stream was cut before its end")
            size = int(size_line.split(b";", 1)[0].strip() or b"0", 16)
            if size == 0:
                return b""
            piece = await reader.readexactly(size + 2)  # the chunk and its CRLF
            return piece[:-2]
        if self._left == 0:
            return b""
        piece = await reader.read(65536 if self._left < 0 else min(65536, self._left))
        if self._left > 0:
            self._left -= len(piece)
        return piece

    async def _read_head(self) -> None:
        status = await self._reader.readline()
        fields = status.split(None, 2)
        if len(fields) < 2 or fields[1] != b"200":
            raise DirectRefused(status.decode("latin-1").strip())
        seen = len(status)
        while True:
            line = await self._reader.readline()
            seen += len(line)
            if line in (b"\r\n", b"\n", b""):
                return
            if seen > HEAD_LIMIT:
                raise DirectRefused("the response's headers do not end")
            name, _, value = line.decode("latin-1").partition(":")
            name, value = name.strip().lower(), value.strip().lower()
            if name == "transfer-encoding" and "chunked" in value:
                self._chunked = True
            elif name == "content-length" and value.isdigit():
                self._left = int(value)

    async def close(self) -> None:
        self._writer.close()
        with contextlib.suppress(Exception):
            await self._writer.wait_closed()


def _event_data(event: bytes) -> bytes | None:
    """The `data:` of one server-sent event (its lines joined), None when it has none."""
    lines = [line[5:].lstrip(b" ") for line in event.split(b"\n") if line.startswith(b"data:")]
    return b"\n".join(lines) if lines else None


async def open_stream(base_url: str, body: dict[str, Any], *, timeout: float) -> DirectStream:
    """Send `body` to `base_url`'s chat endpoint and read the answer's head; the stream,
    or `DirectRefused` when the server cannot be reached or answers other than 200."""
    host, port, path = chat_url(base_url)
    payload = json.dumps(body).encode("utf-8")
    head = (
        f"POST {path} HTTP/1.1\r\nHost: {host}:{port}\r\nContent-Type: application/json\r\n"
        f"Accept: text/event-stream\r\nContent-Length: {len(payload)}\r\n"
        "Connection: close\r\n\r\n"
    ).encode("ascii")
    try:
        async with asyncio.timeout(timeout):
            reader, writer = await asyncio.open_connection(host, port, limit=HEAD_LIMIT)
    except (OSError, TimeoutError) as exc:
        raise DirectRefused(str(exc)) from exc
    stream = DirectStream(reader, writer)
    try:
        writer.write(head + payload)  # one write, one wake-up of the server
        async with asyncio.timeout(timeout):
            await writer.drain()
            await stream._read_head()
    except BaseException as exc:
        await stream.close()
        if isinstance(exc, OSError | TimeoutError | ValueError):
            raise DirectRefused(str(exc)) from exc
        raise
    return stream
