"""A summary after a forget: folded again without the forgotten values before its next use,
or, if that fold fails, sent with each value replaced by its `[forgotten DATE]` marker.
Never neither: the summary a request carries never holds a value the user forgot.

The forgotten values are found in the summary by their word digests (the memory keeps no
copy of a value, see `ctxchat.core.forgetting`); the fold is told exactly those words as
the summary writes them. Every later fold is told, and cleaned, the same way, so a
forgotten value in the history's older messages does not come back through the summary.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

from ctxchat import ForgetSource, Message, ModelRequest
from ctxchat.kit import Forgetting, forgotten_in, ignore_events, mark_forgotten

if TYPE_CHECKING:
    from ctxchat import AgentView, ChatModel

CHECKED = "forget_checked"  # in the summary's state: the newest forget it was cleaned of
# In the summary's state: the forgets said in its session's runs, kept for every later use
# and fold whatever the memory's scope (a session-scoped memory keeps no record of its own).
PENDING = "forgets_pending"

REFOLD = """\
You keep a running summary of a conversation. The user has asked for some things to be \
forgotten. Rewrite the summary so that none of these words appear in it, in any form, and \
nothing that would let them be inferred: {values}. Keep everything else as it is, at most \
{max_words} words. Reply with the summary only, no preamble."""


def forget_note(values: Sequence[str]) -> str:
    """What a fold request adds when the messages it folds hold forgotten values."""
    listed = "; ".join(f'"{v}"' for v in values)
    return f"\n\nThe user asked for these to be forgotten: they must not appear: {listed}."


async def forgettings(agent: AgentView, since: datetime | None = None) -> list[Forgetting]:
    """The forgets of the pipeline's memory after `since` (none without a memory)."""
    import asyncio

    for provider in agent.run_providers():
        if isinstance(provider, ForgetSource):
            return await asyncio.to_thread(provider.forgettings_since, since)
    return []


def keep_forgets_of_this_run(run_metadata: dict[str, Any], state: dict[str, Any]) -> None:
    from ctxchat.kit import forgotten_this_run

    said = forgotten_this_run(run_metadata)
    if said:
        kept = state.setdefault(PENDING, [])
        kept.extend({"at": f.at.isoformat(), "digests": [list(d) for d in f.digests]} for f in said)


def pending_forgets(state: dict[str, Any]) -> list[Forgetting]:
    """The forgets kept in the summary's state (see `keep_forgets_of_this_run`)."""
    found: list[Forgetting] = []
    for item in state.get(PENDING) or ():
        try:
            digests = tuple((int(n), str(d)) for n, d in item["digests"])
            found.append(Forgetting(datetime.fromisoformat(item["at"]), digests))
        except (KeyError, TypeError, ValueError):
            continue  # a hand-edited entry: the memory's own record still covers the user
    return found


async def summary_without_forgotten(
    agent: AgentView, state: dict[str, Any], model: ChatModel | None, *, max_words: int
) -> tuple[str, str | None]:
    """The summary to inject (cleaned, and saved so, when a forget came after its last
    check), and a warning when the fold failed and markers stand in for the values."""
    summary = str(state.get("summary") or "")
    checked = state.get(CHECKED)
    since = datetime.fromisoformat(checked) if isinstance(checked, str) else None
    forgotten = [*await forgettings(agent, since), *pending_forgets(state)]
    if not forgotten:
        return summary, None
    state[CHECKED] = max(f.at for f in forgotten).isoformat()
    values = forgotten_in(summary, forgotten)
    if not values:
        return summary, None
    warning = None
    refolded = await _refold(model, summary, values, max_words) if model is not None else None
    if refolded is None or forgotten_in(refolded, forgotten):
        refolded, _ = mark_forgotten(refolded or summary, forgotten)
        warning = "the summary could not be folded again after a forget: the values are marked"
    state["summary"] = refolded
    return refolded, warning


async def _refold(model: ChatModel, summary: str, values: list[str], max_words: int) -> str | None:
    from .prompt import clean_summary

    listed = "; ".join(f'"{v}"' for v in values)
    request = ModelRequest(
        (
            Message.system(REFOLD.format(values=listed, max_words=max_words)),
            Message.user(f"<summary>\n{summary}\n</summary>"),
        )
    )
    try:
        reply = await model.complete(request, ignore_events)
    except Exception:  # a failed fold falls back to the markers, never to the values
        return None
    from ..memory.secrets import withhold_secrets

    return withhold_secrets(clean_summary(reply.message.text, max_words=max_words)) or None
