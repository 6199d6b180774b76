"""The audit trail of a session, gathered from every provider that keeps one (any provider
implementing `AuditSource`), whatever its type."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ctxchat.core.audit import AuditSource, AuditTrail
from ctxchat.core.errors import UsageError

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
        trail.append((source.source_id, await source.audit_records(session.id, state=state)))
    return trail
