"""A long migration reports its progress through the display the caller lends
(`ProviderEnv.progress`), and no provider draws on the terminal itself."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from test_session_search import search, write_version_2

from ctxchat.core.provider import ProviderEnv
from ctxchat.providers.history.index import PROGRESS_FROM
from ctxchat.providers.history.sql import SqlHistoryProvider

pytest_plugins = ["sqlfixtures"]
# Tests of a migration's progress: each database starts empty, as no migration left it.
pytestmark = pytest.mark.unmigrated
DRAWING = ("ctxchat.cli",)  # what draws on a terminal
PROVIDERS = Path(__file__).resolve().parent.parent / "providers"


def test_indexing_an_old_history_reports_through_the_lent_display(
    sql_url: str, tmp_path: Path
) -> None:
    write_version_2(sql_url, [f"remark {i} about lunch" for i in range(PROGRESS_FROM)])
    reports: list[tuple[str, int, int]] = []

    def bars(label: str):  # type: ignore[no-untyped-def]
        return lambda done, total: reports.append((label, done, total))

    env = ProviderEnv(data_dir=tmp_path, progress=bars)
    provider = SqlHistoryProvider("history", SqlHistoryProvider.Options(url=sql_url), env=env)
    search(provider, "lunch")  # the first use migrates
    total = PROGRESS_FROM + 1  # and the unreadable row
    assert {label for label, _, _ in reports} == {"indexing the history for search"}
    done = [d for _, d, _ in reports]
    assert done == sorted(done)
    assert len(done) > 2  # a bar that moves
    assert reports[-1][1:] == (total, total)  # and ends


def test_a_short_migration_shows_nothing(sql_url: str, tmp_path: Path) -> None:
    write_version_2(sql_url, ["an old remark about lunch"])
    reports: list[object] = []
    env = ProviderEnv(data_dir=tmp_path, progress=lambda label: lambda *a: reports.append(a))
    search(SqlHistoryProvider("history", SqlHistoryProvider.Options(url=sql_url), env=env), "lunch")
    assert reports == []


def terminal_use(path: Path) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Attribute) and node.attr in {"stdout", "stderr", "isatty"}:
            found.append(f"{path.name}:{node.lineno}: .{node.attr}")
        elif isinstance(node, ast.Call) and getattr(node.func, "id", None) in {"print", "input"}:
            found.append(f"{path.name}:{node.lineno}: {node.func.id}()")  # type: ignore[attr-defined]
        elif isinstance(node, ast.ImportFrom | ast.Import):
            names = [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            names += [a.name for a in node.names] if isinstance(node, ast.Import) else []
            for name in names:
                if name.split(".")[0] == "rich" or name.startswith(DRAWING):
                    found.append(f"{path.name}:{node.lineno}: import {name}")
    return found


def test_no_provider_writes_to_the_terminal() -> None:
    assert [hit for p in sorted(PROVIDERS.rglob("*.py")) for hit in terminal_use(p)] == []
