"""The project's source files parsed once per test process.

The static checks (the layers, the capabilities, who sets an exit code, which provider
writes to the terminal) each walk every module of ctxchat and providers: parsed again
by each test, that was about 1,600 parses and 2.8 s of CPU of the fast loop, for some
300 files. The trees are shared, so a check only reads them.
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path


@functools.cache
def parsed(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"))


@functools.cache
def walked(path: Path) -> tuple[ast.AST, ...]:
    """Every node of `path`'s tree, in `ast.walk`'s order."""
    return tuple(ast.walk(parsed(path)))
