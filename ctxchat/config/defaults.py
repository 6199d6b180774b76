"""The pipeline ctxchat runs with no config file, defined here and nowhere else.

`ctxchat config init` writes exactly this. It grows as built-in providers land.
"""

from __future__ import annotations

from typing import Any

# (type, source_id, options) in pipeline order: history first, it loads what the model reads.
# The history is SQL (a SQLite file in the data dir): loading it costs the window, not the
# conversation, and sessions can share one. The audit (one row a turn, in the same database)
# is what makes `sessions show --audit` and the turn-by-turn record useful from day one.
DEFAULT_PIPELINE: tuple[tuple[str, str, dict[str, Any]], ...] = (
    ("sql_history", "history", {}),
    ("audit", "audit", {}),
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
