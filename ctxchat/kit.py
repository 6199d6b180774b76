"""The kit for writing a provider that keeps its data in a SQL database: what ctxchat's own
built-in providers use, and nothing else of the engine's insides.

    class Notes(SqlBacked[NotesOptions], ContextProvider[NotesOptions]):
        stores = (NOTES,)  # Store("notes", {1: m1_notes}, notes_tables)

- `SqlBacked`: the provider base: its `url` option, else `[storage] url`, else the SQLite
  file in the data dir; the database opened once per process, its stores migrated on
  first use. `Database` is what `self.database()` returns: `read`, `write` (one
  transaction each), `append` (the numbered insert).
- `Store`: one provider's tables and their numbered migrations; a long step shows its
  progress through `migration_progress(label)` on the display the CLI lends
  (`Progress`: `(done, in all)`).
- `OwnedRows`, `add_owner_columns`, `adopt_unowned`, `count_owned`, `owner_values`: rows
  that say whose they are (home and user), for a database several people share.
- `as_json`, `utc`: a JSON column's text, a stored time as aware UTC.
- `UsageGroup`, `Grouping`: what a history keeping a usage ledger reports (see
  `ctxchat.core.usage`).
- `ToolRun`, `search_past_sessions`: for a tool: the turn it is called in (a `Tool` with
  `takes_run` gets it as its first argument), and the search of the user's past sessions
  the built-in `search_sessions` tool does, as text for the model.

Importing it costs nothing: each name is loaded when first used (SQLAlchemy only then).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ctxchat.core.lazy import load_export

if TYPE_CHECKING:
    from ctxchat.core.progress import Progress, ProgressBars
    from ctxchat.core.tools import ToolRun
    from ctxchat.core.usage import Grouping, UsageGroup
    from ctxchat.services.tool_search import search_past_sessions
    from ctxchat.storage.sql.ownership import (
        OwnedRows,
        add_owner_columns,
        adopt_unowned,
        count_owned,
        owner_values,
    )
    from ctxchat.storage.sql.schema import Store, as_json, migration_progress, utc
    from ctxchat.storage.sql.store import Database, SqlBacked

_EXPORTS = {
    "Progress": "ctxchat.core.progress",
    "ProgressBars": "ctxchat.core.progress",
    "OwnedRows": "ctxchat.storage.sql.ownership",
    "add_owner_columns": "ctxchat.storage.sql.ownership",
    "adopt_unowned": "ctxchat.storage.sql.ownership",
    "count_owned": "ctxchat.storage.sql.ownership",
    "owner_values": "ctxchat.storage.sql.ownership",
    "Store": "ctxchat.storage.sql.schema",
    "as_json": "ctxchat.storage.sql.schema",
    "migration_progress": "ctxchat.storage.sql.schema",
    "utc": "ctxchat.storage.sql.schema",
    "Database": "ctxchat.storage.sql.store",
    "Grouping": "ctxchat.core.usage",
    "UsageGroup": "ctxchat.core.usage",
    "SqlBacked": "ctxchat.storage.sql.store",
    "ToolRun": "ctxchat.core.tools",
    "search_past_sessions": "ctxchat.services.tool_search",
}

__all__ = [
    "Database",
    "Grouping",
    "OwnedRows",
    "Progress",
    "ProgressBars",
    "SqlBacked",
    "Store",
    "ToolRun",
    "UsageGroup",
    "add_owner_columns",
    "adopt_unowned",
    "as_json",
    "count_owned",
    "migration_progress",
    "owner_values",
    "search_past_sessions",
    "utc",
]


def __getattr__(name: str) -> Any:
    return load_export(__name__, _EXPORTS, globals(), name)


def __dir__() -> list[str]:
    return sorted(__all__)
