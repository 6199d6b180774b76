"""Help that reads like words: values named `TEXT`, `N`, `SESSION...`, never a type hint
(`<str>`, `<int range>`, `list[str]`), and command summaries that fit their line."""

from __future__ import annotations

import re

import pytest
import typer

from ctxchat.cli.main import app, execute

# What Typer writes for a value it has no word for: <str>, <int range>, <path>, <list[str]>.
TYPE_HINT = re.compile(r"<(?:str|int|float|bool|path|file|datetime|list|\w+ range)\b[^>]*>")


def command_paths() -> list[list[str]]:
    """Every command and group of the app, as the words that reach it."""
    found: list[list[str]] = [[]]
    root = typer.main.get_command(app)
    stack: list[tuple[list[str], object]] = [([], root)]
    while stack:
        path, command = stack.pop()
        for name, sub in sorted(getattr(command, "commands", {}).items()):
            found.append([*path, name])
            stack.append(([*path, name], sub))
    return found


def help_of(path: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    assert execute([*path, "--help"]) == 0
    return capsys.readouterr().out


@pytest.mark.parametrize("path", command_paths(), ids=lambda p: " ".join(p) or "ctxchat")
def test_help_names_values_with_words(
    path: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    text = help_of(path, capsys)
    assert not TYPE_HINT.search(text), text
    assert "list[" not in text, text
    if "Commands:" in text:
        listing = text.split("Commands:", 1)[1].split("\n\n", 1)[0]
        for line in listing.strip().splitlines():
            assert not line.rstrip().endswith("..."), f"summary cut: {line.strip()}"


def test_arguments_read_as_words(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    delete = help_of(["sessions", "delete"], capsys)
    assert "Usage: ctxchat sessions delete [OPTIONS] SESSION...\n" in delete
    assert "\n  SESSION...  Session ids" in delete
    run = help_of(["run"], capsys)
    assert "Usage: ctxchat run [OPTIONS] [PROMPT]\n" in run
    for option in ("--session SESSION", "--title TEXT", "--show-last N", "--model NAME"):
        assert option in run
    assert "--config FILE" in run
    export = help_of(["sessions", "export"], capsys)
    assert "-o, --output FILE" in export
