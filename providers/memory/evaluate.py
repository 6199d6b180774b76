"""The evaluation harness: replay each case's turns into a fresh fact set, render the recall
block the next turn would get, and check the case's keywords against it.

The "current input" for that render is empty: the next turn's words are unknown, and using
the case's own last turn would let relevance ranking favour what was just said. With no
query the block is style first, then newest first, which is also what a new session sees.
The render uses the provider's default bounds (`max_facts`, `max_chars`); the cases are far
below them.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from ctxchat.kit import Progress

from .facts import Fact, Provenance
from .factset import InMemoryFactSet
from .ops import Extraction
from .recall import fact_lines, render_recall
from .statements import extract_rules
from .update import apply_ops

# A message and the facts learnt before it, to the operations it proposes.
Extractor = Callable[[str, Sequence[Fact]], Extraction]

_EPOCH = datetime(2025, 1, 1, tzinfo=UTC)


class CaseFileError(ValueError):
    """A case file that cannot be read; the message is one line naming the place."""


@dataclass(frozen=True, slots=True)
class Case:
    id: str
    turns: tuple[str, ...]
    present: tuple[str, ...] = ()
    absent: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()
    only: bool = False  # nothing may be remembered beyond what `present` names


@dataclass(frozen=True, slots=True)
class CaseResult:
    case: Case
    passed: bool
    injected: str
    missing: tuple[str, ...] = ()
    unwanted: tuple[str, ...] = ()


@dataclass(frozen=True)
class EvalResult:
    pass_rate: float
    by_tag: dict[str, float]
    failed: list[str]
    results: list[CaseResult] = field(default_factory=list, repr=False)

    def to_dict(self) -> dict[str, Any]:
        """The figures, and each failed case with the block it produced and what was
        missing from it or unwanted in it (what `memory eval --show-failed` prints)."""
        return {
            "pass_rate": self.pass_rate,
            "by_tag": self.by_tag,
            "failed": self.failed,
            "failures": [
                {
                    "id": r.case.id,
                    "turns": list(r.case.turns),
                    "block": r.injected,
                    "missing": list(r.missing),
                    "unwanted": list(r.unwanted),
                }
                for r in self.results
                if not r.passed
            ],
        }


def _strings(value: Any, key: str, where: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise CaseFileError(f"{where}: {key!r} must be a list of strings")
    return tuple(value)


def parse_case(data: Any, where: str) -> Case:
    if not isinstance(data, Mapping):
        raise CaseFileError(f"{where}: a case must be a JSON object")
    case_id = data.get("id")
    if not isinstance(case_id, str) or not case_id:
        raise CaseFileError(f"{where}: 'id' must be a non-empty string")
    turns = _strings(data.get("turns"), "turns", where)
    if not turns:
        raise CaseFileError(f"{where}: case {case_id} has no turns")
    only = data.get("only", False)
    if not isinstance(only, bool):
        raise CaseFileError(f"{where}: 'only' must be true or false")
    return Case(
        case_id,
        turns,
        _strings(data.get("present", []), "present", where),
        _strings(data.get("absent", []), "absent", where),
        _strings(data.get("tags", []), "tags", where),
        only,
    )


def load_cases(path: str | Path) -> list[Case]:
    """The cases of a JSON Lines file (blank lines skipped)."""
    try:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise CaseFileError(f"{path}: cannot read: {exc}") from exc
    cases: list[Case] = []
    seen: set[str] = set()
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        where = f"{path}:{number}"
        try:
            data = json.loads(line)
        except json.JSONDecodeError as exc:
            raise CaseFileError(f"{where}: not valid JSON ({exc.msg})") from exc
        case = parse_case(data, where)
        if case.id in seen:
            raise CaseFileError(f"{where}: duplicate case id {case.id}")
        seen.add(case.id)
        cases.append(case)
    if not cases:
        raise CaseFileError(f"{path}: no cases")
    return cases


def run_case(case: Case, extract: Extractor = extract_rules) -> CaseResult:
    """One case in a fresh, isolated fact set; each turn a minute after the one before."""
    facts = InMemoryFactSet()
    for number, turn in enumerate(case.turns):
        extraction = extract(turn, facts.active())
        apply_ops(
            facts,
            extraction.ops,
            now=_EPOCH + timedelta(minutes=number),
            provenance=Provenance(f"eval-{case.id}", f"turn-{number}"),
        )
    return score_case(case, render_recall(facts.active(), ""))


def score_case(case: Case, injected: str) -> CaseResult:
    """Whether the text injected after the case's turns holds every `present` keyword and
    none of the `absent` ones (case-insensitive).

    A case with no `present` keyword checks that nothing at all is remembered, and one
    marked `only` that every fact remembered holds one of its `present` keywords: any other
    fact in the block is reported as unwanted, line by line."""
    text = injected.casefold()
    missing = tuple(k for k in case.present if k.casefold() not in text)
    unwanted = [k for k in case.absent if k.casefold() in text]
    if not case.present or case.only:
        wanted = [k.casefold() for k in case.present]
        unwanted.extend(
            line for line in fact_lines(injected) if not any(k in line.casefold() for k in wanted)
        )
    return CaseResult(case, not missing and not unwanted, injected, missing, tuple(unwanted))


def evaluate(
    cases: Iterable[Case],
    *,
    extract: Extractor = extract_rules,
    progress: Progress | None = None,
) -> EvalResult:
    """Pass rate overall and by tag, and the failed case ids, in case order."""
    todo = list(cases)
    results: list[CaseResult] = []
    for case in todo:
        results.append(run_case(case, extract))
        if progress is not None:
            progress(len(results), len(todo))
    return summarize(results)


def summarize(results: list[CaseResult]) -> EvalResult:
    tags: dict[str, list[bool]] = {}
    for result in results:
        for tag in result.case.tags:
            tags.setdefault(tag, []).append(result.passed)
    passed = sum(r.passed for r in results)
    return EvalResult(
        pass_rate=passed / len(results) if results else 0.0,
        by_tag={t: sum(v) / len(v) for t, v in sorted(tags.items())},
        failed=[r.case.id for r in results if not r.passed],
        results=results,
    )


def evaluate_file(
    path: str | Path, *, extract: Extractor = extract_rules, progress: Progress | None = None
) -> EvalResult:
    return evaluate(load_cases(path), extract=extract, progress=progress)
