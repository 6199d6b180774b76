"""The package's folders are layers: a module imports only from its own layer or the ones
below it, lazy imports inside functions included, so the tree keeps showing the import graph."""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import ctxchat

# Lowest first. `core` is the contract and the turn; `cli` only renders what the rest returns.
LAYERS = ("core", "storage", "config", "ranking", "views", "services", "cli")
PACKAGE = Path(ctxchat.__file__).parent
PROVIDERS = PACKAGE.parent / "providers"  # installed as ctxchat.providers


def module_name(path: Path) -> str:
    """`path`'s module as installed: providers/ is `ctxchat.providers`."""
    if path.is_relative_to(PACKAGE):
        parts = ("ctxchat", *path.relative_to(PACKAGE).with_suffix("").parts)
    else:
        parts = ("ctxchat", "providers", *path.relative_to(PROVIDERS).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@functools.cache  # several tests ask about every module: each is parsed once
def imported_modules(path: Path) -> frozenset[str]:
    """Every module `path` imports, lazy imports inside functions and relative ones
    (resolved against its own package) included."""
    own = module_name(path)
    package = own if path.name == "__init__.py" else own.rpartition(".")[0]
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level == 0:
                names.add(node.module or "")
                continue
            base = package.split(".")
            base = base[: len(base) - (node.level - 1)]
            names.add(".".join([*base, *([node.module] if node.module else [])]))
        elif isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
    return frozenset(names)


def imported_layers(path: Path) -> set[str]:
    names = imported_modules(path)
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


def test_relative_imports_are_seen() -> None:
    """A relative import counts as the absolute one it means (the layer check and the
    kit check below would otherwise miss `from ..services import x`)."""
    store = PACKAGE / "storage" / "sql" / "store.py"
    assert "ctxchat.storage.sql.schema" in imported_modules(store)
    memory = PROVIDERS / "memory" / "provider.py"
    assert "ctxchat.providers.memory.store" in imported_modules(memory)


# The public names a built-in may use: what a third party's provider gets. (Issue 24, item 1:
# the built-ins reached 37 engine modules past these at first; none now.)
PUBLIC = {"ctxchat", "ctxchat.kit", "ctxchat.testing"}


def engine_imports_of_built_ins() -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for path in sorted(PROVIDERS.rglob("*.py")):
        for name in imported_modules(path):
            if name.startswith("ctxchat") and not name.startswith("ctxchat.providers"):
                found.setdefault(name, set()).add(str(path.relative_to(PROVIDERS)))
    return found


def test_built_ins_reach_the_sql_store_only_through_the_kit() -> None:
    reaching = {
        name: paths
        for name, paths in engine_imports_of_built_ins().items()
        if name.startswith("ctxchat.storage.sql")
    }
    assert reaching == {}


def test_built_ins_reach_no_engine_module_beyond_the_kit() -> None:
    beyond = {
        name: paths for name, paths in engine_imports_of_built_ins().items() if name not in PUBLIC
    }
    assert beyond == {}
