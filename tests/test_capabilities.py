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


def test_the_provider_base_is_the_turn_and_nothing_more() -> None:
    from ctxchat import ContextProvider

    members = {n for n in vars(ContextProvider) if not n.startswith("_")}
    assert members == {
        "Options",
        "setup",
        "stores_turn",
        "before_run",
        "after_run",
        "record_turn",
        "after_stored_turn",
    }
    provider = ContextProvider("plain")
    assert {n for n in vars(provider) if not n.startswith("_")} == {"source_id", "options", "env"}
    # A provider with no capability is asked for none: nothing optional is on the base.
    assert not isinstance(provider, capabilities.KeepsSessionData)
    assert not isinstance(provider, capabilities.Closes)
    assert not isinstance(provider, capabilities.ChecksReach)


def test_a_provider_is_built_from_an_options_instance_not_from_keywords() -> None:
    import inspect
    from dataclasses import dataclass

    import pytest

    from ctxchat import ContextProvider, option

    @dataclass(frozen=True)
    class MottoOptions:
        motto: str = option("be kind", help="what to remind the model of")

    class Motto(ContextProvider[MottoOptions]):
        pass

    parameters = inspect.signature(ContextProvider.__init__).parameters.values()
    assert not [p for p in parameters if p.kind is inspect.Parameter.VAR_KEYWORD]
    assert Motto("motto", MottoOptions(motto="measure twice")).options.motto == "measure twice"
    assert Motto("motto").options == MottoOptions()
    with pytest.raises(TypeError):
        Motto("motto", motto="measure twice")  # type: ignore[call-arg]
