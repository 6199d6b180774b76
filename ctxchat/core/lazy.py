"""Names a package exports but loads on first use (PEP 562): `import ctxchat` and the
memory library cost nothing until a name is read. The one helper of every lazy `__init__`."""

from __future__ import annotations

import importlib
from collections.abc import Mapping, MutableMapping
from typing import Any


def load_export(
    package: str, exports: Mapping[str, str], namespace: MutableMapping[str, Any], name: str
) -> Any:
    """The exported `name`, imported from the module `exports` names for it (relative to
    `package` when it starts with a dot) and kept in `namespace`, so the next read is a
    plain attribute; `AttributeError` for a name the package does not export."""
    module = exports.get(name)
    if module is None:
        raise AttributeError(f"module {package!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module, package), name)
    namespace[name] = value
    return value
