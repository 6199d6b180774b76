"""The pipeline ctxchat runs with no config file, defined here and nowhere else.

`ctxchat config init` writes exactly this. It grows as built-in providers land.
"""

from __future__ import annotations

from typing import Any

# (type, source_id, options) in pipeline order: history first, it loads what the model reads.
# The history is SQL (a SQLite file in the data dir): loading it costs the window, not the
# conversation, and sessions can share one. The user's memory comes after it: what it
# recalls is an instruction block, and it learns from a turn only once the history has
# stored it (the engine's rule, whatever the order). Then the safe built-in tools (time,
# time zones, a calculator): none has side effects, and the file tools stay off until a
# root is set.
DEFAULT_PIPELINE: tuple[tuple[str, str, dict[str, Any]], ...] = (
    ("sql_history", "history", {}),
    ("user_memory", "memory", {}),
    ("tools", "tools", {}),
)


def default_config_document() -> dict[str, Any]:
    """The starter config file as a TOML-ready dict."""
    from ctxchat.core.settings import ModelSettings

    return {
        "model": {"model": ModelSettings().model},
        "providers": [
            {"type": type_name, "source_id": source_id, **options}
            for type_name, source_id, options in DEFAULT_PIPELINE
        ],
    }
