"""Every optional capability a provider may have is a protocol of one module,
`ctxchat.core.capabilities`, exported from `ctxchat` for third parties: a newcomer reads one
file to learn what a provider can offer besides the turn (issue 24, item 3)."""

from __future__ import annotations

import ast
from pathlib import Path

import ctxchat
from ctxchat.core import capabilities

PACKAGE = Path(ctxchat.__file__).parent
PROVIDERS = PACKAGE.parent / "providers"
HOME = PACKAGE / "core" / "capabilities.py"


def runtime_checkable_protocols(path: Path) -> list[str]:
    """The classes of `path` decorated `@runtime_checkable`: what the engine checks a
    provider for with `isinstance`."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [
        node.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ClassDef)
        and any(ast.unparse(d).endswith("runtime_checkable") for d in node.decorator_list)
    ]


def test_no_capability_is_declared_outside_the_capabilities_module() -> None:
    elsewhere = {
        f"{path.relative_to(PACKAGE.parent)}:{name}"
        for root in (PACKAGE, PROVIDERS)
        for path in sorted(root.rglob("*.py"))
        if path != HOME
        for name in runtime_checkable_protocols(path)
    }
    assert elsewhere == set()


def test_every_capability_is_exported_from_ctxchat() -> None:
    declared = set(runtime_checkable_protocols(HOME))
    assert {"AuditSource", "CommandSource", "InDatabase", "MemorySource", "ToolSource"} <= declared
    for name in declared:
        assert getattr(ctxchat, name) is getattr(capabilities, name), name
        assert name in ctxchat.__all__, name
