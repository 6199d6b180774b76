"""Every name in .ci/vulture_whitelist.py is one vulture would report without it: a stale
entry (a name the code now uses) would hide that name going dead later."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
WHITELIST = ROOT / ".ci" / "vulture_whitelist.py"


def whitelisted() -> set[str]:
    names = set()
    for node in ast.parse(WHITELIST.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Attribute):
            names.add(node.value.attr)
    return names


@pytest.mark.slow  # starts Python processes: the slow tier's
def test_every_whitelisted_name_is_one_vulture_would_report() -> None:
    found = subprocess.run(
        [sys.executable, "-m", "vulture", "ctxchat", "providers", "--min-confidence", "60"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    reported = set(re.findall(r"unused \w+ '([^']+)'", found.stdout))
    assert reported, found.stdout + found.stderr
    assert sorted(whitelisted() - reported) == []
