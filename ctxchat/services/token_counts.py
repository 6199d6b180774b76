"""Token counts an endpoint's tokenizer gave, kept across runs in the data dir's
token-counts.json, so a resumed conversation does not ask the server again for its
history, its system prompt and every tool (see `model_info.llama_cpp_counter`).

Each file is read once and written once, as the command ends (`save_token_counts`: one
atomic write, not one per message), by one object per file for the whole process
(`TOKEN_COUNT_FILES`): every model of the process counting through one endpoint (a chat
switched to another model, a second chat) adds to the same object, so the last writer no
longer drops what the others learnt, as one copy of the file per model did. A file that
cannot be read or written only costs the requests again.
"""

from __future__ import annotations

import contextlib
import json
import threading
from pathlib import Path

TOKEN_COUNTS_FILE = "token-counts.json"
TOKEN_COUNTS_KEPT = 20_000  # texts per endpoint and model; the oldest go first


class TokenCountFile:
    """One token-counts.json: counts by text (its SHA-256, never the text) for each
    endpoint and model."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.Lock()  # counted from worker threads (`asyncio.to_thread`)
        self._all: dict[str, dict[str, int]] | None = None
        self._new = False

    def _counts(self, key: str) -> dict[str, int]:
        if self._all is None:
            try:
                data = json.loads(self.path.read_text("utf-8"))
            except (OSError, ValueError):
                data = {}
            self._all = {
                k: {h: n for h, n in v.items() if isinstance(n, int)}
                for k, v in (data.items() if isinstance(data, dict) else ())
                if isinstance(v, dict)
            }
        return self._all.setdefault(key, {})

    @staticmethod
    def _digest(text: str) -> str:
        import hashlib

        return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:32]

    def get(self, key: str, text: str) -> int | None:
        with self._lock:
            return self._counts(key).get(self._digest(text))

    def put(self, key: str, text: str, tokens: int) -> None:
        with self._lock:
            counts = self._counts(key)
            counts[self._digest(text)] = tokens
            while len(counts) > TOKEN_COUNTS_KEPT:
                del counts[next(iter(counts))]
            self._new = True

    def save(self) -> None:
        from ctxchat.storage.fsutil import atomic_write_text

        with self._lock:
            if self._all is None or not self._new:
                return
            self._new = False
            document = json.dumps(self._all)
        with contextlib.suppress(OSError):
            atomic_write_text(self.path, document)


class TokenCountFiles:
    """The token-counts files this process read, one object per file."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._files: dict[Path, TokenCountFile] = {}

    def of(self, data_dir: Path) -> TokenCountFile:
        path = data_dir / TOKEN_COUNTS_FILE
        with self._lock:
            found = self._files.get(path)
            if found is None:
                found = self._files[path] = TokenCountFile(path)
            return found

    def save_all(self) -> None:
        with self._lock:
            files = list(self._files.values())
        for file in files:
            file.save()


TOKEN_COUNT_FILES = TokenCountFiles()


class TokenCounts:
    """The counts of one endpoint and model, in the data dir's file."""

    def __init__(self, data_dir: Path, key: str) -> None:
        self.file = TOKEN_COUNT_FILES.of(data_dir)
        self.key = key

    def get(self, text: str) -> int | None:
        return self.file.get(self.key, text)

    def put(self, text: str, tokens: int) -> None:
        self.file.put(self.key, text, tokens)


def save_token_counts() -> None:
    """Write the counts learnt in this process (the CLI calls it as a command ends)."""
    TOKEN_COUNT_FILES.save_all()
