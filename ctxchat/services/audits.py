"""The audit trail of a session, gathered from every provider that keeps one (any provider
implementing `AuditSource`), whatever its type."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

from ctxchat.core.audit import AuditRecord, AuditTrail
from ctxchat.core.capabilities import AuditSource
from ctxchat.core.errors import UsageError
from ctxchat.core.redact import scrub_secrets

if TYPE_CHECKING:
    from ctxchat.core.agent import Agent
    from ctxchat.core.session import Session


def audit_sources(agent: Agent) -> list[AuditSource]:
    return [p for p in agent.run_providers() if isinstance(p, AuditSource)]


async def collect_audit(agent: Agent, session: Session) -> AuditTrail:
    sources = audit_sources(agent)
    if not sources:
        raise UsageError(
            "no provider in this pipeline keeps an audit record (the default pipeline has "
            "one; a config's [[providers]] list replaces it): add a [[providers]] table "
            'with type = "audit"'
        )
    trail: AuditTrail = []
    for source in sources:
        state = session.provider_state(source.source_id)
        records = await source.audit_records(session.id, state=state)
        trail.append((source.source_id, [_scrubbed(r) for r in records]))
    return trail


def _scrubbed(record: AuditRecord) -> AuditRecord:
    """The record with any secret ctxchat knows taken out of its error text: a row written
    by an older ctxchat, or by a provider that stored the text as it came, may hold one."""
    if record.error is None:
        return record
    return dataclasses.replace(record, error=scrub_secrets(record.error))
