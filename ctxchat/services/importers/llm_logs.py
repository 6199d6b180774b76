"""simonw/llm's `logs.db` (`llm logs path`): each conversation a session, each logged
response a turn (its `prompt` the user's message, its `response` the reply).

Shape checked against llm's own `llm/migrations.py` (through `m022_parts_table`, the
repository as indexed in December 2026): `conversations(id, name, model)` and
`responses(id, model, prompt, system, prompt_json, options_json, response, response_json,
conversation_id, duration_ms, datetime_utc, input_tokens, output_tokens, ...)`, whose
`datetime_utc` is an ISO time in UTC. Only those two tables are read: tool calls and
results (the `tool_calls`/`tool_results` tables of m017) and attachments are not imported,
and a response's `system` prompt is left out, as ctxchat keeps no system message in a
conversation. The file is opened read-only: importing never changes llm's log.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from .model import (
    ImportDataError,
    ImportedConversation,
    ImportedMessage,
    parse_time,
)

SOURCE = "llm"


def read(path: Path) -> list[ImportedConversation]:
    if not path.is_file():
        raise ImportDataError(f"{path}: no such file (llm's logs.db: `llm logs path`)")
    try:
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    except sqlite3.Error as exc:
        raise ImportDataError(f"{path}: cannot be opened: {exc}") from None
    try:
        return _conversations(conn, path)
    except sqlite3.DatabaseError as exc:
        raise ImportDataError(f"{path}: not an llm logs database: {exc}") from None
    finally:
        conn.close()


def _conversations(conn: sqlite3.Connection, path: Path) -> list[ImportedConversation]:
    tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    if "responses" not in tables:
        raise ImportDataError(f"{path}: not an llm logs database (no responses table)")
    names: dict[str, tuple[str | None, str | None]] = {}
    if "conversations" in tables:
        for ident, name, model in conn.execute("SELECT id, name, model FROM conversations"):
            names[str(ident)] = (name, model)
    rows = conn.execute(
        "SELECT id, model, prompt, response, conversation_id, datetime_utc FROM responses "
        "ORDER BY datetime_utc, id"
    )
    grouped: dict[str, list[tuple[str | None, str, str, str | None]]] = {}
    for ident, model, prompt, response, conversation, when in rows:
        key = str(conversation) if conversation else str(ident)
        grouped.setdefault(key, []).append((model, prompt or "", response or "", when))
    found = []
    for key, responses in grouped.items():
        messages: list[ImportedMessage] = []
        for _, prompt, response, when in responses:
            at = parse_time(when)
            messages.append(ImportedMessage("user", prompt, at))
            messages.append(ImportedMessage("assistant", response, at))
        name, model = names.get(key, (None, None))
        times = [parse_time(r[3]) for r in responses]
        known = [t for t in times if t is not None]
        found.append(
            ImportedConversation(
                source=SOURCE,
                key=key,
                title=name or None,
                created_at=min(known) if known else None,
                updated_at=max(known) if known else None,
                messages=tuple(messages),
                model=model or responses[-1][0],
            )
        )
    return found
