"""No test can pass by returning before it asserts: a `return` in a test function (a
parametrised case that "does not apply", say) must come after an assert or a
`pytest.raises` on its path. A case with nothing to check is left out, not passed."""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent
CHECKS = ("raises", "warns")


def _checks(statement: ast.stmt) -> bool:
    if isinstance(statement, ast.Assert):
        return True
    if isinstance(statement, ast.With | ast.AsyncWith):
        return any(
            any(word in ast.unparse(item.context_expr) for word in CHECKS)
            for item in statement.items
        )
    return False


def unchecked_returns(body: list[ast.stmt], checked: bool = False) -> list[int]:
    """Lines of the returns reached with nothing asserted on the way (nested functions are
    their own business)."""
    found = []
    for statement in body:
        if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            continue
        checked = checked or _checks(statement)
        if isinstance(statement, ast.Return) and not checked:
            found.append(statement.lineno)
        blocks = [getattr(statement, name, []) for name in ("body", "orelse", "finalbody")]
        blocks += [h.body for h in getattr(statement, "handlers", [])]
        blocks += [c.body for c in getattr(statement, "cases", [])]
        for block in blocks:
            if block and isinstance(block[0], ast.stmt):
                found += unchecked_returns(block, checked)
    return found


def functions_of(tree: ast.Module) -> list[ast.FunctionDef | ast.AsyncFunctionDef]:
    found = []
    for node in tree.body:
        members = node.body if isinstance(node, ast.ClassDef) else [node]
        found += [
            f
            for f in members
            if isinstance(f, ast.FunctionDef | ast.AsyncFunctionDef) and f.name.startswith("test")
        ]
    return found


def test_the_scan_finds_a_case_that_returns_unchecked() -> None:
    tree = ast.parse("def test_x(n):\n    if n == 2:\n        return\n    assert n\n")
    assert [unchecked_returns(f.body) for f in functions_of(tree)] == [[3]]
    tree = ast.parse("def test_x(n):\n    assert n\n    if n == 2:\n        return\n")
    assert [unchecked_returns(f.body) for f in functions_of(tree)] == [[]]


def test_no_test_returns_before_it_asserts() -> None:
    found = []
    for path in sorted(TESTS.glob("test_*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for function in functions_of(tree):
            found += [f"{path.name}:{n}: {function.name}" for n in unchecked_returns(function.body)]
    assert found == []
