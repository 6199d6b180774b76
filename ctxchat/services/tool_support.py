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


def refuses_tools(message: str) -> bool:
    """Whether an endpoint's error message says the model cannot take tools."""
    return bool(REFUSES_TOOLS.search(message))


def _key(endpoint: str, model: str) -> str:
    return f"{endpoint.rstrip('/')} {model}"


class ToolSupport:
    """The endpoint and model pairs known not to take tools, as one file holds them: read
    on first use, written atomically on each new one. The model client holds one (and the
    models it derives share it), so no module global keeps them."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.Lock()
        self._known: dict[str, dict[str, Any]] | None = None
        self._stamp: int | None = None

    def _load(self) -> dict[str, dict[str, Any]]:
        # Read again when the file changed: another client (of this process or another)
        # may have learnt a pair since, and a stat costs nothing beside a request.
        try:
            stamp: int | None = self.path.stat().st_mtime_ns
        except OSError:
            stamp = None
        if self._known is None or stamp != self._stamp:
            self._stamp = stamp
            try:
                data = json.loads(self.path.read_text("utf-8"))
            except (OSError, ValueError):
                data = {}
            pairs = data if isinstance(data, dict) else {}
            self._known = {k: v for k, v in pairs.items() if isinstance(v, dict)}
        return self._known

    def takes_tools(self, endpoint: str, model: str) -> bool:
        with self._lock:
            return _key(endpoint, model) not in self._load()

    def remember_no_tools(self, endpoint: str, model: str, said: str) -> None:
        """Note that `model` at `endpoint` refused tools (`said`: the server's words)."""
        from ctxchat.storage.fsutil import atomic_write_text

        with self._lock:
            known = self._load()
            known[_key(endpoint, model)] = {
                "since": datetime.now(UTC).isoformat(timespec="seconds"),
                "said": said[:200],
            }
            # Kept in memory by this object if the file cannot be written: a later process
            # will send one request with tools again, nothing worse.
            text = json.dumps(known, indent=1, sort_keys=True) + "\n"
            with contextlib.suppress(OSError):
                atomic_write_text(self.path, text)
                self._stamp = self.path.stat().st_mtime_ns


def default_tool_support() -> ToolSupport:
    """The file in the data dir, as the home in use names it now."""
    from ctxchat.core.paths import data_dir

    return ToolSupport(data_dir() / FILE_NAME)
