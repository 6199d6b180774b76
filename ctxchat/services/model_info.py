"""What an OpenAI-compatible endpoint says about a model's context window and tokenizer.

No standard says it, so each server is asked the way it answers:
- vLLM: `GET /v1/models` lists each model with `max_model_len`;
- llama.cpp's server: `GET /props` gives `default_generation_settings.n_ctx` (the context
  it was started with), and `POST /tokenize` counts tokens with the model's tokenizer;
- Ollama: `POST /api/show` gives the model's `num_ctx` parameter when it sets one (Ollama
  otherwise runs a model at its own default, 4096 tokens, whatever the model could take,
  and drops what does not fit silently: so that default is the window).
OpenAI's own endpoint says nothing; its models' windows are large and tiktoken counts their
tokens.

The answer is asked for once per endpoint and model and remembered in the data dir
(`endpoints.json`, written atomically, owner-only), so a later run asks nothing; the probe
has a short timeout and any failure means "unknown", never an error.
"""

from __future__ import annotations

import contextlib
import json
import threading
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ctxchat.core.redact import mask_url

PROBE_TIMEOUT = 3.0
OLLAMA_DEFAULT_CONTEXT = 4096
CACHE_FILE = "endpoints.json"
# The smallest window a probe's answer is believed for; below it the default is used.
MIN_WINDOW = 512
# How long an answer is trusted: a server restarted with another context size is noticed.
CACHE_SECONDS = 24 * 3600


def _root(base_url: str) -> str:
    """The server's root: `http://host:8080/v1` -> `http://host:8080`."""
    return base_url.rstrip("/").removesuffix("/v1")


class _Http:
    """Tiny JSON requests with the standard library: a probe needs no client library (and
    must not depend on which HTTP package the `openai` release of the day brings)."""

    def __init__(self, headers: dict[str, str]) -> None:
        self.headers = {"Accept": "application/json", **headers}

    def get(self, url: str) -> Any:
        return self._send(urllib.request.Request(url, headers=self.headers))

    def post(self, url: str, body: dict[str, Any]) -> Any:
        data = json.dumps(body).encode()
        headers = {**self.headers, "Content-Type": "application/json"}
        return self._send(urllib.request.Request(url, data=data, headers=headers))

    @staticmethod
    def _send(request: urllib.request.Request) -> Any:
        """The JSON of a 200 answer; None for anything else (an error status, no answer,
        not JSON): a probe that finds nothing is not a failure."""
        try:
            with urllib.request.urlopen(request, timeout=PROBE_TIMEOUT) as response:
                return json.loads(response.read().decode("utf-8"))
        except (OSError, ValueError):
            return None


def _get(client: _Http, url: str) -> Any:
    return client.get(url)


def _post(client: _Http, url: str, body: dict[str, Any]) -> Any:
    return client.post(url, body)


def _vllm(client: Any, base_url: str, model: str) -> int | None:
    listed = _get(client, base_url.rstrip("/") + "/models")
    for entry in (listed or {}).get("data") or []:
        if isinstance(entry, dict) and entry.get("id") == model:
            value = entry.get("max_model_len")
            return int(value) if isinstance(value, int) and value > 0 else None
    return None


def _llama_cpp(client: Any, base_url: str, found: dict[str, Any]) -> int | None:
    """The window from `/props`; with it, into `found`, whether the server caps a reply
    of its own (`n_predict` -1 is no cap: a reply runs until the window is full) and
    whether its chat template takes tools (`chat_template_caps.supports_tools`: without,
    the server accepts `tools` and silently ignores them)."""
    props = _get(client, _root(base_url) + "/props")
    settings = (props or {}).get("default_generation_settings") or {}
    if not isinstance(settings, dict):
        return None
    params = settings.get("params")
    n_predict = (params if isinstance(params, dict) else settings).get("n_predict")
    if isinstance(n_predict, int):
        found["uncapped"] = n_predict < 0
    caps = props.get("chat_template_caps")
    if isinstance(caps, dict) and isinstance(caps.get("supports_tools"), bool):
        found["tools"] = caps["supports_tools"]
    value = settings.get("n_ctx")
    return int(value) if isinstance(value, int) and value > 0 else None


def _ollama(client: Any, base_url: str, model: str) -> int | None:
    shown = _post(client, _root(base_url) + "/api/show", {"model": model})
    if not isinstance(shown, dict):
        return None
    for line in str(shown.get("parameters") or "").splitlines():
        name, _, value = line.strip().partition(" ")
        if name == "num_ctx" and value.strip().isdigit():
            return int(value.strip())
    return OLLAMA_DEFAULT_CONTEXT


def probe(base_url: str, model: str, headers: dict[str, str]) -> dict[str, Any]:
    """What the endpoint says: `{"window": int | None, "tokenize": bool}`, and where it
    says so, `"uncapped"` (no reply cap of its own) and `"tools"` (takes tools or not)."""
    client = _Http(headers)
    found: dict[str, Any] = {"window": None, "tokenize": False}
    asks: list[Callable[[], int | None]] = [
        lambda: _vllm(client, base_url, model),
        lambda: _llama_cpp(client, base_url, found),
        lambda: _ollama(client, base_url, model),
    ]
    for ask in asks:
        try:
            window = ask()
        except (AttributeError, TypeError, ValueError):  # an answer of another shape
            continue
        if usable_window(window):
            found["window"] = window
            break
    counted = _post(client, _root(base_url) + "/tokenize", {"content": "a b"})
    found["tokenize"] = isinstance(counted, dict) and isinstance(counted.get("tokens"), list)
    if found["tokenize"]:
        found["template"] = _template_tokens(client, base_url)  # None: cannot say
    return found


def _template_tokens(client: _Http, base_url: str) -> dict[str, int] | None:
    """What llama.cpp's chat template adds in tokens: `message`, to each message (its role
    and separators), and `prompt`, once (the reply's header). Two conversations are
    rendered (`/apply-template`) and counted (`/tokenize`); a server that cannot say: None.
    Counting each message's text alone, as `/tokenize` does, misses these: on SmolLM2 a
    window's worth of short messages came to 6% more than counted, and the server refused
    a request the budget had fitted."""
    root = _root(base_url)

    def tokens(text: str, *, special: bool = False) -> int | None:
        body: dict[str, Any] = {"content": text}
        if special:
            body["parse_special"] = True
        answer = _post(client, root + "/tokenize", body)
        found = answer.get("tokens") if isinstance(answer, dict) else None
        return len(found) if isinstance(found, list) else None

    def rendered(messages: list[dict[str, str]]) -> int | None:
        answer = _post(client, root + "/apply-template", {"messages": messages})
        prompt = answer.get("prompt") if isinstance(answer, dict) else None
        return tokens(prompt, special=True) if isinstance(prompt, str) else None

    texts = ["Be brief.", "Hello there.", "Hi, how can I help?", "Tell me about the sea."]
    roles = ["system", "user", "assistant", "user"]
    two = rendered([{"role": r, "content": t} for r, t in zip(roles[:2], texts[:2], strict=True)])
    four = rendered([{"role": r, "content": t} for r, t in zip(roles, texts, strict=True)])
    counts = [tokens(text) for text in texts]
    if two is None or four is None or None in counts:
        return None
    alone = [count or 0 for count in counts]
    message = -(-(four - two - alone[2] - alone[3]) // 2)  # rounded up
    prompt = two - alone[0] - alone[1] - 2 * message
    return {"message": max(0, message), "prompt": max(0, prompt)}


class EndpointCache:
    """Probe answers by endpoint and model, kept on disk between runs."""

    def __init__(self, data_dir: Path) -> None:
        self.path = data_dir / CACHE_FILE
        self._lock = threading.Lock()

    def _read(self) -> dict[str, Any]:
        try:
            data = json.loads(self.path.read_text("utf-8"))
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}

    def get(self, key: str) -> dict[str, Any] | None:
        """The entry, or None (probe again) when it is missing, stale or not what `put`
        writes: a hand-edited `"at": "yesterday"` or `"window": 1` costs a new probe,
        never a failed run."""
        entry = self._read().get(key)
        if not isinstance(entry, dict):
            return None
        at, window = entry.get("at"), entry.get("window")
        if not isinstance(at, int | float) or isinstance(at, bool):
            return None
        if not 0 <= time.time() - at <= CACHE_SECONDS:  # NaN fails this too
            return None
        if window is not None and not usable_window(window):
            return None
        return entry

    def put(self, key: str, entry: dict[str, Any]) -> None:
        from ctxchat.storage.fsutil import atomic_write_text

        with self._lock:
            data = self._read()
            data[key] = {**entry, "at": time.time()}
            # A read-only home: asked again next time, nothing worse.
            with contextlib.suppress(OSError):
                atomic_write_text(self.path, json.dumps(data, indent=1))


def usable_window(window: object) -> bool:
    """Whether a window an endpoint reported can be one: a server (or a hand-edited cache)
    saying 1 would fail every turn with "shorten the message"."""
    return isinstance(window, int) and not isinstance(window, bool) and window >= MIN_WINDOW


def endpoint_key(base_url: str, model: str) -> str:
    return f"{mask_url(base_url)} {model}"


def llama_cpp_counter(
    base_url: str, headers: dict[str, str], *, model: str = "", data_dir: Path | None = None
) -> Callable[[str], int]:
    """Token counts from llama.cpp's `/tokenize`, each text asked once: per process, and
    with `data_dir` across runs too (`TokenCounts`), so a resumed conversation does not
    count its history, the system prompt and every tool again (15 requests a turn)."""
    client = _Http(headers)
    url = _root(base_url) + "/tokenize"
    from ctxchat.services.token_counts import TokenCounts

    kept = TokenCounts(data_dir, endpoint_key(base_url, model)) if data_dir else None
    known: dict[str, int] = {}

    def count(text: str) -> int:
        if not text:
            return 0
        found = known.get(text)
        if found is None and kept is not None:
            found = kept.get(text)
        if found is None:
            answer = client.post(url, {"content": text})
            tokens = answer.get("tokens") if isinstance(answer, dict) else None
            if not isinstance(tokens, list):
                return estimated(text)  # the server went away: an estimate with a margin
            found = len(tokens)
            if kept is not None:
                kept.put(text, found)
        known[text] = found
        return found

    return count


def with_template(counter: Callable[[str], int], message: object) -> Callable[[str], int]:
    """`counter` with what the chat template adds to a message beyond the flat
    `MESSAGE_OVERHEAD` the budget counts (measured on sentences, so it holds what a text
    counted alone splits differently inside its message; rounded up). A message's text is
    one count, so the extra is counted once a message (twice for a tool call's name and
    arguments: over, not under). On SmolLM2, 82 messages the server counted 2,126 tokens
    were 2,000 before and 2,166 with it."""
    from ctxchat.core.tokens import MESSAGE_OVERHEAD

    if not isinstance(message, int) or isinstance(message, bool) or not 0 <= message < 64:
        return counter
    extra = max(0, message - MESSAGE_OVERHEAD)

    def count(text: str) -> int:
        return counter(text) + extra if text else 0

    return count


def estimated(text: str) -> int:
    from ctxchat.core.limits import ESTIMATE_MARGIN
    from ctxchat.core.tokens import count_text_tokens

    return int(count_text_tokens(text) * ESTIMATE_MARGIN + 0.999)


# OpenAI's endpoint reports no window; its models' windows, as OpenAI documents them, by
# the start of the model's name (longest first). Anything else gets the default.
OPENAI_WINDOWS = (
    ("gpt-4.1", 1_047_576),
    ("gpt-4o", 128_000),
    ("gpt-4-turbo", 128_000),
    ("gpt-4", 8_192),
    ("gpt-3.5-turbo", 16_385),
    ("o1", 200_000),
    ("o3", 200_000),
    ("o4", 200_000),
    ("gpt-5", 400_000),
)


def openai_window(model: str) -> int | None:
    for prefix, window in OPENAI_WINDOWS:
        if model.startswith(prefix):
            return window
    return None
