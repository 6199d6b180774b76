"""`ctxchat usage` and `/cost`: the usage ledger summed and priced.

The ledger is what the SQL history writes with each stored turn (see `ctxchat.core.usage`).
A group's cost is its known tokens at the `[prices."MODEL"]` of each model in it; it is
None when no model of the group has a price, and `cost_partial` when some of its tokens
could not be priced (a model without a price, a turn whose usage is unknown, a turn from
before the ledger): a total that is too low says so.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from ctxchat.core.capabilities import UsageLedger
from ctxchat.core.errors import UsageError
from ctxchat.core.provider import HistoryUnsupported
from ctxchat.core.usage import GROUPINGS, Grouping, UsageGroup, UsageLine, UsageReport

if TYPE_CHECKING:
    from ctxchat.config.prices import Price
    from ctxchat.core.provider import ContextProvider
    from ctxchat.core.session import Session


def grouping(text: str) -> Grouping:
    for name in GROUPINGS:
        if text == name:
            return name
    raise UsageError(f"--by: '{text}' is not a grouping; use one of {', '.join(GROUPINGS)}")


def ledgers(providers: Iterable[ContextProvider[Any]]) -> list[UsageLedger]:
    found: list[UsageLedger] = [p for p in providers if isinstance(p, UsageLedger)]
    if not found:
        raise HistoryUnsupported(
            "no history in this pipeline keeps a usage ledger: usage reads what a "
            "sql_history provider stores with each turn"
        )
    return found


async def usage_report(
    providers: Iterable[ContextProvider[Any]],
    prices: Mapping[str, Price],
    by: Grouping,
    *,
    since: datetime | None = None,
    session: Session | None = None,
) -> UsageReport:
    """The ledger of every history of the pipeline, by `by`; only `session`'s when given."""
    groups: list[UsageGroup] = []
    for ledger in ledgers(providers):
        keys = None
        if session is not None:
            keys = ledger.session_keys(session, session.provider_state(ledger.source_id))
        groups.extend(await ledger.usage_groups(by, since=since, keys=keys))
    by_key: dict[str, list[UsageGroup]] = {}
    for group in groups:
        by_key.setdefault(group.key, []).append(group)
    lines = tuple(_line(key, by_key[key], prices) for key in sorted(by_key))
    return UsageReport(by, since, lines, _line("total", groups, prices))


def _line(key: str, groups: Sequence[UsageGroup], prices: Mapping[str, Price]) -> UsageLine:
    cost: float | None = None
    unpriced: set[str] = set()
    for group in groups:
        price = prices.get(group.model)
        if price is None:
            if group.turns:
                unpriced.add(group.model)
            continue
        cost = (cost or 0.0) + price.cost(group.input_tokens, group.output_tokens)
    unknown = sum(g.unknown for g in groups)
    unrecorded = sum(g.unrecorded for g in groups)
    return UsageLine(
        key,
        sum(g.turns for g in groups),
        unknown,
        unrecorded,
        sum(g.input_tokens for g in groups),
        sum(g.output_tokens for g in groups),
        cost,
        cost is not None and bool(unpriced or unknown or unrecorded),
        tuple(sorted(unpriced)),
    )


def since_of(age: str | None, now: datetime | None = None) -> datetime | None:
    """`--since 30d` as the time it names (see `services.prune` for the units)."""
    if age is None:
        return None
    from ctxchat.services.prune import parse_age

    try:
        span = parse_age(age)
    except UsageError as exc:
        raise UsageError(str(exc).replace("--older-than", "--since")) from None
    try:
        return (now or datetime.now(UTC)) - span
    except OverflowError:
        raise UsageError(f"--since: '{age}' is too long ago") from None
