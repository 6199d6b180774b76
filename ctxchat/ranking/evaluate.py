"""How well a ranker picks tools: recall@k, all-gold@k and MRR over cases from JSONL files.

Formats (one JSON object a line):

- tools: `{"name": str, "description": str, "parameters"?: JSON Schema object}`
- cases: `{"id": str, "messages": [{"role": str, "content": str}, ...], "gold": [tool names]}`,
  the conversation oldest first, up to and including the turn asked about.

Each case is ranked exactly as the selector ranks that turn (`rank_turn`): the last message
is the new input and the `recent` messages before it, whatever their role, join it.
Metrics, averaged over cases: recall@k is the share of a case's gold tools in the top k,
all-gold@k whether all of them are, MRR the reciprocal rank of the first gold tool found
(0 when none is ranked).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ctxchat.core.progress import Progress
from ctxchat.ranking.base import Ranker
from ctxchat.ranking.context import DEFAULT_RECENT, ContextFn, Turn, build_query
from ctxchat.ranking.tooltext import ToolDoc

DEFAULT_KS: tuple[int, ...] = (1, 3, 5, 10)
# Cases whose queries are embedded in one go before they are ranked (bounded memory).
CHUNK = 256


class RankingDataError(ValueError):
    """A tools or cases file that cannot be used; the message is one line naming the file
    (and line) and what is wrong."""


@dataclass(frozen=True)
class Case:
    id: str
    messages: tuple[Turn, ...]
    gold: frozenset[str]


@dataclass(frozen=True)
class EvalResult:
    cases: int
    recall: dict[str, float] = field(default_factory=dict)
    all_gold: dict[str, float] = field(default_factory=dict)
    mrr: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        """`{"cases": N, "recall": {"1": r, ...}, "all_gold": {...}, "mrr": m}`."""
        return {
            "cases": self.cases,
            "recall": dict(self.recall),
            "all_gold": dict(self.all_gold),
            "mrr": self.mrr,
        }


def _records(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    try:
        handle = path.open(encoding="utf-8")
    except OSError as exc:
        raise RankingDataError(f"{path}: cannot read it ({exc.strerror or exc})") from None
    with handle:
        try:
            for number, line in enumerate(handle, start=1):
                if not line.strip():
                    continue
                try:
                    record = json.loads(line)
                except ValueError as exc:
                    raise RankingDataError(f"{path}:{number}: not JSON ({exc})") from None
                if not isinstance(record, dict):
                    raise RankingDataError(f"{path}:{number}: expected a JSON object")
                yield number, record
        except UnicodeDecodeError:
            raise RankingDataError(f"{path}: not UTF-8 text") from None


def load_tools(path: Path) -> list[ToolDoc]:
    """The tool catalogue in `path`; names must be unique non-empty strings."""
    tools: list[ToolDoc] = []
    seen: set[str] = set()
    for number, record in _records(path):
        name = record.get("name")
        description = record.get("description", "")
        parameters = record.get("parameters")
        if not isinstance(name, str) or not name.strip():
            raise RankingDataError(f"{path}:{number}: 'name' must be a non-empty string")
        if name in seen:
            raise RankingDataError(f"{path}:{number}: a second tool named {name!r}")
        if not isinstance(description, str):
            raise RankingDataError(f"{path}:{number}: 'description' must be a string")
        if parameters is not None and not isinstance(parameters, dict):
            raise RankingDataError(f"{path}:{number}: 'parameters' must be a JSON object")
        seen.add(name)
        tools.append(ToolDoc(name, description, parameters))
    if not tools:
        raise RankingDataError(f"{path}: no tools in it")
    return tools


def load_cases(path: Path, tool_names: Sequence[str] | None = None) -> list[Case]:
    """The cases in `path`; with `tool_names`, every gold tool must be one of them."""
    known = set(tool_names) if tool_names is not None else None
    cases: list[Case] = []
    for number, record in _records(path):
        where = f"{path}:{number}"
        messages = record.get("messages")
        gold = record.get("gold")
        if not isinstance(messages, list) or not messages:
            raise RankingDataError(f"{where}: 'messages' must be a non-empty list")
        turns: list[Turn] = []
        for message in messages:
            if not isinstance(message, dict):
                raise RankingDataError(f"{where}: each message must be an object")
            role, content = message.get("role"), message.get("content")
            if not isinstance(role, str) or not isinstance(content, str):
                raise RankingDataError(f"{where}: a message needs string 'role' and 'content'")
            turns.append((role, content))
        if (
            not isinstance(gold, list)
            or not gold
            or not all(isinstance(name, str) for name in gold)
        ):
            raise RankingDataError(f"{where}: 'gold' must be a non-empty list of tool names")
        if known is not None:
            unknown = sorted(set(gold) - known)
            if unknown:
                raise RankingDataError(f"{where}: gold tool {unknown[0]!r} is not in the tools")
        cases.append(Case(str(record.get("id", number)), tuple(turns), frozenset(gold)))
    if not cases:
        raise RankingDataError(f"{path}: no cases in it")
    return cases


def parse_ks(text: str) -> tuple[int, ...]:
    """ "1,3,5,10" -> (1, 3, 5, 10); raises RankingDataError on anything else."""
    try:
        ks = tuple(sorted({int(part) for part in text.split(",") if part.strip()}))
    except ValueError:
        raise RankingDataError(
            f"k must be positive integers separated by commas: {text!r}"
        ) from None
    if not ks or ks[0] < 1:
        raise RankingDataError(f"k must be positive integers separated by commas: {text!r}")
    return ks


def metrics(
    rankings: Sequence[Sequence[str]], golds: Sequence[frozenset[str]], ks: Sequence[int]
) -> EvalResult:
    """Recall@k, all-gold@k and MRR of ranked ids against gold sets, averaged."""
    count = len(rankings)
    recall = dict.fromkeys(ks, 0.0)
    all_gold = dict.fromkeys(ks, 0.0)
    reciprocal = 0.0
    for ranked, gold in zip(rankings, golds, strict=True):
        for k in ks:
            found = len(gold.intersection(ranked[:k]))
            recall[k] += found / len(gold)
            all_gold[k] += 1.0 if found == len(gold) else 0.0
        for position, doc_id in enumerate(ranked, start=1):
            if doc_id in gold:
                reciprocal += 1.0 / position
                break
    scale = 1.0 / count if count else 0.0
    return EvalResult(
        cases=count,
        recall={str(k): recall[k] * scale for k in ks},
        all_gold={str(k): all_gold[k] * scale for k in ks},
        mrr=reciprocal * scale,
    )


async def evaluate(
    ranker: Ranker,
    cases: Sequence[Case],
    *,
    ks: Sequence[int] = DEFAULT_KS,
    recent: int = DEFAULT_RECENT,
    context: ContextFn | None = None,
    progress: Progress | None = None,
) -> EvalResult:
    """Rank every case's turn as the selector would and measure the rankings.

    Only ranks down to the largest k matter for recall; MRR looks at the whole ranking.
    """
    prefetch = getattr(ranker, "prefetch", None)
    rankings: list[list[str]] = []
    total = len(cases)
    for start in range(0, total, CHUNK):
        chunk = cases[start : start + CHUNK]
        queries = [
            build_query(case.messages[:-1], case.messages[-1][1], recent=recent, context=context)
            for case in chunk
        ]
        if prefetch is not None:  # embed this chunk's texts in batches, not one by one
            await prefetch([text for query in queries for text, _ in query])
        for query in queries:
            ranked = await ranker.rank(query)
            rankings.append([item.id for item in ranked])
            if progress is not None:
                progress(len(rankings), total)
    return metrics(rankings, [case.gold for case in cases], ks)
