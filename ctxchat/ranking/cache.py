"""Embeddings of documents kept on disk, keyed by a hash of each text and the ranker's identity.

One file per (namespace, identity): the identity names the embedding model and the
endpoint that serves it, so a different model or endpoint never reuses another's vectors.
Inside, each vector is keyed by the SHA-256 of the exact text that was embedded: a changed
tool has a new key (it is embedded again), an unchanged one is found (it costs nothing, also
after a restart), and each save holds exactly the current documents, so a removed one
disappears.

Format: one JSON header line, then the float32 little-endian rows, one per key:

    {"format": "ctxchat-vectors", "version": 1, "identity": ..., "dim": 384, "keys": [...]}\\n
    <len(keys) * dim * 4 bytes>

Binary rows load in a few milliseconds with `numpy.frombuffer` where JSON numbers would
take a second at 10,000 tools. Files are written whole or not at all (temp file, fsync,
rename) with mode 0600 in 0700 directories. A file that does not parse, belongs to another
identity or has the wrong length is ignored (and replaced by the next save): a broken cache
costs a rebuild, never a failed turn.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from ctxchat.storage.fsutil import atomic_write_bytes

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

FORMAT = "ctxchat-vectors"
VERSION = 1


def text_key(text: str) -> str:
    """The cache key of a text: its SHA-256, hex."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def endpoint_identity(base_url: str | None) -> str:
    """A base URL reduced to what identifies the service: scheme, host, port and path,
    lower-cased host, no credentials, query or trailing slash."""
    if not base_url:
        return "default"
    parts = urlsplit(base_url.strip())
    host = (parts.hostname or "").lower()
    port = f":{parts.port}" if parts.port else ""
    return f"{parts.scheme.lower()}://{host}{port}{parts.path.rstrip('/')}"


def ranker_identity(model: str, base_url: str | None, *, dimensions: int | None = None) -> str:
    """The identity vectors are cached under: model name, endpoint and (if asked) size."""
    size = "" if dimensions is None else f" dim={dimensions}"
    return f"{model} @ {endpoint_identity(base_url)}{size}"


class VectorCache:
    """The cached vectors of one namespace (e.g. the tool catalogue) for one identity."""

    def __init__(self, directory: Path, identity: str, *, namespace: str = "tools") -> None:
        self.directory = directory
        self.identity = identity
        digest = hashlib.sha256(identity.encode("utf-8")).hexdigest()[:16]
        safe = "".join(ch if ch.isalnum() or ch in "-_" else "_" for ch in namespace)
        self.path = directory / f"{safe}-{digest}.vectors"

    def load(self) -> dict[str, NDArray[np.float32]]:
        """Vectors by text key; empty when the file is missing, unreadable or not ours."""
        import numpy as np

        try:
            raw = self.path.read_bytes()
        except OSError:
            return {}
        newline = raw.find(b"\n")
        if newline < 0:
            return {}
        try:
            header = json.loads(raw[:newline])
        except ValueError:
            return {}
        if not isinstance(header, dict):
            return {}
        keys = header.get("keys")
        dim = header.get("dim")
        if (
            header.get("format") != FORMAT
            or header.get("version") != VERSION
            or header.get("identity") != self.identity
            or not isinstance(keys, list)
            or not all(isinstance(key, str) for key in keys)
            or not isinstance(dim, int)
            or dim < 0
        ):
            return {}
        body = raw[newline + 1 :]
        if len(body) != len(keys) * dim * 4 or (keys and dim == 0):
            return {}
        matrix = np.frombuffer(body, dtype="<f4").reshape(len(keys), dim)
        if not np.isfinite(matrix).all():
            return {}
        matrix = matrix.astype(np.float32)  # a writable, native-order copy
        return dict(zip(keys, matrix, strict=True))

    def save(self, keys: Sequence[str], matrix: NDArray[np.float32]) -> None:
        """Replace the file with these rows (duplicate keys are stored once)."""
        import numpy as np

        unique: dict[str, int] = {}
        for row, key in enumerate(keys):
            unique.setdefault(key, row)
        rows = matrix[list(unique.values())] if unique else matrix[:0]
        dim = int(matrix.shape[1]) if matrix.ndim == 2 else 0
        header = {
            "format": FORMAT,
            "version": VERSION,
            "identity": self.identity,
            "dim": dim,
            "keys": list(unique),
        }
        body = np.ascontiguousarray(rows, dtype="<f4").tobytes()
        atomic_write_bytes(self.path, json.dumps(header).encode("utf-8") + b"\n" + body)
