"""A rolling summary of the conversation that no longer fits: compaction.

When turns fall out of what the model is shown (the history's window, or what the context
budget trimmed from the request), this provider folds them into its summary: one model
call with the previous summary and only the newly dropped messages, never the whole
conversation again. It folds ahead: with the dropped turns it takes the older half of the
window too (`keep_turns` sets how many of the newest are kept instead), so the next fold
comes only after that many turns more, not with every turn.

Before a run it injects the summary as its instruction block and takes the messages it
covers out of the history's messages in the context, so the model reads each exchange
once, summarised or in full. List it after the history it summarises.

Its position (the id of the last message summarised) is in the session state: a restart
neither loses nor repeats a fold. Folding runs after the reply was shown, from a stored
turn only, and is left to the caller when it offers to run it later (the REPL folds in
the background once the prompt is back); a failure is a one-line warning and the turn
stands. What a skipped or failed fold should have taken in is folded before the next
request (see `later`), so that request never shows an earlier turn neither in
full nor summarised. `/compact [N]` folds everything but the newest N turns now.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from ctxchat import (
    AgentView,
    ConfigError,
    ContextProvider,
    CtxchatError,
    EventSink,
    HistoryProvider,
    Message,
    OptionValueError,
    RunContext,
    Session,
    option,
)
from ctxchat.kit import (
    Forgetting,
    count_message_tokens,
    forgotten_in,
    ignore_events,
    mark_forgotten,
    turns,
)

from .later import (
    FAILED_BEFORE_RUN,
    SHOWN_FROM,
    SummaryFailed,
    catch_up,
    fold_after_turn,
    shown_next,
    told,
    window_from,
)

if TYPE_CHECKING:
    from ctxchat import ChatModel, Command, CommandView, ContextLimits

# Gives up its block last when a request does not fit the model's window (memory facts go
# at 10): the summary stands for many turns at once.
BUDGET_PRIORITY = 30


@dataclass(frozen=True)
class SummaryOptions:
    history: str | None = option(
        None, help="source id of the history to summarise (omitted = the one that loads it)"
    )
    model: str | None = option(
        None, help="the model that writes the summary (omitted = the chat model)"
    )
    max_words: int = option(250, help="how long the summary may grow, in words")
    keep_turns: int | None = option(
        None,
        help="newest turns of the window a fold leaves in full (omitted = half the window)",
    )
    batch_tokens: int = option(
        4000, help="most tokens of dropped conversation folded in one model call"
    )
    max_calls: int = option(
        4, help="most model calls one turn spends catching up (/compact has no limit)"
    )

    def __post_init__(self) -> None:
        if self.max_words < 20:
            raise OptionValueError("max_words", "must be at least 20")
        if self.keep_turns is not None and self.keep_turns < 1:
            raise OptionValueError("keep_turns", "must be at least 1 (or left out)")
        if self.batch_tokens < 200:
            raise OptionValueError("batch_tokens", "must be at least 200")
        if self.max_calls < 1:
            raise OptionValueError("max_calls", "must be at least 1")


@dataclass(frozen=True)
class Fold:
    """What one fold did: how many messages it took in, how many model calls it made, and
    whether everything it meant to fold is in (False: the call limit stopped it)."""

    messages: int
    calls: int
    complete: bool


class SummaryProvider(ContextProvider[SummaryOptions]):
    """Keeps a rolling summary of the turns that fell out of the window."""

    # -- the summary into the run ---------------------------------------------------------------
    async def before_run(
        self, *, agent: AgentView, session: Session, context: RunContext, state: dict[str, Any]
    ) -> None:
        history = self.history_of(agent)
        if history is None:
            return
        if history.load_messages and history.source_id not in context.context_messages:
            raise ConfigError(
                f"provider '{self.source_id}' must come after the history it summarises "
                f"('{history.source_id}') in the config"
            )
        await catch_up(self, agent, session, context, state, history)
        summary = state.get("summary")
        if not isinstance(summary, str) or not summary:
            return
        from .forget import summary_without_forgotten

        model = self._model(context.model)
        words = self.options.max_words
        summary, warning = await summary_without_forgotten(agent, state, model, max_words=words)
        if warning:
            context.warn(self.source_id, warning)
        through = state.get("through")
        loaded = context.context_messages.get(history.source_id, [])
        ids = [m.id for m in loaded]
        if through in ids:
            # The summary covers these: the model reads them once, summarised.
            context.context_messages[history.source_id] = loaded[ids.index(through) + 1 :]
        from .prompt import summary_block

        context.extend_instructions(self.source_id, summary_block(summary, _count(state)))

        def shrink(tokens: int) -> bool:
            if not context.instructions.get(self.source_id):
                return False
            context.instructions[self.source_id] = []
            return True

        context.on_over_budget(self.source_id, shrink, priority=BUDGET_PRIORITY)

    # -- folding what fell out --------------------------------------------------------------
    async def after_stored_turn(
        self, *, agent: AgentView, session: Session, context: RunContext, state: dict[str, Any]
    ) -> None:
        from .forget import keep_forgets_of_this_run

        # A forget said in this run (any memory scope): the summary is cleaned of it before
        # its next use, whether or not a memory keeps a record of forgets.
        keep_forgets_of_this_run(context.metadata, state)
        history = self.history_of(agent)
        model = context.model
        if history is None or model is None:
            return
        hstate = session.provider_state(history.source_id)
        window = await history.get_messages(session.id, state=hstate)
        window = shown_next(window, context, history.source_id)
        through = state.get("through")
        if isinstance(through, str) and through in {m.id for m in window}:
            state.pop(SHOWN_FROM, None)
            return  # nothing fell out that the summary does not cover
        # Until the fold is in, the next turn first folds what fell out before here.
        if window:
            state[SHOWN_FROM] = window[0].id
        if context.metadata.get(FAILED_BEFORE_RUN.format(self.source_id)):
            return  # the summariser failed this turn already: tried again on the next
        count = await self._due(history, session, state, window)
        if not count:
            state.pop(SHOWN_FROM, None)
            return
        if window:  # again: a history rewritten under the summary starts it over
            state[SHOWN_FROM] = window[0].id

        async def later(fresh: Session, fresh_state: dict[str, Any], on_event: EventSink) -> None:
            shown = await history.get_messages(
                fresh.id, state=fresh.provider_state(history.source_id)
            )
            shown = window_from(shown, fresh_state.get(SHOWN_FROM))
            await fold_after_turn(self, agent, fresh, fresh_state, model, shown, on_event)

        label = f"summarising {count} older messages"
        if not context.defer(self.source_id, label, later):
            # Within the turn (a script): said while it runs, as a status line on a terminal.
            context.progress(self.source_id, label, 0, count)
            await fold_after_turn(self, agent, session, state, model, window, told(context))
            context.progress(self.source_id, label, count, count)

    async def _due(
        self,
        history: HistoryProvider[Any],
        session: Session,
        state: dict[str, Any],
        window: Sequence[Message],
    ) -> int:
        """How many messages a fold after this turn takes in: what fell out and the older
        part of the window (0 when nothing fell out)."""
        dropped, rest = await self.uncovered(history, session, state, window)
        return len(dropped) + len(self.ahead(rest, None)) if dropped else 0

    async def compact(
        self,
        agent: AgentView,
        session: Session,
        state: dict[str, Any],
        model: ChatModel,
        keep_turns: int,
    ) -> Fold:
        """Fold everything but the newest `keep_turns` turns of the window now."""
        history = self.history_of(agent)
        if history is None:
            raise ConfigError(f"provider '{self.source_id}' has no history to summarise")
        hstate = session.provider_state(history.source_id)
        window = await history.get_messages(session.id, state=hstate)
        from .forget import forgettings

        forgotten = await forgettings(agent)
        return await self.fold(
            history, session, state, model, window, keep_turns=keep_turns, forgotten=forgotten
        )

    async def fold(
        self,
        history: HistoryProvider[Any],
        session: Session,
        state: dict[str, Any],
        model: ChatModel,
        window: Sequence[Message],
        *,
        keep_turns: int | None = None,
        limit: int | None = None,
        only_if_dropped: bool = False,
        forgotten: Sequence[Forgetting] = (),
    ) -> Fold:
        """Fold the messages before `window`, and its older turns, into the summary: in
        batches of whole turns, saving the position after each, so a later failure keeps
        what was done. `only_if_dropped`: nothing at all unless something fell out."""
        dropped, window = await self.uncovered(history, session, state, window)
        if only_if_dropped and not dropped:
            return Fold(0, 0, complete=True)
        pending = [*dropped, *self.ahead(window, keep_turns)]
        if self.options.model:
            model = model.with_model(self.options.model)
        limits = await model.limits()
        # A summary that would crowd a small window out is asked to be shorter: at most
        # about a sixth of the room (a word is about 1.3 tokens).
        words = min(self.options.max_words, max(20, limits.room // 8))
        room = self._batch_room(limits, str(state.get("summary") or ""), words)
        folded = calls = 0
        for batch in self._batches(pending, room):
            if limit is not None and calls >= limit:
                return Fold(folded, calls, complete=False)
            previous = str(state.get("summary") or "")
            summary = await self._fold_batch(model, previous, batch, room, words, forgotten)
            calls += 1
            folded += len(batch)
            state["summary"] = summary
            state["through"] = batch[-1].id
            state["messages"] = _count(state) + len(batch)
            state["updated_at"] = datetime.now(UTC).isoformat(timespec="seconds")
            state.pop("failed", None)
        return Fold(folded, calls, complete=True)

    async def uncovered(
        self,
        history: HistoryProvider[Any],
        session: Session,
        state: dict[str, Any],
        window: Sequence[Message],
    ) -> tuple[list[Message], Sequence[Message]]:
        """The messages before `window` the summary does not cover yet, and the part of
        `window` it does not cover."""
        hstate = session.provider_state(history.source_id)
        through = state.get("through") if isinstance(state.get("through"), str) else None
        ids = [m.id for m in window]
        if through in ids:
            return [], window[ids.index(through) + 1 :]
        first_kept = window[0].id if window else None
        dropped = await history.messages_before(
            session.id, state=hstate, first_kept=first_kept, after=through
        )
        if dropped is None:
            # The history no longer holds the summary's last message (it was rewritten):
            # start again from its first message rather than guess where it was.
            state.clear()
            dropped = await history.messages_before(
                session.id, state=hstate, first_kept=first_kept, after=None
            )
        return list(dropped or []), window

    def ahead(self, window: Sequence[Message], keep_turns: int | None) -> list[Message]:
        """The older turns of `window` a fold takes in ahead of time, leaving the newest
        `keep_turns` (the option's, or half the window) in full."""
        window_turns = turns(window)
        keep = keep_turns or self.options.keep_turns or max(1, len(window_turns) // 2)
        return [m for turn in window_turns[: max(0, len(window_turns) - keep)] for m in turn]

    def _batch_room(self, limits: ContextLimits, previous: str, words: int) -> int:
        """Tokens of conversation one fold request may carry: `batch_tokens`, less when the
        summarising model's window is smaller (room for the prompt, the previous summary and
        the new one, which may run to 1.5 times `words` words, at about 2 tokens a word)."""
        overhead = 400 + limits.count_text(previous) + 3 * words
        return max(200, min(self.options.batch_tokens, limits.room - overhead))

    def _batches(self, messages: Sequence[Message], room: int) -> list[list[Message]]:
        """Whole turns, as many as fit `room` tokens a batch (a larger turn alone: its
        messages are cut short in the fold request)."""
        batches: list[list[Message]] = []
        size = 0
        for turn in turns(messages):
            tokens = sum(count_message_tokens(m) for m in turn)
            if batches and size + tokens <= room:
                batches[-1].extend(turn)
                size += tokens
            else:
                batches.append(list(turn))
                size = tokens
        return batches

    async def _fold_batch(
        self,
        model: ChatModel,
        previous: str,
        batch: list[Message],
        room: int,
        words: int,
        forgotten: Sequence[Forgetting] = (),
    ) -> str:
        from .forget import forget_note
        from .prompt import clean_summary, fold_request, transcript

        # Forgotten values in what is folded are named, so the fold leaves them out.
        named = forgotten_in(f"{previous}\n{transcript(batch)}", forgotten) if forgotten else []
        note = forget_note(named) if named else ""
        request = fold_request(previous, batch, max_words=words, room=room, note=note)
        try:
            reply = await model.complete(request, ignore_events)
        except CtxchatError as exc:
            raise SummaryFailed(str(exc)) from exc
        except Exception as exc:
            raise SummaryFailed(str(exc) or type(exc).__name__) from exc
        summary = clean_summary(reply.message.text, max_words=words)
        if not summary:
            raise SummaryFailed("the model replied with no summary")
        from ..memory.secrets import withhold_secrets

        # A secret the user told in the conversation stays in their history, not here.
        summary = withhold_secrets(summary)
        return mark_forgotten(summary, forgotten)[0] if forgotten else summary

    def _model(self, model: ChatModel | None) -> ChatModel | None:
        if model is not None and self.options.model:
            return model.with_model(self.options.model)
        return model

    # -- where the conversation is ----------------------------------------------------------
    def history_of(self, agent: AgentView) -> HistoryProvider[Any] | None:
        """The history this provider summarises: the one named, else the one loading."""
        if self.options.history is None:
            return agent.loading_history
        named = agent.provider(self.options.history)
        if not isinstance(named, HistoryProvider):
            raise ConfigError(
                f"provider '{self.source_id}': history '{self.options.history}' is not a "
                "history provider in the pipeline"
            )
        return named

    async def fork_session(
        self, source: Session, fork: Session, state: dict[str, Any], *, turns: int
    ) -> None:
        # A summary may hold turns a shorter fork left out: it starts over (and folds again
        # what falls out of the fork's window).
        if turns < source.turns:
            state.clear()

    def commands(self) -> Sequence[Command[CommandView]]:
        from .commands import summary_commands

        return summary_commands(self)


def _count(state: dict[str, Any]) -> int:
    count = state.get("messages")
    return count if isinstance(count, int) else 0
