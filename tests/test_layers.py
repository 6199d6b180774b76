"""The package's folders are layers: a module imports only from its own layer or the ones
below it, lazy imports inside functions included, so the tree keeps showing the import graph."""

from __future__ import annotations

import ast
from pathlib import Path

import ctxchat

# Lowest first. `core` is the contract and the turn; `cli` only renders what the rest returns.
LAYERS = ("core", "storage", "config", "ranking", "views", "services", "cli")
PACKAGE = Path(ctxchat.__file__).parent


def imported_layers(path: Path) -> set[str]:
    names: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.append(node.module)
        elif isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
    return {n.split(".")[1] for n in names if n.startswith("ctxchat.") and n.count(".") >= 1}


def test_every_module_imports_only_its_own_layer_or_lower() -> None:
    upward = []
    for layer in LAYERS:
        for path in sorted((PACKAGE / layer).rglob("*.py")):
            for target in imported_layers(path) & set(LAYERS):
                if LAYERS.index(target) > LAYERS.index(layer):
                    upward.append(f"{path.relative_to(PACKAGE)} imports ctxchat.{target}")
    assert upward == []


def test_every_folder_is_a_known_layer() -> None:
    folders = {p.name for p in PACKAGE.iterdir() if (p / "__init__.py").exists()}
    assert folders - {"providers"} == set(LAYERS)


def test_the_engine_never_imports_a_built_in_provider() -> None:
    """Built-in providers plug in through entry points, as a third party's would."""
    reaching = [
        str(path.relative_to(PACKAGE))
        for layer in LAYERS
        for path in sorted((PACKAGE / layer).rglob("*.py"))
        if "providers" in imported_layers(path)
    ]
    assert reaching == []
