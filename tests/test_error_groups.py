"""Exit codes are decided in one place: the error classes (`ctxchat.core.errors`). Problems
reported together are a `ProblemGroup`, and an error wrapping a cause exits as it does
(`exit_code_of`); no other code sets an exit code on an error it built."""

from __future__ import annotations

import ast
from pathlib import Path

import ctxchat
from ctxchat.core.errors import (
    EXIT_FAILURE,
    EXIT_USAGE,
    ConfigError,
    ProblemGroup,
    ProviderError,
    StorageError,
    exit_code_of,
)

PACKAGE = Path(ctxchat.__file__).parent
PROVIDERS = PACKAGE.parent / "providers"


def test_a_group_is_a_line_per_problem_and_exits_as_told() -> None:
    group = ProblemGroup(["a.toml: model.x: unknown option", "a.toml: agent.y: bad"])
    assert group.problems == ("a.toml: model.x: unknown option", "a.toml: agent.y: bad")
    assert group.exit_code == EXIT_USAGE
    assert ProblemGroup(["database down"], StorageError("x").exit_code).exit_code == EXIT_FAILURE


def test_a_wrapping_error_exits_as_its_cause() -> None:
    assert exit_code_of(ConfigError("bad")) == EXIT_USAGE
    assert exit_code_of(ValueError("bug")) == EXIT_FAILURE
    assert ProviderError("memory", "setup", ConfigError("bad url")).exit_code == EXIT_USAGE
    assert ProviderError("memory", "before_run", KeyError("k")).exit_code == EXIT_FAILURE


def exit_code_assignments(path: Path) -> list[str]:
    found = []
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign | ast.AugAssign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if isinstance(target, ast.Attribute) and target.attr == "exit_code":
                    value = ast.unparse(node.value) if node.value is not None else ""
                    found.append(f"{path.name}: {ast.unparse(target)} = {value}")
    return found


def test_only_the_error_classes_set_an_exit_code() -> None:
    paths = sorted([*PACKAGE.rglob("*.py"), *PROVIDERS.rglob("*.py")])
    found = [hit for path in paths for hit in exit_code_assignments(path)]
    # ProblemGroup's own, and the two wrapping errors (ProviderError, the agent's TurnFailed).
    assert found == [
        "agent.py: self.exit_code = exit_code_of(cause)",
        "errors.py: self.exit_code = exit_code",
        "errors.py: self.exit_code = exit_code_of(cause)",
    ]
