"""User memory: durable facts and preferences learnt from the user's own words.

The core a provider builds on, with no dependency on the engine's provider contract:

    extraction = extract_rules(text)              # or parse_reply(model_reply, text)
    changes = apply_ops(facts, extraction.ops, now=..., provenance=Provenance(sid, mid))
    block = render_recall(facts.active(), current_input, max_facts=..., max_chars=...)

- `extract_rules` reads one user message (English, German, French, Spanish) and proposes
  `Op`s, each with the exact evidence span; `Extraction.secret_dropped` says a secret was
  refused (tell the user once).
- `build_prompt` / `parse_reply` are the two ends of the LLM extractor; `merge` combines two
  extractors' results (`extractor = "both"`).
- `apply_ops` is the one deterministic update step over any `FactSet` (`InMemoryFactSet`
  here; a SQL store implements the same protocol) and returns the `Change`s to announce.
- `render_recall` is the instruction block, ranked by any `rank(query, docs)` callable.
- `evaluate_file` / `load_cases` run the evaluation cases (`ctxchat memory eval`). The
  function `evaluate` is imported from `.evaluate`: here that name is the module, once loaded.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ctxchat.kit import load_export

# Names load on first use: a turn with nothing to remember imports only what it uses (the
# gate, the store), not the rules, the LLM prompt or the evaluation.
if TYPE_CHECKING:
    from .changes import Change
    from .evaluate import Case, CaseFileError, EvalResult, evaluate_file, load_cases
    from .facts import Fact, FactFormatError, PastValue, Provenance
    from .factset import FactSet, InMemoryFactSet
    from .llm import ExtractionPrompt, build_prompt, parse_reply
    from .ops import Extraction, Op, OpFormatError, merge
    from .rank import Rank, word_overlap
    from .recall import render_recall
    from .secrets import looks_secret
    from .slots import SLOTS, Slot, slot_info
    from .statements import extract_rules
    from .update import apply_ops

_EXPORTS = {
    "Case": ".evaluate",
    "CaseFileError": ".evaluate",
    "EvalResult": ".evaluate",
    "evaluate_file": ".evaluate",
    "load_cases": ".evaluate",
    "Fact": ".facts",
    "FactFormatError": ".facts",
    "PastValue": ".facts",
    "Provenance": ".facts",
    "FactSet": ".factset",
    "InMemoryFactSet": ".factset",
    "ExtractionPrompt": ".llm",
    "build_prompt": ".llm",
    "parse_reply": ".llm",
    "Extraction": ".ops",
    "Op": ".ops",
    "OpFormatError": ".ops",
    "merge": ".ops",
    "Rank": ".rank",
    "word_overlap": ".rank",
    "render_recall": ".recall",
    "extract_rules": ".statements",
    "looks_secret": ".secrets",
    "SLOTS": ".slots",
    "Slot": ".slots",
    "slot_info": ".slots",
    "Change": ".changes",
    "apply_ops": ".update",
}

__all__ = [
    "SLOTS",
    "Case",
    "CaseFileError",
    "Change",
    "EvalResult",
    "Extraction",
    "ExtractionPrompt",
    "Fact",
    "FactFormatError",
    "FactSet",
    "InMemoryFactSet",
    "Op",
    "OpFormatError",
    "PastValue",
    "Provenance",
    "Rank",
    "Slot",
    "apply_ops",
    "build_prompt",
    "evaluate_file",
    "extract_rules",
    "load_cases",
    "looks_secret",
    "merge",
    "parse_reply",
    "render_recall",
    "slot_info",
    "word_overlap",
]


def __getattr__(name: str) -> Any:
    return load_export(__name__, _EXPORTS, globals(), name)
