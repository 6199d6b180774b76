"""The usage report as rows of text, for `ctxchat usage` and `/cost` alike."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ctxchat.core.usage import UsageLine

COLUMNS = ("turns", "tokens in", "tokens out", "cost", "not counted")


def cost_text(line: UsageLine) -> str:
    """The cost to 4 places; "at least" when some of it could not be priced; "no price"
    when none could."""
    if line.turns and line.unknown == line.turns:
        return "unknown"
    if line.cost is None:
        return "no price" if line.turns else "-"
    shown = f"{line.cost:.4f}"
    return f"≥ {shown}" if line.cost_partial else shown


def gaps_text(line: UsageLine) -> str:
    """What the tokens leave out: turns of unknown usage, turns from before the ledger,
    models without a price."""
    gaps = []
    if line.unknown:
        gaps.append(f"{line.unknown} unknown")
    if line.unrecorded:
        gaps.append(f"{line.unrecorded} unrecorded")
    if line.unpriced:
        gaps.append("no price: " + ", ".join(m or "(no model)" for m in line.unpriced))
    return "; ".join(gaps)


def usage_cells(line: UsageLine) -> tuple[str, ...]:
    """Tokens of turns whose usage is all unknown are "?", never 0."""
    unknown = bool(line.turns) and line.unknown == line.turns
    return (
        str(line.turns),
        "?" if unknown else f"{line.input_tokens:,}",
        "?" if unknown else f"{line.output_tokens:,}",
        cost_text(line),
        gaps_text(line),
    )


def key_text(key: str) -> str:
    return key if key else "(none)"
