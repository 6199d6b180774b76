"""Which endpoint and model pairs cannot take tools, remembered on disk.

Many local models answer a request that carries tools with an error (Ollama: HTTP 400
"registry.ollama.ai/library/gemma:2b does not support tools"). The model client then
sends the turn's request again without tools and notes the pair here, so neither this
process nor a later one sends such a model a request with tools again: one failed
request per endpoint and model, ever. The file is small JSON in the data dir, read once
per process and written atomically; a file that cannot be read or written only costs
that one request again.
"""

from __future__ import annotations

import contextlib
import json
import re
import threading
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

FILE_NAME = "models-without-tools.json"
# What servers say when a model cannot take tools: Ollama, llama.cpp without --jinja,
# vLLM without a tool parser, and the generic wordings.
REFUSES_TOOLS = re.compile(
    r"does not support tools|tools? (?:are|is) not supported|not support(?:ed)? (?:for )?tools"
    r"|tool[_ ](?:use|calls?|calling|choice)[^.]{0,40}not supported|--jinja"
    r"|enable-auto-tool-choice",
    re.IGNORECASE,
)

_lock = threading.Lock()
_known: dict[Path, dict[str, dict[str, Any]]] = {}  # per file: tests switch homes


def refuses_tools(message: str) -> bool:
    """Whether an endpoint's error message says the model cannot take tools."""
    return bool(REFUSES_TOOLS.search(message))


def _path() -> Path:
    from ctxchat.core.paths import data_dir

    return data_dir() / FILE_NAME


def _key(endpoint: str, model: str) -> str:
    return f"{endpoint.rstrip('/')} {model}"


def _load() -> dict[str, dict[str, Any]]:
    path = _path()
    if path not in _known:
        try:
            data = json.loads(path.read_text("utf-8"))
        except (OSError, ValueError):
            data = {}
        pairs = data if isinstance(data, dict) else {}
        _known[path] = {k: v for k, v in pairs.items() if isinstance(v, dict)}
    return _known[path]


def takes_tools(endpoint: str, model: str) -> bool:
    with _lock:
        return _key(endpoint, model) not in _load()


def remember_no_tools(endpoint: str, model: str, said: str) -> None:
    """Note that `model` at `endpoint` refused tools (`said`: the server's words)."""
    from ctxchat.storage.fsutil import atomic_write_text

    with _lock:
        known = _load()
        known[_key(endpoint, model)] = {
            "since": datetime.now(UTC).isoformat(timespec="seconds"),
            "said": said[:200],
        }
        # Kept in memory for this process if the file cannot be written: a later process
        # will send one request with tools again, nothing worse.
        with contextlib.suppress(OSError):
            atomic_write_text(_path(), json.dumps(known, indent=1, sort_keys=True) + "\n")
