"""Sortable unique ids (ULID: 48-bit millisecond time + 80 random bits, Crockford base32)."""

from __future__ import annotations

import os
import threading
import time

_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
_lock = threading.Lock()
_last_ms = -1
_last_random = 0


def _encode(value: int, length: int) -> str:
    chars = []
    for _ in range(length):
        chars.append(_ALPHABET[value & 31])
        value >>= 5
    return "".join(reversed(chars))


def new_id() -> str:
    """A 26-character id; ids made later in this process always sort after earlier ones."""
    global _last_ms, _last_random
    with _lock:
        now_ms = time.time_ns() // 1_000_000
        if now_ms <= _last_ms:
            # Same millisecond (or a clock step back): bump the random part so order holds.
            now_ms = _last_ms
            random_part = (_last_random + 1) & ((1 << 80) - 1)
        else:
            random_part = int.from_bytes(os.urandom(10), "big")
        _last_ms, _last_random = now_ms, random_part
    return _encode(now_ms, 10) + _encode(random_part, 16)
