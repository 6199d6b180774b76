"""A value as TOML writes it on the right of `key = `: the one writer of the starter config,
`ctxchat config show` and `ctxchat providers`."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

# What a table's entry shows, by its key: `config show` masks secrets in an MCP server's env.
Shown = Callable[[str, Any], Any]


def _as_is(_key: str, value: Any) -> Any:
    return value


def toml_value(value: Any, shown: Shown = _as_is) -> str:
    """`value` after `key = `; tables inline (each entry passed through `shown`), unset
    entries left out, since TOML has no null."""
    import tomli_w

    if isinstance(value, dict):
        items = [
            f"{_toml_key(k)} = {toml_value(shown(k, v), shown)}"
            for k, v in value.items()
            if v is not None
        ]
        return "{ " + ", ".join(items) + " }" if items else "{}"
    if isinstance(value, list) and any(isinstance(v, dict) for v in value):
        return "[" + ", ".join(toml_value(v, shown) for v in value) + "]"
    return tomli_w.dumps({"v": value}).split("=", 1)[1].strip()


def _toml_key(key: str) -> str:
    return key if re.fullmatch(r"[A-Za-z0-9_-]+", key) else json.dumps(key, ensure_ascii=False)
