"""Reading a session back, as `ChatService` does for the CLI: its whole conversation from
the loading history (a turn a dead process left under way put right first), an export of
it, and what each provider put into a conversation's last turn."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from ctxchat.core.agent import Agent
from ctxchat.core.errors import CtxchatError, SessionInUse
from ctxchat.core.messages import Message
from ctxchat.core.provider import HistoryProvider, HistoryUnsupported
from ctxchat.core.session import Session
from ctxchat.services import journal
from ctxchat.storage.store import SessionStore

if TYPE_CHECKING:
    from ctxchat.services.conversations import Conversation
    from ctxchat.views.context_report import ContextReport
    from ctxchat.views.export import ExportFormat


class SessionReading:
    """The reading half of `ChatService`, which sets these in its constructor."""

    agent: Agent
    store: SessionStore
    writer: journal.SessionWriter
    context_window: int | None

    def history(self) -> HistoryProvider[Any]:
        provider = self.agent.loading_history
        if provider is None:
            raise HistoryUnsupported("no history provider loads messages in this pipeline")
        return provider

    async def transcript(self, session: Session) -> list[Message]:
        """The whole stored conversation from the loading history."""
        provider = self.history()
        # A turn left under way is taken back, and a kept one left unrecorded (killed
        # before its audit row) recorded: a reader may be the last to open the session.
        if session.pending_turn is not None or session.unrecorded_turn is not None:
            session = await self._recovered(session)
        return await provider.all_messages(
            session.id, state=session.provider_state(provider.source_id)
        )

    async def export(self, session: Session, target: Path, fmt: ExportFormat) -> int:
        """Write the session's conversation to `target` as `fmt`; how many messages."""
        from ctxchat.views.export import export_text, write_export

        messages = await self.transcript(session)
        write_export(target, export_text(session, messages, fmt))
        return len(messages)

    def context_report(self, conversation: Conversation) -> ContextReport | None:
        """What each provider put into the conversation's last turn, or None before one."""
        from ctxchat.views.context_report import context_report

        context = conversation.last_context
        if context is None:
            return None
        agent = self.agent
        return context_report(
            context,
            agent.assemble(context),
            base_instructions=agent.settings.instructions,
            source_ids=[p.source_id for p in agent.run_providers()],
            context_window=self.context_window,
        )

    async def _recovered(self, session: Session) -> Session:
        """The session with a turn a dead process left under way taken out of its histories
        (see `journal.recover`), when no live process holds its lock; as it is otherwise
        (the turn is under way, and its own process will finish or undo it)."""
        try:
            async with self.store.locked_async(session.id, wait=0):
                fresh = self.store.load(session.id)
                await journal.recover(self.writer, fresh, self.agent)
                return fresh
        except SessionInUse:
            return session
        except CtxchatError:
            # Nothing can be put right from here (a read-only home, a database that cannot
            # take the turn back now): the next turn on the session will, or say why.
            return session
