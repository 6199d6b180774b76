"""The gate before the rules: every sentence the rules learn from passes it (so it costs no
memory), and messages that tell nothing about the user are passed over without compiling
the rules at all (so they cost no time)."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

from ctxchat.providers.memory import extract_rules
from ctxchat.providers.memory.gate import might_tell

TESTS = Path(__file__).resolve().parent
DEV = Path("/work/shared/data/memory/dev.jsonl")


def taught_sentences() -> list[str]:
    """Every string in the memory tests (and the dev cases, when present) that the rules
    learn something from once the gate is out of the way."""
    found: set[str] = set()
    for path in TESTS.glob("test_memory*.py"):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            is_text = isinstance(node, ast.Constant) and isinstance(node.value, str)
            if is_text and 3 < len(node.value) < 300:
                found.add(node.value)
    if DEV.exists():
        for line in DEV.read_text("utf-8").splitlines():
            found.update(json.loads(line)["turns"])
    from ctxchat.providers.memory.rules import _Reader, ranked

    def ungated(text: str) -> bool:
        return any(_Reader(text, grammar).run() for _, grammar in ranked(text))

    return sorted(s for s in found if ungated(s))


def test_every_sentence_the_rules_learn_from_passes_the_gate() -> None:
    taught = taught_sentences()
    assert len(taught) > 150
    assert [s for s in taught if not might_tell(s)] == []


@pytest.mark.parametrize(
    "text",
    ["hi", "What's the weather like?", "Explain how tides work.", "thanks!", "Summarise Hamlet."],
)
def test_a_message_that_tells_nothing_is_passed_over(text: str) -> None:
    assert not might_tell(text)
    assert extract_rules(text).ops == ()


def test_passing_over_compiles_no_rules() -> None:
    script = (
        "from ctxchat.providers.memory import extract_rules\n"
        "from ctxchat.providers.memory.rules import grammars\n"
        "extract_rules('hello there, how are things?')\n"
        "print(grammars.cache_info().currsize)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.stdout.strip() == "0", done.stderr
