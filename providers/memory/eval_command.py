"""`ctxchat memory eval`: the cases run through the provider itself, each in a fresh store
of its own: every turn is a stored turn of the user's own words (`after_stored_turn`), then
the text the next turn would get (`before_run`, with nothing typed yet) is scored."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ctxchat import Agent, Message, RunContext, Session, UsageError

from .evaluate import Case, CaseFileError, CaseResult, load_cases, score_case, summarize

if TYPE_CHECKING:
    from ctxchat import ChatModel
    from ctxchat.kit import Progress

    from .options import Extractor
    from .provider import UserMemoryProvider

EXTRACTORS: tuple[Extractor, ...] = ("rules", "llm", "both")


async def evaluate_cases(
    provider: UserMemoryProvider,
    path: Path,
    *,
    extractor: str | None,
    model: ChatModel,
    progress: Progress | None,
) -> dict[str, Any]:
    if extractor is not None and extractor not in EXTRACTORS:
        raise UsageError(f"--extractor: choose one of {', '.join(EXTRACTORS)} (not {extractor!r})")
    try:
        cases = load_cases(path)
    except CaseFileError as exc:
        raise UsageError(str(exc)) from None
    chosen = provider.options.extractor
    for name in EXTRACTORS:
        if name == extractor:
            chosen = name
    options = dataclasses.replace(provider.options, scope="session", extractor=chosen)
    isolated = type(provider)(provider.source_id, options, env=provider.env)
    agent = Agent(model=model, providers=[isolated], fallback_history=None)
    results: list[CaseResult] = []
    for case in cases:
        results.append(await run_case(agent, isolated, case))
        if progress is not None:
            progress(len(results), len(cases))
    return summarize(results).to_dict()


async def run_case(agent: Agent, provider: UserMemoryProvider, case: Case) -> CaseResult:
    session = Session()  # a fresh, isolated store: scope "session" keeps facts in it
    state = session.provider_state(provider.source_id)
    for turn in case.turns:
        context = RunContext(
            session_id=session.id,
            input_messages=[Message.user(turn, origin="typed")],
            model=agent.model,
        )
        context.stored = True
        await provider.after_stored_turn(agent=agent, session=session, context=context, state=state)
    upcoming = RunContext(session_id=session.id, input_messages=[], model=agent.model)
    await provider.before_run(agent=agent, session=session, context=upcoming, state=state)
    injected = "\n".join(upcoming.instructions.get(provider.source_id, []))
    return score_case(case, injected)
