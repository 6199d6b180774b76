"""Automatic recall: before each turn, the few past messages of this user's other sessions
most relevant to what they just said, injected as one block with dates.

It searches what the pipeline's SQL history stores (`ctxchat.core.search`), this user's
rows only, leaving out the session under way (its history is in the context already). The
query is the new input; an input of fewer than `MIN_OWN_TERMS` words that say something
("and when was that?") is joined by the user's last message (not the reply, whose many
words would drown the input's). Of the hits, those whose
relevance (the share of the query's weight they hold, the same scale in every query)
reaches `min_relevance` are injected, each with its neighbouring turn, within
`max_messages` and `max_tokens` (by default a sixteenth of the window the model's endpoint
reports, see `ctxchat.ranking.recall_block`): a turn with nothing relevant gets nothing and
costs nothing. Over the model's window the block gives up its
last message first, before memory facts do (a lower budget priority).

Measured with `ctxchat recall eval` (see the README's recall section).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ctxchat import (
    AgentView,
    ContextProvider,
    EmbeddableHistory,
    Message,
    OptionValueError,
    RunContext,
    SearchableHistory,
    Session,
    StorageError,
    option,
)
from ctxchat.kit import (
    DEFAULT_MAX_MESSAGES,
    DEFAULT_MIN_RELEVANCE,
    WINDOW_SHARE,
    HitFilter,
    MessageHit,
    query_terms,
)

MIN_OWN_TERMS = 3
SEARCHED = 20  # hits read to choose the block from
BUDGET_PRIORITY = 5  # below memory's 10: recalled messages go before remembered facts


@dataclass(frozen=True)
class RecallOptions:
    max_messages: int = option(DEFAULT_MAX_MESSAGES, help="most past messages injected into a turn")
    max_tokens: int | None = option(
        None,
        help="most tokens of the block (omitted = a sixteenth of the model's window, as "
        "[model] context_window or the endpoint says)",
    )
    min_relevance: float = option(
        DEFAULT_MIN_RELEVANCE,
        help="least share of the query's weight (0 to 1) a past message must hold to be "
        "recalled: higher recalls less and surer",
    )

    def __post_init__(self) -> None:
        if self.max_messages < 0:
            raise OptionValueError("max_messages", "must be 0 or more")
        if self.max_tokens is not None and self.max_tokens < 0:
            raise OptionValueError("max_tokens", "must be 0 or more")
        if not 0.0 <= self.min_relevance <= 1.0:
            raise OptionValueError("min_relevance", "must be between 0 and 1")


class RecallProvider(ContextProvider[RecallOptions]):
    """Injects the past messages of other sessions relevant to the new input."""

    recalls_user = True  # left out with `--no-memory` and `--temp`

    async def before_run(
        self, *, agent: AgentView, session: Session, context: RunContext, state: dict[str, Any]
    ) -> None:
        if self.options.max_messages == 0 or self.options.max_tokens == 0:
            return
        from ctxchat.kit import block_text, choose, count_text_tokens

        terms = self.query(agent, context)
        if not terms:
            return
        budget = self.options.max_tokens
        if budget is None:
            budget = (await (context.model or agent.model).limits()).window // WINDOW_SHARE
        from ctxchat.kit import forgotten_messages

        try:
            forgotten = await asyncio.to_thread(forgotten_messages, agent.run_providers())
        except Exception as exc:  # the marks unread: recalling could bring a forgotten fact back
            context.warn(self.source_id, f"recall skipped: forgotten marks unreadable ({exc})")
            return
        from ctxchat.kit import in_another_project

        elsewhere = in_another_project(self.env.data_dir, session.project)
        hits: list[MessageHit] = []
        for history in agent.run_providers():
            if not isinstance(history, SearchableHistory):
                continue
            own = history.session_keys(session, session.provider_state(history.source_id))
            try:
                hits += await history.search_messages(
                    terms,
                    limit=SEARCHED,
                    exclude=self.excluded(own, forgotten, elsewhere),
                    warn=lambda line: self._warn_once(context, line),
                )
            except StorageError as exc:
                # Its search unreadable (a full disk, a broken index) while the turn's own
                # history loads: the turn goes on without recall (issue 21, item 11).
                context.warn(self.source_id, f"recall skipped: {exc.message}")
                return
        hits.sort(key=lambda h: -h.score)
        chosen = choose(
            hits,
            max_messages=self.options.max_messages,
            max_tokens=budget,
            min_relevance=self.options.min_relevance,
            tokens_of=count_text_tokens,
        )
        if not chosen:
            return
        context.extend_messages(self.source_id, [Message.user(block_text(chosen))])
        shown = [len(chosen)]

        def shrink(tokens: int) -> bool:
            """Over the model's window: one recalled message fewer (the least relevant)."""
            if shown[0] <= 0:
                return False
            shown[0] -= 1
            fewer = [Message.user(block_text(chosen[: shown[0]]))] if shown[0] else []
            context.context_messages[self.source_id] = [
                m.attributed("context", self.source_id) for m in fewer
            ]
            return True

        context.on_over_budget(self.source_id, shrink, priority=BUDGET_PRIORITY)

    async def after_run(
        self, *, agent: AgentView, session: Session, context: RunContext, state: dict[str, Any]
    ) -> None:
        """The session's new messages embedded, when `[embeddings]` is set: after the turn
        is stored and shown (this is the learning stage), never in the way of a reply."""
        if not context.stored:
            return
        for history in agent.run_providers():
            if isinstance(history, EmbeddableHistory) and isinstance(history, SearchableHistory):
                own = history.session_keys(session, session.provider_state(history.source_id))
                try:
                    await history.embed_unembedded(own)
                except Exception as exc:  # left for the next turn, or `ctxchat recall index`
                    self._warn_once(context, f"messages not embedded: {exc}")

    def _warn_once(self, context: RunContext, line: str) -> None:
        """One warning a turn about the embeddings endpoint, however often it failed."""
        mine = context.metadata.setdefault(self.source_id, {})
        if not mine.get("warned"):
            mine["warned"] = True
            context.warn(self.source_id, line)

    def query(self, agent: AgentView, context: RunContext) -> list[str]:
        """The words to search by: the input's, joined by the user's last message when the
        input says too little on its own."""
        from ctxchat.kit import query_plan

        said = " ".join(m.text for m in context.input_messages)
        if len(query_plan(query_terms(said))) >= MIN_OWN_TERMS and _content(said):
            return query_terms(said)
        history = agent.loading_history
        loaded = context.context_messages.get(history.source_id, []) if history else []
        # The user's last message, not the reply: a reply's many words would drown the
        # input's, and the relevance threshold is a share of the query's weight.
        last = next((m.text for m in reversed(loaded) if m.role == "user"), "")
        joined = f"{said} {last}"
        return query_terms(joined) if _content(joined) else []

    def excluded(
        self, own_keys: set[str], forgotten: set[str], elsewhere: Callable[[str], bool]
    ) -> HitFilter:
        """What is never recalled: the session under way (already in the context), the
        messages a forgotten fact was learnt from, and another project's sessions (see
        `ctxchat.services.project_scope`)."""
        return lambda hit: (
            hit.key in own_keys
            or (bool(hit.message_id) and hit.message_id in forgotten)
            or elsewhere(hit.key)
        )


def _content(text: str) -> bool:
    """Whether `text` holds a word that is not a stop word."""
    from ctxchat.kit import CONVERSATION_STOP_WORDS, fold

    return any(fold(w) not in CONVERSATION_STOP_WORDS for w in query_terms(text))
