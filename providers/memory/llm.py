"""The LLM extractor's two ends: the prompt, and a strict parser of the model's reply.

The model call itself belongs to the provider. The parser trusts nothing: the reply must be
one JSON object; an op whose `evidence` is not a verbatim span of the user's message is
dropped (that is what keeps the model from remembering its own inventions or the assistant's
words); a reply that is not valid JSON is dropped whole with a one-line warning.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .facts import Fact
from .normalize import words
from .ops import Extraction, Op, OpFormatError
from .secrets import screen
from .slots import SLOTS, is_known_slot, slot_info

_FENCE = re.compile(r"^\s*```(?:json)?\s*\n(?P<body>.*?)\n\s*```\s*$", re.DOTALL)
LLM_KINDS = frozenset({"add", "update", "forget", "retract"})


@dataclass(frozen=True, slots=True)
class ExtractionPrompt:
    system: str
    user: str


def _slot_list() -> str:
    names = ", ".join(sorted(SLOTS))
    return f"{names}, favourite:<thing> (e.g. favourite:colour)"


SYSTEM_PROMPT = """\
You maintain a memory of durable facts the user states about themselves, and of how they
want to be answered. Read ONLY the user's message below and reply with ONE JSON object and
nothing else:

{{"operations": [{{"op": "add" | "update" | "retract" | "forget", "slot": SLOT or null,
  "value": "...", "evidence": "...", "replaces": "old value, only for a correction"}}]}}

Rules:
- "evidence" must be copied exactly, character for character, from the user's message.
- Record only facts the user asserts about themselves (name, where they live, job, languages,
  diet, allergies, health, likes, dislikes, favourites, family, pets, schedule) and standing
  preferences about replies (language, length, format, units).
- Never record questions, hypotheticals ("if I were vegan"), the content of a task
  ("translate 'I love cats'"), facts about other people, or quoted or pasted text.
- Never record passwords, keys, tokens, card, IBAN or account numbers.
- "retract": something no longer holds ("I don't eat meat anymore"). "forget": the user asks
  you to forget; slot "*" means everything; value narrows which facts.
- Slots: {slots}. Use null for anything else (free text).
- Nothing to record: {{"operations": []}}
"""


# The reply's shape, sent as `response_format` where the server takes it (OpenAI, vLLM,
# llama.cpp's server turn it into a grammar): a small model then cannot answer in prose.
# Bounded, so that a model that rambles inside the grammar still closes the object before
# the reply cap (a tiny model fills every string to its limit): at most 3 x (24 + 48 + 96)
# characters and the syntax around them, under EXTRACTION_MAX_TOKENS even at a token a
# character. A message tells a few things, each in a short span.
OPERATIONS_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "operations": {
            "type": "array",
            "maxItems": 3,
            "items": {
                "type": "object",
                "properties": {
                    "op": {"type": "string", "enum": ["add", "update", "retract", "forget"]},
                    "slot": {"type": ["string", "null"], "maxLength": 24},
                    "value": {"type": "string", "maxLength": 48},
                    "evidence": {"type": "string", "maxLength": 96},
                },
                "required": ["op", "slot", "value", "evidence"],
                "additionalProperties": False,
            },
        }
    },
    "required": ["operations"],
    "additionalProperties": False,
}
# An extraction is a short JSON object; an internal call always has a cap of its own.
EXTRACTION_MAX_TOKENS = 768


def request_options(*, schema: bool) -> dict[str, Any]:
    """Sampling for the extraction request: deterministic, capped, shaped by the schema."""
    options: dict[str, Any] = {"temperature": 0, "max_tokens": EXTRACTION_MAX_TOKENS}
    if schema:
        options["response_format"] = {
            "type": "json_schema",
            "json_schema": {"name": "memory_operations", "schema": OPERATIONS_SCHEMA},
        }
    return options


def build_prompt(message: str, known: Sequence[Fact] = ()) -> ExtractionPrompt:
    """The messages to send: system instructions and the user's message (with what is
    already remembered, so corrections can name the old value)."""
    lines = [f"- {slot_info(f.slot).label} [{f.slot}]: {f.value}" for f in known if f.active]
    memory = "\n".join(lines) if lines else "(nothing yet)"
    user = f"Already remembered:\n{memory}\n\nThe user's message:\n<<<\n{message}\n>>>"
    return ExtractionPrompt(SYSTEM_PROMPT.format(slots=_slot_list()), user)


def _backed(value: str, evidence: str) -> bool:
    """Whether every word of a value is a word of its evidence (plurals and case aside)."""
    said = set(words(evidence))
    wanted = [w for w in words(value) if len(w) > 2]
    return bool(wanted) and all(w in said for w in wanted)


def parse_reply(reply: str, message: str) -> Extraction:
    """The ops in the model's reply that are backed by the user's message."""
    fenced = _FENCE.match(reply)
    text = fenced.group("body") if fenced else reply
    try:
        data: Any = json.loads(text)
    except ValueError:
        return Extraction(warning="memory: the model's reply was not valid JSON; ignored")
    raw = data.get("operations") if isinstance(data, dict) else None
    if not isinstance(raw, list):
        return Extraction(warning="memory: the model's reply had no operations list; ignored")
    ops: list[Op] = []
    for item in raw:
        if not isinstance(item, dict):
            continue
        try:
            op = Op.from_dict(item)
        except OpFormatError:
            continue
        evidence = op.evidence.strip()
        if not evidence or evidence not in message or op.kind not in LLM_KINDS:
            continue
        slot = op.slot
        if slot is not None and slot not in {"*"} and not slot.startswith("category:"):
            slot = slot if is_known_slot(slot) else None
        if op.kind != "forget" and not op.value.strip():
            continue
        if op.kind in {"add", "update"} and not _backed(op.value, evidence):
            continue  # a value the user never said ("I live in Paris" -> "Evilville")
        ops.append(Op(op.kind, slot, op.value.strip(), evidence, op.replaces))
    return screen(ops)
