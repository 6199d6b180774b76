"""Whether a provider's session state can be saved: plain JSON values only, since it is
written with the session file. Checked where a bad value can be blamed on the provider that
put it there, instead of failing the session's save later (see `ctxchat.core.agent`)."""

from __future__ import annotations

import json
import math
from typing import Any


def snapshot(state: dict[str, Any]) -> str | None:
    try:
        return json.dumps(state, allow_nan=False)
    except (TypeError, ValueError):
        return None


def check_state(state: dict[str, Any]) -> str | None:
    """Why `state` cannot be saved as JSON (the first bad value and where), or None."""
    if snapshot(state) is not None:
        return None
    return "its session state " + _first_non_json(state, "state")


def _first_non_json(value: Any, path: str) -> str:
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str):
                return f"has a {type(key).__name__} key at {path}: keys must be strings"
            found = _first_non_json(item, f"{path}[{key!r}]")
            if found:
                return found
        return ""
    if isinstance(value, list):
        for index, item in enumerate(value):
            found = _first_non_json(item, f"{path}[{index}]")
            if found:
                return found
        return ""
    if isinstance(value, float) and not math.isfinite(value):
        return f"holds {value!r} at {path}: not a JSON number"
    if value is None or isinstance(value, str | int | float | bool):
        return ""
    return f"holds a {type(value).__name__} at {path}: only JSON values can be saved"
