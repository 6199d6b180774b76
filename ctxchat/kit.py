"""The kit for writing a provider: what ctxchat's own built-in providers use beside the
types `ctxchat` exports, and nothing else of the engine's insides (`tests/test_layers.py`
holds the built-ins to it).

    class Notes(SqlBacked[NotesOptions], ContextProvider[NotesOptions]):
        stores = (NOTES,)  # Store("notes", {1: m1_notes}, notes_tables)

A SQL-backed store:
- `SqlBacked`: the provider base: its `url` option, else `[storage] url`, else the SQLite
  file in the data dir; the database opened once per process, its stores migrated on
  first use. `Database` is what `self.database()` returns: `read`, `write` (one
  transaction each), `append` (the numbered insert).
- `Store`: one provider's tables and their numbered migrations; a long step shows its
  progress through `migration_progress(label)` on the display the CLI lends
  (`Progress`: `(done, in all)`).
- `OwnedRows`, `add_owner_columns`, `adopt_unowned`, `count_owned`, `owner_values`, `Owner`,
  `user_key`: rows that say whose they are (home and user), for a database several people
  share.
- `as_json`, `utc`: a JSON column's text, a stored time as aware UTC.
- `UsageGroup`, `Grouping`: what a history keeping a usage ledger reports.
- `ImportedTurn`, `LearnItem`: what `ctxchat import` hands a history that stores a whole
  conversation and a memory that learns from one (see `ctxchat.core.importing`).

A history: `WindowedHistoryOptions`, `select_window`, `window_messages` (the window a
history loads, never splitting a tool call from its results); `count_message_tokens`,
`count_text_tokens`, `estimate_tokens`; `new_id`; `turns` (messages cut into turns);
searching what it stores: `MessageHit`, `Neighbour`, `HitFilter`, `query_terms`,
`MATCH_START`/`MATCH_END` (a snippet's marks); `AuditRecord`, an audit's row.

Events and forgetting: `ignore_events` (a sink for a model call whose events no one
shows); `Forgetting`, `forget_elsewhere`, `forgotten_in`, `forgotten_messages`,
`forgotten_this_run`, `mark_forgotten` (a forgotten value found and marked in any text a
provider keeps); `scrub_secrets`.

Tools: `ToolRun` (the turn a `Tool` with `takes_run` is called in, its first argument),
`search_past_sessions` (the search of the user's past sessions the built-in
`search_sessions` tool does, as text for the model), `in_another_project` (what recall
across sessions leaves out of another project), `TOOL_NAME_PATTERN`/`TOOL_NAME_RULE`,
`first_sentence` (a description on one line), `dying_with_us` (a child process that ends
with ctxchat).

Ranking: `build_ranker`, `rank_turn`, `tool_documents`, `missing_embeddings`, `Ranker`,
`Scored`, `RankerKind` (tools ranked for a turn, as the selector does); `LiveLexicalIndex`,
`rank_texts` (texts ranked by words, kept current as they change, as memory does).

Ranking stored messages, the same whatever database found them, as the SQL history's
search does (see `ctxchat.ranking.message_rank`): `query_plan`, `Term` (the words a query
looks for), `CONVERSATION_STOP_WORDS`, `fold`; `idf`, `DF_CAP`, `count_limit`, `common`,
`distinctive` (each word's count in the user's messages, and the words too common to
search by), `rare_enough` (the rarest words, whose messages hold the best candidates);
`rank`, `Candidate`, `Ranked` (BM25 over the candidates an index found, all words and
phrases higher), `lifted_by_neighbours`, `snippet`; `fuse` (words and meaning
blended). Vectors: `embed_texts`, `DEFAULT_BATCH` (texts per embeddings request),
`normalise`, `top_positions`, `Matrix` (a type only). What recall injects: `choose`,
`block_text`, `DEFAULT_MAX_MESSAGES`, `DEFAULT_MIN_RELEVANCE`, `WINDOW_SHARE` (see
`ctxchat.ranking.recall_block`).

Options and the rest: `build_options`, `did_you_mean` (a nested table checked as the
config's are), `matching` (an id prefix), `plural`, `sessions_dir`, `OWN_WORDS` (the
input origins that are the user's own words), `load_export` (the lazy `__init__` of a
package of one's own).

Importing it costs nothing: each name is loaded when first used (SQLAlchemy only then).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ctxchat.core.lazy import load_export

if TYPE_CHECKING:
    from ctxchat.core.audit import AuditRecord
    from ctxchat.core.budget import turns
    from ctxchat.core.exec_with_parent import dying_with_us
    from ctxchat.core.forgetting import (
        Forgetting,
        forget_elsewhere,
        forgotten_in,
        forgotten_messages,
        forgotten_this_run,
        mark_forgotten,
    )
    from ctxchat.core.idprefix import matching
    from ctxchat.core.importing import ImportedTurn, LearnItem
    from ctxchat.core.messages import OWN_WORDS, new_id
    from ctxchat.core.model_types import ignore_events
    from ctxchat.core.options import build_options, did_you_mean
    from ctxchat.core.paths import sessions_dir
    from ctxchat.core.progress import Progress, ProgressBars
    from ctxchat.core.redact import scrub_secrets
    from ctxchat.core.search import (
        MATCH_END,
        MATCH_START,
        HitFilter,
        MessageHit,
        Neighbour,
        query_terms,
    )
    from ctxchat.core.text import plural
    from ctxchat.core.tokens import count_message_tokens, count_text_tokens, estimate_tokens
    from ctxchat.core.tools import TOOL_NAME_PATTERN, TOOL_NAME_RULE, ToolRun
    from ctxchat.core.usage import Grouping, UsageGroup
    from ctxchat.core.window import WindowedHistoryOptions, select_window, window_messages
    from ctxchat.ranking.base import Ranker, Scored
    from ctxchat.ranking.embedding import DEFAULT_BATCH, embed_texts, normalise, top_positions
    from ctxchat.ranking.embedding import Matrix as Matrix
    from ctxchat.ranking.live import LiveLexicalIndex, rank_texts
    from ctxchat.ranking.message_hybrid import fuse
    from ctxchat.ranking.message_rank import (
        CONVERSATION_STOP_WORDS,
        DF_CAP,
        Candidate,
        Ranked,
        Term,
        common,
        count_limit,
        distinctive,
        fold,
        idf,
        lifted_by_neighbours,
        query_plan,
        rank,
        rare_enough,
        snippet,
    )
    from ctxchat.ranking.recall_block import (
        DEFAULT_MAX_MESSAGES,
        DEFAULT_MIN_RELEVANCE,
        WINDOW_SHARE,
        block_text,
        choose,
    )
    from ctxchat.ranking.selection import (
        RankerKind,
        build_ranker,
        missing_embeddings,
        rank_turn,
        tool_documents,
    )
    from ctxchat.services.project_scope import in_another_project
    from ctxchat.services.tool_catalogue import first_sentence
    from ctxchat.services.tool_search import search_past_sessions
    from ctxchat.storage.owner import Owner, user_key
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
    "in_another_project": "ctxchat.services.project_scope",
    "LiveLexicalIndex": "ctxchat.ranking.live",
    "Ranker": "ctxchat.ranking.base",
    "RankerKind": "ctxchat.ranking.selection",
    "Scored": "ctxchat.ranking.base",
    "build_ranker": "ctxchat.ranking.selection",
    "missing_embeddings": "ctxchat.ranking.selection",
    "rank_texts": "ctxchat.ranking.live",
    "rank_turn": "ctxchat.ranking.selection",
    "tool_documents": "ctxchat.ranking.selection",
    "AuditRecord": "ctxchat.core.audit",
    "Forgetting": "ctxchat.core.forgetting",
    "HitFilter": "ctxchat.core.search",
    "MATCH_END": "ctxchat.core.search",
    "MATCH_START": "ctxchat.core.search",
    "MessageHit": "ctxchat.core.search",
    "Neighbour": "ctxchat.core.search",
    "OWN_WORDS": "ctxchat.core.messages",
    "Owner": "ctxchat.storage.owner",
    "TOOL_NAME_PATTERN": "ctxchat.core.tools",
    "TOOL_NAME_RULE": "ctxchat.core.tools",
    "WindowedHistoryOptions": "ctxchat.core.window",
    "build_options": "ctxchat.core.options",
    "count_message_tokens": "ctxchat.core.tokens",
    "count_text_tokens": "ctxchat.core.tokens",
    "did_you_mean": "ctxchat.core.options",
    "dying_with_us": "ctxchat.core.exec_with_parent",
    "estimate_tokens": "ctxchat.core.tokens",
    "first_sentence": "ctxchat.services.tool_catalogue",
    "forget_elsewhere": "ctxchat.core.forgetting",
    "forgotten_in": "ctxchat.core.forgetting",
    "forgotten_messages": "ctxchat.core.forgetting",
    "forgotten_this_run": "ctxchat.core.forgetting",
    "ignore_events": "ctxchat.core.model_types",
    "load_export": "ctxchat.core.lazy",
    "mark_forgotten": "ctxchat.core.forgetting",
    "matching": "ctxchat.core.idprefix",
    "new_id": "ctxchat.core.messages",
    "plural": "ctxchat.core.text",
    "query_terms": "ctxchat.core.search",
    "scrub_secrets": "ctxchat.core.redact",
    "select_window": "ctxchat.core.window",
    "sessions_dir": "ctxchat.core.paths",
    "turns": "ctxchat.core.budget",
    "user_key": "ctxchat.storage.owner",
    "window_messages": "ctxchat.core.window",
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
    "ImportedTurn": "ctxchat.core.importing",
    "LearnItem": "ctxchat.core.importing",
    "ToolRun": "ctxchat.core.tools",
    "search_past_sessions": "ctxchat.services.tool_search",
    "CONVERSATION_STOP_WORDS": "ctxchat.ranking.message_rank",
    "DF_CAP": "ctxchat.ranking.message_rank",
    "Candidate": "ctxchat.ranking.message_rank",
    "Ranked": "ctxchat.ranking.message_rank",
    "Term": "ctxchat.ranking.message_rank",
    "common": "ctxchat.ranking.message_rank",
    "count_limit": "ctxchat.ranking.message_rank",
    "distinctive": "ctxchat.ranking.message_rank",
    "fold": "ctxchat.ranking.message_rank",
    "idf": "ctxchat.ranking.message_rank",
    "lifted_by_neighbours": "ctxchat.ranking.message_rank",
    "query_plan": "ctxchat.ranking.message_rank",
    "rank": "ctxchat.ranking.message_rank",
    "rare_enough": "ctxchat.ranking.message_rank",
    "snippet": "ctxchat.ranking.message_rank",
    "fuse": "ctxchat.ranking.message_hybrid",
    "DEFAULT_BATCH": "ctxchat.ranking.embedding",
    "embed_texts": "ctxchat.ranking.embedding",
    "normalise": "ctxchat.ranking.embedding",
    "top_positions": "ctxchat.ranking.embedding",
    "DEFAULT_MAX_MESSAGES": "ctxchat.ranking.recall_block",
    "DEFAULT_MIN_RELEVANCE": "ctxchat.ranking.recall_block",
    "WINDOW_SHARE": "ctxchat.ranking.recall_block",
    "block_text": "ctxchat.ranking.recall_block",
    "choose": "ctxchat.ranking.recall_block",
}

__all__ = [
    "CONVERSATION_STOP_WORDS",
    "DEFAULT_BATCH",
    "DEFAULT_MAX_MESSAGES",
    "DEFAULT_MIN_RELEVANCE",
    "DF_CAP",
    "MATCH_END",
    "MATCH_START",
    "OWN_WORDS",
    "TOOL_NAME_PATTERN",
    "TOOL_NAME_RULE",
    "WINDOW_SHARE",
    "AuditRecord",
    "Candidate",
    "Database",
    "Forgetting",
    "Grouping",
    "HitFilter",
    "ImportedTurn",
    "LearnItem",
    "LiveLexicalIndex",
    "MessageHit",
    "Neighbour",
    "OwnedRows",
    "Owner",
    "Progress",
    "ProgressBars",
    "Ranked",
    "Ranker",
    "RankerKind",
    "Scored",
    "SqlBacked",
    "Store",
    "Term",
    "ToolRun",
    "UsageGroup",
    "WindowedHistoryOptions",
    "add_owner_columns",
    "adopt_unowned",
    "as_json",
    "block_text",
    "build_options",
    "build_ranker",
    "choose",
    "common",
    "count_limit",
    "count_message_tokens",
    "count_owned",
    "count_text_tokens",
    "did_you_mean",
    "distinctive",
    "dying_with_us",
    "embed_texts",
    "estimate_tokens",
    "first_sentence",
    "fold",
    "forget_elsewhere",
    "forgotten_in",
    "forgotten_messages",
    "forgotten_this_run",
    "fuse",
    "idf",
    "ignore_events",
    "in_another_project",
    "lifted_by_neighbours",
    "load_export",
    "mark_forgotten",
    "matching",
    "migration_progress",
    "missing_embeddings",
    "new_id",
    "normalise",
    "owner_values",
    "plural",
    "query_plan",
    "query_terms",
    "rank",
    "rank_texts",
    "rank_turn",
    "rare_enough",
    "scrub_secrets",
    "search_past_sessions",
    "select_window",
    "sessions_dir",
    "snippet",
    "tool_documents",
    "top_positions",
    "turns",
    "user_key",
    "utc",
    "window_messages",
]


def __getattr__(name: str) -> Any:
    return load_export(__name__, _EXPORTS, globals(), name)


def __dir__() -> list[str]:
    return sorted(__all__)
