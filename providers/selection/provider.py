"""The contextual tool selector: of many tools, advertise only the few most relevant to the
recent conversation.

It chooses from the shared catalogue (`ProviderEnv.tools`: filled by the `tools` provider,
set to `advertise = false`, and any other that registers tools), so it sits after them in
the pipeline. Each turn:

- With no more tools than `max_tools`, all are advertised: nothing is ranked or embedded,
  so a small catalogue (the default pipeline's built-ins) costs nothing.
- Otherwise the new input and the last `recent_messages` earlier messages are ranked
  against each tool's text (name, description, parameters) by `ranker`: `lexical` (BM25,
  offline), `embedding` (the `[embeddings]` endpoint), `hybrid` (the blend, which beats
  both), or `auto`: hybrid when the endpoint serves embeddings (asked once, remembered),
  else lexical. The best `max_tools` above `min_score` are advertised, plus `always`.
- An embeddings endpoint that fails falls back to lexical for that turn, with one warning.

Where the reference design (Semantic Kernel's ContextualFunctionProvider) is weak: the
index notices changed, added and removed tools (its vectors are cached on disk by the hash
of each tool's text and the embedding model, so a restart embeds nothing and a changed
tool is embedded again); tools can be always on; a threshold drops weak matches; earlier
messages are weighted below the new one instead of concatenated (see
`ctxchat.ranking.context`); and `ctxchat tools eval` measures how well it picks.

The scores of the last turn are kept in the session state for `/tools`; the advertised
tools are added under this provider's source id, so `/context` and the audit show them.
Over the context budget, the lowest-scored advertised tools go first (never `always`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from ctxchat import (
    AgentView,
    ConfigError,
    ContextProvider,
    OptionValueError,
    RunContext,
    Session,
    Tool,
    option,
)

from ..tools.python_functions import load_reference

if TYPE_CHECKING:
    from ctxchat.kit import Ranker, RankerKind, Scored

RankerChoice = Literal["auto", "lexical", "embedding", "hybrid"]
STATE_SCORES = "scores"  # tool name -> score of the last stored turn (None: not ranked)


@dataclass(frozen=True)
class ToolSelectorOptions:
    max_tools: int = option(8, help="most tools advertised on a turn (besides `always`)")
    recent_messages: int = option(
        2, help="earlier messages that join the new input to form the context"
    )
    always: list[str] = option(
        default_factory=list, help="tool names advertised on every turn, outside the top-k"
    )
    min_score: float | None = option(
        None, help="leave out tools scoring below this (omitted = no threshold)"
    )
    ranker: RankerChoice = option(
        "auto", help="lexical, embedding, hybrid, or auto (hybrid when embeddings are served)"
    )
    tool_text: str | None = option(
        None,
        help='"module:function" giving the text a tool is ranked by (default: name, '
        "description, parameters)",
    )
    context_text: str | None = option(
        None,
        help='"module:function" giving the context ranked against (default: the new '
        "input, earlier messages weighted less)",
    )

    def __post_init__(self) -> None:
        if self.max_tools < 1:
            raise OptionValueError("max_tools", "must be at least 1")
        if self.recent_messages < 0:
            raise OptionValueError("recent_messages", "must be 0 or more")


class ToolSelectorProvider(ContextProvider[ToolSelectorOptions]):
    """Advertises the tools most relevant to the recent conversation."""

    def setup(self) -> None:
        super().setup()
        options = self.options
        self.tool_text = load_reference(options.tool_text) if options.tool_text else None
        self.context_text = load_reference(options.context_text) if options.context_text else None
        # Built once per catalogue and ranker kind, then reused turn after turn: the
        # catalogue is the same for every session, so this is no session's state.
        self._rankers: dict[tuple[RankerKind, tuple[tuple[str, str], ...]], Ranker] = {}

    # -- each turn ----------------------------------------------------------------------------
    async def before_run(
        self, *, agent: AgentView, session: Session, context: RunContext, state: dict[str, Any]
    ) -> None:
        catalogue = list(self.env.tools)
        if not catalogue:
            return
        pinned = [t for t in catalogue if t.name in self.options.always]
        scored: list[Scored] = []
        if len(catalogue) <= self.options.max_tools:
            chosen = catalogue
        else:
            scored = await self._rank(context, catalogue)
            by_name = {t.name: t for t in catalogue}
            chosen = [by_name[s.id] for s in scored if s.id in by_name]
        names = {t.name for t in chosen}
        advertised = [*chosen, *(t for t in pinned if t.name not in names)]
        context.extend_tools(self.source_id, advertised)
        scores = {s.id: round(s.score, 4) for s in scored}
        context.metadata[self.source_id] = {"scores": scores, "ranked": bool(scored)}
        context.on_over_budget(self.source_id, self._shrink(context), priority=5)

    async def after_stored_turn(
        self, *, agent: AgentView, session: Session, context: RunContext, state: dict[str, Any]
    ) -> None:
        kept = context.metadata.get(self.source_id) or {}
        advertised = [t.name for t in context.tools.get(self.source_id, [])]
        scores = kept.get("scores") or {}
        state[STATE_SCORES] = {name: scores.get(name) for name in advertised}

    def last_scores(self, state: dict[str, Any]) -> dict[str, float | None]:
        """For `/tools`: the score of each tool advertised on the last stored turn."""
        scores = state.get(STATE_SCORES)
        if not isinstance(scores, dict):
            return {}
        return {
            str(name): float(score) if isinstance(score, int | float) else None
            for name, score in scores.items()
        }

    def _shrink(self, context: RunContext) -> Callable[[int], bool]:
        def shrink(tokens: int) -> bool:
            """Over the window: the lowest-scored advertised tool goes (never `always`)."""
            mine = context.tools.get(self.source_id, [])
            for position in range(len(mine) - 1, -1, -1):
                if mine[position].name not in self.options.always:
                    del mine[position]
                    return True
            return False

        return shrink

    # -- ranking ------------------------------------------------------------------------------
    async def _rank(self, context: RunContext, catalogue: Sequence[Tool]) -> list[Scored]:
        from ctxchat.kit import rank_turn

        window = [
            (m.role, m.text)
            for m in context.get_messages()
            if m.kind == "history" and m.role in ("user", "assistant") and m.text
        ]
        new_input = "\n".join(m.text for m in context.input_messages)
        kind = await self._kind()
        try:
            ranker = await self._ranker(kind, catalogue, context)
            scored = await rank_turn(
                ranker,
                window,
                new_input,
                recent=self.options.recent_messages,
                context=self.context_text,
                k=self.options.max_tools,
            )
        except Exception as exc:
            if kind == "lexical":
                raise
            detail = str(exc) or type(exc).__name__
            context.warn(
                self.source_id, f"ranking by meaning failed ({detail}); ranked by words this turn"
            )
            ranker = await self._ranker("lexical", catalogue, context)
            scored = await rank_turn(
                ranker,
                window,
                new_input,
                recent=self.options.recent_messages,
                context=self.context_text,
                k=self.options.max_tools,
            )
        floor = self.options.min_score
        return [s for s in scored if floor is None or s.score >= floor]

    async def _kind(self) -> RankerKind:
        chosen = self.options.ranker
        if chosen != "auto":
            return chosen
        embeddings = self.env.embeddings
        if embeddings is not None and await embeddings.available():
            return "hybrid"
        return "lexical"

    async def _ranker(
        self, kind: RankerKind, catalogue: Sequence[Tool], context: RunContext
    ) -> Ranker:
        from ctxchat.kit import build_ranker, missing_embeddings, tool_documents

        documents = tuple(tool_documents(catalogue, self.tool_text))
        key = (kind, documents)
        found = self._rankers.get(key)
        if found is not None:
            return found
        embeddings = self.env.embeddings
        problem = missing_embeddings(kind, embeddings is not None)
        if problem is not None:
            raise ConfigError(problem)
        ranker = await build_ranker(
            kind,
            catalogue,
            embed=embeddings.embed if embeddings is not None else None,
            identity=embeddings.identity if embeddings is not None else None,
            cache_dir=self.env.data_dir / "tool-index",
            tool_text=self.tool_text,
            progress=lambda done, total: context.progress(
                self.source_id, "embedding tools", done, total
            ),
        )
        # Rankers of another catalogue are stale (a tool changed, came or went).
        self._rankers = {k: v for k, v in self._rankers.items() if k[1] == documents}
        self._rankers[key] = ranker
        return ranker
