"""Failed first turns: sessions that never came to be, found by the audit rows they left.

A first turn that fails leaves no session file (a session exists once a turn of it is
stored), but the audit records it under the id the session would have had. `sessions
list --all` shows such ids from those rows, as failed with no turns, so a failure is not
lost from sight; `sessions prune --orphans` removes the rows (they are orphans of this
home: `ctxchat.services.orphans`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ctxchat.core.redact import scrub_secrets
from ctxchat.services.audits import audit_sources
from ctxchat.storage.session_index import SessionSummary

if TYPE_CHECKING:
    from ctxchat.services.conversations import ChatService


@dataclass(frozen=True)
class FailedFirstTurn:
    """A session id with audit rows, none of a kept turn, and no session file: its summary
    (the first input as its title, no turns) and why its last try failed."""

    summary: SessionSummary
    error: str | None


async def failed_first_turns(service: ChatService) -> list[FailedFirstTurn]:
    """Every session id of this home the audit holds only failed turns of and no session
    file claims, most recently tried first."""
    from ctxchat.services.orphans import find_orphans

    sources = {source.source_id: source for source in audit_sources(service.agent)}
    found: list[FailedFirstTurn] = []
    for orphan in await find_orphans(service):
        audits = [sources[s] for s in orphan.records if s in sources]
        records = [r for source in audits for r in await source.audit_records(orphan.key, state={})]
        if not records or any(r.ok for r in records):
            continue  # not a first turn that failed: a session whose file went
        records.sort(key=lambda r: r.created_at)
        first, last = records[0], records[-1]
        title = " ".join(m.text for m in first.input_messages) or None
        summary = SessionSummary(orphan.key, title, None, 0, first.created_at, last.created_at)
        error = scrub_secrets(last.error) if last.error is not None else None
        found.append(FailedFirstTurn(summary, error))
    found.sort(key=lambda f: f.summary.updated_at, reverse=True)
    return found
