"""A fake OpenAI HTTP server for tests (stdlib only).

`FakeOpenAI` runs a real HTTP/1.1 server on 127.0.0.1 (ephemeral port, daemon thread)
that speaks enough of the Chat Completions, Embeddings and Models endpoints for the
official ``openai`` client (sync and async, streaming and non-streaming) to talk to it::

    with FakeOpenAI() as server:
        server.enqueue(Text("hello"), ToolCalls([("read_file", {"path": "a.py"})]))
        client = openai.OpenAI(base_url=server.base_url, api_key="test", max_retries=0)
        ...
        assert server.chat_requests()[0].messages[-1]["content"] == "hi"

Scripted chat replies are consumed FIFO; when the queue is empty ``server.default``
(a ``Callable[[RecordedRequest], Reply]``) is asked; the stock default echoes the last
user message as ``"echo: <text>"``.

Also runnable as a script for manual use and benchmarks::

    python tests/fakeopenai.py [--port N] [--api-key KEY] [--embedding-dim D]

prints the base URL (e.g. ``http://127.0.0.1:PORT/v1``) on stdout and serves echo
replies until interrupted.

What the openai 3.x client (transport: ``httpx2``) raises for each failure mode,
as observed with openai 3.57 / httpx2 2.16 (the tests in test_fakeopenai.py pin this):

* ``Error(400)``  -> ``openai.BadRequestError``
* ``Error(401)`` or wrong API key -> ``openai.AuthenticationError``
* ``Error(403)``  -> ``openai.PermissionDeniedError``
* ``Error(404)`` or unknown URL -> ``openai.NotFoundError``
* ``Error(429)``  -> ``openai.RateLimitError`` (after retries, unless ``max_retries=0``)
* ``Error(5xx)``  -> ``openai.InternalServerError`` (after retries)
  All of these subclass ``openai.APIStatusError`` (``.status_code``, ``.body``, ``.code``).
  For streaming requests they are raised by ``create(...)`` itself, before iteration.
* ``Cut`` on a streaming request -> ``create(...)`` succeeds, the partial chunks are
  yielded, then iteration raises ``openai.APIConnectionError`` ("Connection error.")
  whose ``__cause__`` is ``httpx2.RemoteProtocolError`` ("peer closed connection without
  sending complete message body: incomplete chunked read"). Same for ``AsyncOpenAI``.
  NB: it is *not* ``APITimeoutError`` (which subclasses ``APIConnectionError``), so
  catch ``APITimeoutError`` first if you need to tell them apart.
* ``Cut`` on a non-streaming request -> ``create(...)`` raises
  ``openai.APIConnectionError`` (cause ``httpx2.RemoteProtocolError``), after retries.
* ``Hang(s)`` with client ``timeout`` < s -> ``openai.APITimeoutError`` (cause
  ``httpx2.ReadTimeout``), after retries (the client retries timeouts by default!).
* ``Text(delay=d)`` streaming with client read timeout < d -> the first chunks arrive,
  then iteration raises ``openai.APITimeoutError`` (cause ``httpx2.ReadTimeout``).

Surprises: ``retry-after: 0`` does *not* make the client retry immediately (it only
honours values > 0 and otherwise falls back to ~0.5 s exponential backoff), so 429/5xx
replies here also carry ``retry-after-ms: 1`` which the client prefers. The embeddings
client asks for ``encoding_format="base64"`` (little-endian float32) unless the caller
passes a format explicitly; both formats are supported.
"""

from __future__ import annotations

import argparse
import base64
import contextlib
import hashlib
import itertools
import json
import math
import re
import socket
import socketserver
import struct
import sys
import threading
import time
import traceback
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any, Literal, TypeAlias, cast
from urllib.parse import urlsplit

__all__ = [
    "DEFAULT_MODEL",
    "Cut",
    "Error",
    "FakeOpenAI",
    "Hang",
    "RecordedRequest",
    "Reply",
    "Text",
    "ToolCalls",
    "cosine",
    "echo_reply",
    "fake_embedding",
    "main",
    "message_text",
    "tokenize",
]

DEFAULT_MODEL = "fake-model"
CHAT_PATH = "/v1/chat/completions"
EMBEDDINGS_PATH = "/v1/embeddings"
MODELS_PATH = "/v1/models"


# --------------------------------------------------------------------------- replies


@dataclass(frozen=True)
class Text:
    """A plain assistant text reply.

    Streaming: ``text`` is sent in pieces of ``chunk_size`` characters, sleeping ``delay``
    seconds before every piece after the first. With ``hold``, the first piece is sent and
    the rest waits until the test sets that event (a reply that is surely mid-stream for as
    long as the test needs, however slow the machine). ``usage`` is ``(prompt, completion)``
    tokens; by default it is estimated from character counts.

    ``reasoning`` is what the model thinks aloud first, sent as ``reasoning_in`` says:
    ``"field"`` streams it in each delta's ``reasoning_content`` (as vLLM, llama.cpp's
    server and DeepSeek do) before any content; ``"think"`` puts it at the start of the
    content as ``<think>...</think>`` (a model whose server leaves it in the text), cut into
    pieces like the rest, tags included.
    """

    text: str
    chunk_size: int = 4
    delay: float = 0.0
    usage: tuple[int, int] | None = None
    finish_reason: str = "stop"
    hold: threading.Event | None = None
    reasoning: str = ""
    reasoning_in: Literal["field", "think"] = "field"

    @property
    def content(self) -> str:
        """The content as sent: with the reasoning in front when it goes in <think>."""
        if self.reasoning and self.reasoning_in == "think":
            return f"<think>\n{self.reasoning}\n</think>\n\n{self.text}"
        return self.text


@dataclass(frozen=True)
class ToolCalls:
    """Assistant tool calls: ``calls`` is a sequence of ``(name, arguments)``.

    Dict arguments are ``json.dumps``-ed; a ``str`` is sent verbatim (e.g. malformed JSON).
    Ids are ``call_<n>``, unique per server. Streaming follows OpenAI: per call one chunk
    with index/id/type/name and empty arguments, then the arguments in pieces of
    ``arg_chunk_size`` characters; then a chunk with ``finish_reason``.
    """

    calls: Sequence[tuple[str, Mapping[str, Any] | str]]
    text: str = ""
    chunk_size: int = 4
    arg_chunk_size: int = 6
    usage: tuple[int, int] | None = None
    finish_reason: str = "tool_calls"


@dataclass(frozen=True)
class Error:
    """An HTTP error with an OpenAI-style body ``{"error": {message, type, code, param}}``.

    429 and 5xx replies carry ``retry-after: 0`` and ``retry-after-ms: 1`` headers so that
    clients with retries enabled retry (almost) immediately.
    """

    status: int
    message: str = "Fake error from fakeopenai"
    code: str | None = None
    type: str | None = None  # default derived from status


@dataclass(frozen=True)
class Cut:
    """Send ``after_chunks`` content pieces of ``text`` (``chunk_size`` chars each), then
    close the connection abruptly: no finish chunk, no ``data: [DONE]``, no terminating
    zero-length HTTP chunk. Meant for streaming requests; on a non-streaming request the
    body is truncated instead. See the module docstring for what the client raises."""

    text: str = "partial"
    after_chunks: int = 2
    chunk_size: int = 4


@dataclass(frozen=True)
class Hang:
    """Sleep ``seconds`` before answering (client-timeout tests), then answer ``Text(text)``.

    The sleep is cut short when the server stops."""

    seconds: float
    text: str = "late"


Reply: TypeAlias = Text | ToolCalls | Error | Cut | Hang


# --------------------------------------------------------------------------- requests


def message_text(message: Any) -> str:
    """Text of a chat message whose content is a string or a list of content parts."""
    if not isinstance(message, Mapping):
        return ""
    content = message.get("content")
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts: list[str] = []
        for part in content:
            if isinstance(part, Mapping) and isinstance(part.get("text"), str):
                parts.append(part["text"])
            elif isinstance(part, str):
                parts.append(part)
        return "".join(parts)
    return ""


def image_urls(message: Any) -> list[str]:
    """The `image_url` URLs of a chat message's content parts."""
    content = message.get("content") if isinstance(message, Mapping) else None
    if not isinstance(content, list):
        return []
    urls = []
    for part in content:
        image = part.get("image_url") if isinstance(part, Mapping) else None
        url = image.get("url") if isinstance(image, Mapping) else None
        if part.get("type") == "image_url" and isinstance(url, str):
            urls.append(url)
    return urls


def openai_image_tokens(url: str) -> int:
    """What OpenAI documents an image costs at high detail (its "tile" formula), for a PNG
    data URL (the size read from its header; other images count as one 512 px tile):
    fit within 2048 x 2048, then the shorter side down to 768, then 170 per 512 px tile
    plus 85."""
    width = height = 512
    head, _, data = url.partition(",")
    if head == "data:image/png;base64":
        header = base64.b64decode(data[:48] + "=" * (-len(data[:48]) % 4))
        width, height = int.from_bytes(header[16:20], "big"), int.from_bytes(header[20:24], "big")
    w, h = float(width), float(height)
    if max(w, h) > 2048:
        w, h = w * 2048 / max(w, h), h * 2048 / max(w, h)
    if min(w, h) > 768:
        w, h = w * 768 / min(w, h), h * 768 / min(w, h)
    return 170 * math.ceil(w / 512) * math.ceil(h / 512) + 85


@dataclass
class RecordedRequest:
    """One HTTP request as received. ``headers`` keys are lower-cased; ``body`` is the
    parsed JSON body, or None when the body is empty or not valid JSON (see ``raw``)."""

    method: str
    path: str
    headers: dict[str, str]
    body: Any
    raw: bytes = b""
    query: str = ""

    def _field(self, name: str) -> Any:
        return self.body.get(name) if isinstance(self.body, dict) else None

    @property
    def messages(self) -> list[dict[str, Any]]:
        value = self._field("messages")
        return cast(list[dict[str, Any]], value) if isinstance(value, list) else []

    @property
    def tools(self) -> list[dict[str, Any]]:
        value = self._field("tools")
        return cast(list[dict[str, Any]], value) if isinstance(value, list) else []

    @property
    def tool_names(self) -> list[str]:
        names: list[str] = []
        for tool in self.tools:
            function = tool.get("function") if isinstance(tool, dict) else None
            if isinstance(function, dict) and isinstance(function.get("name"), str):
                names.append(function["name"])
        return names

    @property
    def model(self) -> str | None:
        value = self._field("model")
        return value if isinstance(value, str) else None

    @property
    def stream(self) -> bool:
        return self._field("stream") is True

    @property
    def include_usage(self) -> bool:
        options = self._field("stream_options")
        return isinstance(options, dict) and options.get("include_usage") is True

    @property
    def last_user_text(self) -> str:
        for message in reversed(self.messages):
            if isinstance(message, dict) and message.get("role") == "user":
                return message_text(message)
        return ""

    @property
    def authorization(self) -> str | None:
        return self.headers.get("authorization")


def echo_reply(request: RecordedRequest) -> Reply:
    """The stock ``FakeOpenAI.default``: echo the last user message."""
    return Text("echo: " + request.last_user_text)


# --------------------------------------------------------------------------- embeddings

_WORD_RE = re.compile(r"[^\W_]+(?:_+[^\W_]+)*")  # words, keeping snake_case joined
_CAMEL_SPLIT_RE = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")


def tokenize(text: str) -> list[str]:
    """Lower-cased tokens: split on non-alphanumerics; ``snake_case`` and ``camelCase``
    words yield the whole word and its parts (``loadConfig`` -> loadconfig, load, config)."""
    tokens: list[str] = []
    for word in _WORD_RE.findall(text):
        parts = [
            piece.lower()
            for chunk in word.split("_")
            if chunk
            for piece in _CAMEL_SPLIT_RE.split(chunk)
            if piece
        ]
        if len(parts) > 1:
            tokens.append(word.lower())
        tokens.extend(parts)
    return tokens


def _llama_tokens(text: str) -> int:
    """The imitated llama.cpp tokenizer's count (see `/tokenize`)."""
    return len(re.findall(r"\w+|[^\w\s]", text))


def _prompt_tokens(body: Mapping[str, Any]) -> int:
    """A chat request's prompt as the imitated llama.cpp counts it: every message's text
    and tool calls, and the tool specs."""
    total = 0
    for message in body.get("messages", []):
        if isinstance(message, dict):
            total += _llama_tokens(message_text(message))
            total += _llama_tokens(json.dumps(message.get("tool_calls") or []))
    return total + _llama_tokens(json.dumps(body.get("tools") or []))


def fake_embedding(text: str, dim: int = 64) -> list[float]:
    """Deterministic hashed bag-of-words embedding, L2-normalised (stable across processes).

    Each token goes to bucket ``blake2b(token) % dim`` with a hash-derived +/-1 sign.
    Text without tokens maps to a fixed non-zero vector."""
    if dim < 1:
        raise ValueError("dim must be >= 1")
    vector = [0.0] * dim
    for token in tokenize(text) or ["\x00empty"]:
        digest = hashlib.blake2b(token.encode("utf-8"), digest_size=16).digest()
        bucket = int.from_bytes(digest[:8], "little") % dim
        sign = 1.0 if digest[8] & 1 else -1.0
        vector[bucket] += sign
    norm = math.sqrt(sum(x * x for x in vector))
    if norm == 0.0:  # every token cancelled out; fall back to a fixed direction
        vector[0], norm = 1.0, 1.0
    return [x / norm for x in vector]


def cosine(a: Sequence[float], b: Sequence[float]) -> float:
    """Cosine similarity (0.0 if either vector is zero)."""
    dot = sum(x * y for x, y in zip(a, b, strict=True))
    na = math.sqrt(sum(x * x for x in a))
    nb = math.sqrt(sum(y * y for y in b))
    return dot / (na * nb) if na and nb else 0.0


# --------------------------------------------------------------------------- server


class _Abort(Exception):
    """Internal: drop the connection without finishing the response."""


def _pieces(text: str, size: int) -> list[str]:
    size = max(1, size)
    return [text[i : i + size] for i in range(0, len(text), size)]


def _error_type(status: int) -> str:
    if status == 401:
        return "invalid_request_error"
    if status == 403:
        return "permission_error"
    if status == 429:
        return "requests"
    if status >= 500:
        return "server_error"
    return "invalid_request_error"


def _error_body(
    message: str, *, type_: str, code: str | None = None, param: str | None = None
) -> dict[str, Any]:
    return {"error": {"message": message, "type": type_, "code": code, "param": param}}


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 128

    def __init__(self, address: tuple[str, int], fake: FakeOpenAI) -> None:
        self.fake = fake
        super().__init__(address, _Handler)

    def server_bind(self) -> None:
        # HTTPServer.server_bind calls socket.getfqdn(), which can stall on bad DNS.
        socketserver.TCPServer.server_bind(self)
        host, port = self.server_address[:2]
        self.server_name = str(host)
        self.server_port = int(port)

    def handle_error(self, request: Any, client_address: Any) -> None:
        exc = sys.exc_info()[1]
        if isinstance(exc, (OSError, _Abort)):
            return  # client went away / we cut the connection on purpose: stay quiet
        super().handle_error(request, client_address)


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "fakeopenai/1.0"
    sys_version = ""

    # -- plumbing ------------------------------------------------------------

    @property
    def fake(self) -> FakeOpenAI:
        return cast(_Server, self.server).fake

    def setup(self) -> None:
        super().setup()
        # Small writes (headers, then body, then SSE events) must not wait for delayed ACKs.
        with contextlib.suppress(OSError):
            self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.fake._track(self.connection)

    def finish(self) -> None:
        try:
            super().finish()
        except OSError:
            pass
        finally:
            self.fake._untrack(self.connection)

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet: no per-request logging."""

    def do_GET(self) -> None:
        self._dispatch()

    def do_POST(self) -> None:
        self._dispatch()

    def do_PUT(self) -> None:
        self._dispatch()

    def do_PATCH(self) -> None:
        self._dispatch()

    def do_DELETE(self) -> None:
        self._dispatch()

    def _read_body(self) -> bytes:
        if "chunked" in self.headers.get("Transfer-Encoding", "").lower():
            data = bytearray()
            while True:
                size_line = self.rfile.readline(65537)
                size = int(size_line.split(b";", 1)[0].strip() or b"0", 16)
                if size == 0:
                    while self.rfile.readline(65537) not in (b"\r\n", b"\n", b""):
                        pass  # trailers
                    return bytes(data)
                data += self.rfile.read(size)
                self.rfile.readline(65537)
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length > 0 else b""

    def _dispatch(self) -> None:
        fake = self.fake
        try:
            try:
                raw = self._read_body()
            except ValueError:
                self.close_connection = True
                self._send_json(400, _error_body("Bad request body", type_="invalid_request_error"))
                return
            body: Any = None
            if raw:
                try:
                    body = json.loads(raw)
                except ValueError:
                    body = None
            split = urlsplit(self.path)
            headers: dict[str, str] = {}
            for key, value in self.headers.items():
                key = key.lower()
                headers[key] = f"{headers[key]}, {value}" if key in headers else str(value)
            request = RecordedRequest(
                method=self.command,
                path=split.path,
                headers=headers,
                body=body,
                raw=raw,
                query=split.query,
            )
            fake._record(request)
            fake._begin()
            try:
                self._route(request)
            finally:
                fake._end()
        except (_Abort, OSError):
            self.close_connection = True
        except Exception as exc:  # a bug in the fake: report it loudly, answer 500
            traceback.print_exc()
            self.close_connection = True
            with contextlib.suppress(OSError):
                self._send_json(
                    500,
                    _error_body(f"fakeopenai internal error: {exc!r}", type_="server_error"),
                )

    def _route(self, request: RecordedRequest) -> None:
        fake = self.fake
        expected = None if fake.api_key is None else f"Bearer {fake.api_key}"
        if expected is not None and request.headers.get("authorization") != expected:
            self._send_json(
                401,
                _error_body(
                    "Incorrect API key provided. You can find your API key at "
                    "https://platform.openai.com/account/api-keys.",
                    type_="invalid_request_error",
                    code="invalid_api_key",
                ),
            )
            return
        method, path = request.method, request.path.rstrip("/") or "/"
        if method == "POST" and path == CHAT_PATH:
            self._chat(request)
        elif method == "POST" and path == EMBEDDINGS_PATH:
            self._embeddings(request)
        elif method == "GET" and path == MODELS_PATH and fake.list_models:
            models = [self._model_object(name) for name in fake.model_names()]
            if fake.imitate == "vllm":
                models = [{**m, "max_model_len": fake.context_size} for m in models]
            self._send_json(200, {"object": "list", "data": models})
        elif fake.imitate == "llama.cpp" and method == "GET" and path == "/props":
            settings = {"n_ctx": fake.context_size, "params": {"n_predict": fake.n_predict}}
            caps = {"supports_tools": fake.supports_tools}
            self._send_json(
                200, {"default_generation_settings": settings, "chat_template_caps": caps}
            )
        elif fake.imitate == "llama.cpp" and method == "POST" and path == "/tokenize":
            # One token a word and a token a punctuation mark: not a real tokenizer, but
            # a count that differs from any estimate, so a test can tell which was used.
            text = str((request.body or {}).get("content", ""))
            self._send_json(200, {"tokens": list(range(_llama_tokens(text)))})
        elif fake.imitate == "ollama" and method == "POST" and path == "/api/show":
            parameters = f"num_ctx {fake.context_size}" if fake.context_size else ""
            self._send_json(200, {"parameters": parameters, "model_info": {}})
        elif method == "GET" and path.startswith(MODELS_PATH + "/"):
            name = path[len(MODELS_PATH) + 1 :]
            if name in fake.model_names():
                self._send_json(200, self._model_object(name))
            else:
                self._send_json(
                    404,
                    _error_body(
                        f"The model '{name}' does not exist",
                        type_="invalid_request_error",
                        code="model_not_found",
                        param="model",
                    ),
                )
        else:
            self._send_json(
                404,
                _error_body(
                    f"Unknown request URL: {method} {request.path}. Please check the URL "
                    "for typos.",
                    type_="invalid_request_error",
                    code="unknown_url",
                ),
            )

    @staticmethod
    def _model_object(name: str) -> dict[str, Any]:
        return {"id": name, "object": "model", "created": 0, "owned_by": "fakeopenai"}

    # -- low-level writers ---------------------------------------------------

    def _send_json(
        self, status: int, payload: Any, extra_headers: Mapping[str, str] | None = None
    ) -> None:
        data = json.dumps(payload).encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.send_header("x-request-id", self.fake._new_id("req_fake"))
        for key, value in (extra_headers or {}).items():
            self.send_header(key, value)
        if self.close_connection:
            self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(data)

    @property
    def _chunked(self) -> bool:
        return self.request_version != "HTTP/1.0"

    def _start_stream(self) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream; charset=utf-8")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("x-request-id", self.fake._new_id("req_fake"))
        if self._chunked:
            self.send_header("Transfer-Encoding", "chunked")
        else:
            self.send_header("Connection", "close")
            self.close_connection = True
        self.end_headers()

    def _write_event(self, payload: dict[str, Any] | str) -> None:
        text = payload if isinstance(payload, str) else json.dumps(payload)
        data = f"data: {text}\n\n".encode()
        if self._chunked:
            data = b"%x\r\n%s\r\n" % (len(data), data)
        self.wfile.write(data)

    def _end_stream(self) -> None:
        self._write_event("[DONE]")
        if self._chunked:
            self.wfile.write(b"0\r\n\r\n")

    def _sleep(self, seconds: float) -> None:
        """Sleep, but abort the connection if the server is stopping."""
        if seconds > 0 and self.fake._stopping.wait(seconds):
            raise _Abort

    def _await(self, event: threading.Event) -> None:
        """Wait for the test to set `event`; abort the connection if the server stops."""
        while not event.wait(0.05):
            if self.fake._stopping.is_set():
                raise _Abort

    def _cut_connection(self) -> None:
        self.close_connection = True
        with contextlib.suppress(OSError):
            self.wfile.flush()
            self.connection.shutdown(socket.SHUT_RDWR)

    # -- chat ----------------------------------------------------------------

    def _chat(self, request: RecordedRequest) -> None:
        body = request.body
        if not isinstance(body, dict):
            self._send_json(
                400,
                _error_body(
                    "We could not parse the JSON body of your request.",
                    type_="invalid_request_error",
                ),
            )
            return
        if not isinstance(body.get("model"), str):
            self._send_json(
                400,
                _error_body(
                    "you must provide a model parameter",
                    type_="invalid_request_error",
                    param="model",
                ),
            )
            return
        if not isinstance(body.get("messages"), list):
            self._send_json(
                400,
                _error_body(
                    "Missing required parameter: 'messages'.",
                    type_="invalid_request_error",
                    code="missing_required_parameter",
                    param="messages",
                ),
            )
            return
        fake = self.fake
        if not fake.vision and any(image_urls(m) for m in body["messages"]):
            # As a server whose model reads no images refuses one (OpenAI's words, or
            # llama.cpp's when imitating it).
            message = (
                "image input is not supported - hint: if this is unexpected, you may need "
                "to provide the mmproj"
                if fake.imitate == "llama.cpp"
                else "Invalid content type. image_url is only supported by certain models."
            )
            fake.refused += 1
            self._send_json(400, _error_body(message, type_="invalid_request_error"))
            return
        if fake.strict_context and fake.imitate == "llama.cpp":
            used = _prompt_tokens(body)
            if used > fake.context_size:
                # As llama.cpp's server refuses a prompt longer than its context.
                message = (
                    f"request ({used} tokens) exceeds the available context size "
                    f"({fake.context_size} tokens), try increasing it"
                )
                fake.refused += 1
                self._send_json(
                    400, _error_body(message, type_="exceed_context_size_error", code="400")
                )
                return
        reply = self.fake._next_reply(request)
        if isinstance(reply, Hang):
            self._sleep(reply.seconds)
            reply = Text(reply.text)
        if isinstance(reply, Error):
            self._send_error_reply(reply)
        elif isinstance(reply, Cut):
            self._send_cut(request, reply)
        elif request.stream:
            self._stream_reply(request, reply)
        else:
            self._send_completion(request, reply)

    def _send_error_reply(self, reply: Error) -> None:
        headers: dict[str, str] = {}
        if reply.status == 429 or reply.status >= 500:
            headers = {"retry-after": "0", "retry-after-ms": "1"}
        self._send_json(
            reply.status,
            _error_body(
                reply.message, type_=reply.type or _error_type(reply.status), code=reply.code
            ),
            headers,
        )

    def _usage(
        self, request: RecordedRequest, completion_text: str, usage: tuple[int, int] | None
    ) -> dict[str, int]:
        if usage is None:
            chars = 0
            for message in request.messages:
                chars += len(message_text(message))
                calls = message.get("tool_calls") if isinstance(message, dict) else None
                if isinstance(calls, list):
                    for call in calls:
                        function = call.get("function") if isinstance(call, dict) else None
                        if isinstance(function, dict):
                            chars += len(str(function.get("arguments") or ""))
            images = sum(
                openai_image_tokens(url) for m in request.messages for url in image_urls(m)
            )
            usage = (chars // 4 + 1 + images, len(completion_text) // 4 + 1)
        prompt, completion = usage
        return {
            "prompt_tokens": prompt,
            "completion_tokens": completion,
            "total_tokens": prompt + completion,
        }

    def _tool_call_objects(self, reply: ToolCalls) -> list[dict[str, Any]]:
        objects: list[dict[str, Any]] = []
        for name, arguments in reply.calls:
            args = arguments if isinstance(arguments, str) else json.dumps(dict(arguments))
            objects.append(
                {
                    "id": self.fake._new_id("call_"),
                    "type": "function",
                    "function": {"name": name, "arguments": args},
                }
            )
        return objects

    def _send_completion(self, request: RecordedRequest, reply: Text | ToolCalls) -> None:
        message: dict[str, Any] = {"role": "assistant", "content": None, "refusal": None}
        if isinstance(reply, Text):
            message["content"] = reply.content
            if reply.reasoning and reply.reasoning_in == "field":
                message["reasoning_content"] = reply.reasoning
            counted = reply.content + reply.reasoning
        else:
            message["content"] = reply.text or None
            calls = self._tool_call_objects(reply)
            message["tool_calls"] = calls
            counted = reply.text + "".join(c["function"]["arguments"] for c in calls)
        payload = {
            "id": self.fake._new_id("chatcmpl-fake"),
            "object": "chat.completion",
            "created": int(time.time()),
            "model": request.model or DEFAULT_MODEL,
            "system_fingerprint": "fp_fake",
            "choices": [
                {
                    "index": 0,
                    "message": message,
                    "finish_reason": reply.finish_reason,
                    "logprobs": None,
                }
            ],
            "usage": self._usage(request, counted, reply.usage),
        }
        self._send_json(200, payload)

    def _chunk(
        self,
        request: RecordedRequest,
        completion_id: str,
        delta: dict[str, Any] | None,
        finish_reason: str | None = None,
    ) -> dict[str, Any]:
        payload: dict[str, Any] = {
            "id": completion_id,
            "object": "chat.completion.chunk",
            "created": int(time.time()),
            "model": request.model or DEFAULT_MODEL,
            "system_fingerprint": "fp_fake",
            "choices": (
                []
                if delta is None
                else [
                    {
                        "index": 0,
                        "delta": delta,
                        "finish_reason": finish_reason,
                        "logprobs": None,
                    }
                ]
            ),
        }
        if request.include_usage:
            payload["usage"] = None
        return payload

    def _stream_reply(self, request: RecordedRequest, reply: Text | ToolCalls) -> None:
        cid = self.fake._new_id("chatcmpl-fake")
        self._start_stream()
        if isinstance(reply, Text):
            self._write_event(self._chunk(request, cid, {"role": "assistant", "content": ""}))
            thought = reply.reasoning if reply.reasoning_in == "field" else ""
            pieces = [("reasoning_content", p) for p in _pieces(thought, reply.chunk_size)]
            pieces += [("content", p) for p in _pieces(reply.content, reply.chunk_size)]
            for i, (key, piece) in enumerate(pieces):
                if i == 1 and reply.hold is not None:
                    self._await(reply.hold)
                if i:
                    self._sleep(reply.delay)
                self._write_event(self._chunk(request, cid, {key: piece}))
            counted = reply.content + thought
        else:
            first: dict[str, Any] = {"role": "assistant", "content": None}
            if reply.text:
                first["content"] = ""
            self._write_event(self._chunk(request, cid, first))
            for piece in _pieces(reply.text, reply.chunk_size):
                self._write_event(self._chunk(request, cid, {"content": piece}))
            counted = reply.text
            for index, call in enumerate(self._tool_call_objects(reply)):
                header = {
                    "index": index,
                    "id": call["id"],
                    "type": "function",
                    "function": {"name": call["function"]["name"], "arguments": ""},
                }
                self._write_event(self._chunk(request, cid, {"tool_calls": [header]}))
                arguments: str = call["function"]["arguments"]
                counted += arguments
                for piece in _pieces(arguments, reply.arg_chunk_size):
                    delta = {"tool_calls": [{"index": index, "function": {"arguments": piece}}]}
                    self._write_event(self._chunk(request, cid, delta))
        self._write_event(self._chunk(request, cid, {}, reply.finish_reason))
        if request.include_usage and self.fake.report_usage:
            payload = self._chunk(request, cid, None)
            payload["usage"] = self._usage(request, counted, reply.usage)
            self._write_event(payload)
        self._end_stream()

    def _send_cut(self, request: RecordedRequest, reply: Cut) -> None:
        pieces = _pieces(reply.text, reply.chunk_size)[: max(0, reply.after_chunks)]
        if not request.stream:
            text = "".join(pieces)
            data = json.dumps({"object": "chat.completion", "partial": text}).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data) * 2 + 100))
            self.end_headers()
            self.wfile.write(data[: len(data) // 2])
            self._cut_connection()
            return
        cid = self.fake._new_id("chatcmpl-fake")
        if self._chunked:
            self._start_stream()
        else:  # HTTP/1.0: promise more bytes than we send so the client sees truncation
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream; charset=utf-8")
            self.send_header("Content-Length", str(1 << 30))
            self.end_headers()
        self._write_event(self._chunk(request, cid, {"role": "assistant", "content": ""}))
        for piece in pieces:
            self._write_event(self._chunk(request, cid, {"content": piece}))
        self._cut_connection()

    # -- embeddings ----------------------------------------------------------

    def _embeddings(self, request: RecordedRequest) -> None:
        fake = self.fake
        status = fake.fail_embeddings_with
        if status is not None:
            self._send_error_reply(Error(status, "Fake embeddings failure"))
            return
        body = request.body if isinstance(request.body, dict) else {}
        inputs = self._embedding_inputs(body.get("input"))
        if inputs is None or not isinstance(body.get("model"), str):
            self._send_json(
                400,
                _error_body(
                    "'input' must be a non-empty string, array of strings or array of tokens"
                    " and 'model' must be given",
                    type_="invalid_request_error",
                    param="input",
                ),
            )
            return
        dim = body.get("dimensions")
        if not isinstance(dim, int) or isinstance(dim, bool) or dim < 1:
            dim = fake.embedding_dim
        as_base64 = body.get("encoding_format") == "base64"
        data: list[dict[str, Any]] = []
        tokens = 0
        for index, text in enumerate(inputs):
            tokens += max(1, len(tokenize(text)))
            vector = fake_embedding(text, dim)
            embedding: Any = vector
            if as_base64:
                packed = struct.pack(f"<{len(vector)}f", *vector)
                embedding = base64.b64encode(packed).decode("ascii")
            data.append({"object": "embedding", "index": index, "embedding": embedding})
        self._send_json(
            200,
            {
                "object": "list",
                "data": data,
                "model": request.model or DEFAULT_MODEL,
                "usage": {"prompt_tokens": tokens, "total_tokens": tokens},
            },
        )

    @staticmethod
    def _embedding_inputs(value: Any) -> list[str] | None:
        def tokens_text(items: list[Any]) -> str | None:
            if all(isinstance(t, int) and not isinstance(t, bool) for t in items):
                return " ".join(f"tok{t}" for t in items)
            return None

        if isinstance(value, str):
            return [value]
        if not isinstance(value, list) or not value:
            return None
        single = tokens_text(value)
        if single is not None:
            return [single]
        texts: list[str] = []
        for item in value:
            if isinstance(item, str):
                texts.append(item)
            elif isinstance(item, list) and (text := tokens_text(item)) is not None:
                texts.append(text)
            else:
                return None
        return texts


class FakeOpenAI:
    """A fake OpenAI API server; see the module docstring.

    Attributes you may set at any time:

    * ``default``: reply factory used when the chat queue is empty (default: echo).
    * ``fail_embeddings_with``: HTTP status every embeddings request fails with, or None.
    * ``api_key``: when set, requests without ``Authorization: Bearer <api_key>`` get 401.
    * ``models``: when set, exactly the models ``/v1/models`` lists (a server with one model
      loaded, or several); None lists ``fake-model`` plus every model name seen so far.
    * ``list_models``: False makes ``/v1/models`` a 404, as on servers without the listing.
    * ``vision``: False refuses a chat request holding an image (HTTP 400), as a model
      that reads no images; reported usage counts images by OpenAI's tile formula.
    """

    def __init__(
        self,
        *,
        api_key: str | None = None,
        embedding_dim: int = 64,
        port: int = 0,
        models: Sequence[str] | None = None,
    ) -> None:
        self.api_key = api_key
        self.models: list[str] | None = list(models) if models is not None else None
        self.list_models = True
        self._initial_api_key = api_key
        self.embedding_dim = embedding_dim
        self.fail_embeddings_with: int | None = None
        # False: streams never carry usage, as llama.cpp's server sends none.
        self.report_usage = True
        # Which server's report of the context size to imitate ("vllm": max_model_len in
        # /v1/models; "llama.cpp": /props and /tokenize; "ollama": /api/show), or None.
        self.imitate: str | None = None
        self.context_size = 4096
        # With imitate="llama.cpp", what /props says: the server's own reply cap (-1: none,
        # llama.cpp's default) and whether its chat template takes tools.
        self.n_predict = -1
        self.supports_tools = True
        # False: a chat request holding an image is refused, as by a model without vision.
        self.vision = True
        # With imitate="llama.cpp": refuse a chat request whose prompt is longer than
        # context_size (counted as /tokenize counts), as the real server does.
        self.strict_context = False
        self.refused = 0  # chat requests refused for their size
        self.default: Callable[[RecordedRequest], Reply] = echo_reply
        self.requests: list[RecordedRequest] = []
        self._port = port
        self._lock = threading.Lock()
        self._changed = threading.Condition(self._lock)
        self._queue: deque[Reply] = deque()
        self._models: dict[str, None] = {DEFAULT_MODEL: None}
        self._counter = itertools.count(1)
        self._connections: set[socket.socket] = set()
        self._stopping = threading.Event()
        self.in_flight = 0  # requests being answered right now
        self.max_in_flight = 0  # the most answered at once (is the server concurrent?)
        self.answered = 0  # requests whose reply has been sent completely
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None

    # -- lifecycle -------------------------------------------------------------

    def start(self) -> FakeOpenAI:
        if self._server is not None:
            raise RuntimeError("FakeOpenAI already started")
        self._stopping.clear()
        server = _Server(("127.0.0.1", self._port), self)
        self._server = server
        self._thread = threading.Thread(
            target=server.serve_forever,
            kwargs={"poll_interval": 0.01},
            name=f"fakeopenai:{server.server_port}",
            daemon=True,
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        server, thread = self._server, self._thread
        if server is None:
            return
        self._stopping.set()
        server.shutdown()
        with self._lock:
            connections = list(self._connections)
        for conn in connections:  # wake handler threads blocked on keep-alive reads
            with contextlib.suppress(OSError):
                conn.shutdown(socket.SHUT_RDWR)
        server.server_close()
        if thread is not None:
            thread.join(timeout=5)
        self._server = None
        self._thread = None

    def __enter__(self) -> FakeOpenAI:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()

    @property
    def port(self) -> int:
        if self._server is None:
            raise RuntimeError("FakeOpenAI is not running; call start() first")
        return int(self._server.server_port)

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:PORT/v1`` (only while running)."""
        return f"http://127.0.0.1:{self.port}/v1"

    def _begin(self) -> None:
        with self._lock:
            self.in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self.in_flight)

    def _end(self) -> None:
        with self._lock:
            self.in_flight -= 1
            self.answered += 1

    # -- scripting ---------------------------------------------------------------

    def enqueue(self, *replies: Reply) -> None:
        """Append scripted chat-completion replies, consumed first-in first-out."""
        for reply in replies:
            if not isinstance(reply, Text | ToolCalls | Error | Cut | Hang):
                raise TypeError(f"not a reply: {reply!r}")
        with self._lock:
            self._queue.extend(replies)

    def pending(self) -> int:
        """Number of scripted replies not consumed yet."""
        with self._lock:
            return len(self._queue)

    def clear(self) -> None:
        """Drop queued replies, recorded requests (the same ``requests`` list object is
        emptied in place), the model names seen so far and the answer counters."""
        with self._lock:
            self._queue.clear()
            self.requests.clear()
            self._models = {DEFAULT_MODEL: None}
            self.answered = 0
            self.max_in_flight = self.in_flight

    def reset(self) -> None:
        """``clear()`` plus restore ``default``, ``fail_embeddings_with`` and ``api_key``
        to their constructor values (handy for a server shared between tests)."""
        self.clear()
        self.default = echo_reply
        self.fail_embeddings_with = None
        self.api_key = self._initial_api_key

    # -- inspection -------------------------------------------------------------

    def chat_requests(self) -> list[RecordedRequest]:
        """Recorded ``POST /v1/chat/completions`` requests, in order."""
        return self._filtered("POST", CHAT_PATH)

    def embedding_requests(self) -> list[RecordedRequest]:
        """Recorded ``POST /v1/embeddings`` requests, in order."""
        return self._filtered("POST", EMBEDDINGS_PATH)

    def model_names(self) -> list[str]:
        """The ``models`` set, else ``fake-model`` plus every model name seen in a request."""
        with self._lock:
            return list(self._models) if self.models is None else list(self.models)

    def model_list_requests(self) -> list[RecordedRequest]:
        """Recorded ``GET /v1/models`` requests, in order."""
        return self._filtered("GET", MODELS_PATH)

    def wait_for_requests(
        self, count: int, *, timeout: float = 5.0, path: str | None = CHAT_PATH
    ) -> bool:
        """Block until at least ``count`` requests (to ``path``; None = any) were recorded."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while True:
                seen = sum(1 for r in self.requests if path is None or r.path == path)
                if seen >= count:
                    return True
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return False
                self._changed.wait(remaining)

    # -- internals used by the handler ---------------------------------------------

    def _filtered(self, method: str, path: str) -> list[RecordedRequest]:
        with self._lock:
            return [r for r in self.requests if r.method == method and r.path == path]

    def _record(self, request: RecordedRequest) -> None:
        with self._changed:
            self.requests.append(request)
            if request.model is not None:
                self._models.setdefault(request.model, None)
            self._changed.notify_all()

    def _next_reply(self, request: RecordedRequest) -> Reply:
        with self._lock:
            if self._queue:
                return self._queue.popleft()
        return self.default(request)

    def _new_id(self, prefix: str) -> str:
        with self._lock:
            return f"{prefix}{next(self._counter)}"

    def _track(self, conn: socket.socket) -> None:
        with self._lock:
            self._connections.add(conn)

    def _untrack(self, conn: socket.socket) -> None:
        with self._lock:
            self._connections.discard(conn)


# --------------------------------------------------------------------------- script


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Serve a fake OpenAI API (echo replies).")
    parser.add_argument("--port", type=int, default=0, help="port (default: ephemeral)")
    parser.add_argument("--api-key", default=None, help="require this bearer token")
    parser.add_argument("--embedding-dim", type=int, default=64)
    parser.add_argument(
        "--model",
        action="append",
        dest="models",
        help="a model /v1/models lists (repeat for several; default: fake-model and any seen)",
    )
    parser.add_argument(
        "--imitate",
        choices=["vllm", "llama.cpp", "ollama"],
        help="report the context size as this server does",
    )
    parser.add_argument("--context-size", type=int, default=4096)
    parser.add_argument(
        "--strict-context",
        action="store_true",
        help="with --imitate llama.cpp: refuse prompts longer than the context size",
    )
    args = parser.parse_args(argv)
    server = FakeOpenAI(
        api_key=args.api_key, embedding_dim=args.embedding_dim, port=args.port, models=args.models
    )
    server.imitate = args.imitate
    server.context_size = args.context_size
    server.strict_context = args.strict_context
    server.start()
    print(server.base_url, flush=True)
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        pass
    finally:
        server.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
