"""The app builds a command when the command line names it (`ctxchat/cli/lazy_commands.py`)
and reads exactly as the whole app Typer builds at once."""

from __future__ import annotations

import pytest
import typer
import typer.main
from typer import _click

from ctxchat.cli.lazy_commands import BuiltOnUse, lazy_command
from ctxchat.cli.main import app, execute


def test_a_command_is_built_on_its_first_lookup_only() -> None:
    built: list[str] = []

    def builder(name: str) -> _click.Command:
        def build() -> _click.Command:
            built.append(name)
            return typer.core.TyperCommand(name=name)

        return build

    commands = BuiltOnUse({"run": builder("run"), "sessions": builder("sessions")})
    assert list(commands) == ["run", "sessions"]
    assert "sessions" in commands
    assert built == []
    first = commands.get("run")
    assert first is not None
    assert first.name == "run"
    assert commands.get("run") is first
    assert commands.get("nothing") is None
    assert built == ["run"]
    assert [name for name, _ in commands.items()] == ["run", "sessions"]
    assert built == ["run", "sessions"]


def help_text(command: _click.Command, args: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    with pytest.raises(SystemExit):
        command.main(args=[*args, "--help"], prog_name="ctxchat")
    return capsys.readouterr().out


@pytest.mark.parametrize("args", [[], ["sessions"], ["run"]], ids=["ctxchat", "sessions", "run"])
def test_the_help_is_the_whole_apps(
    args: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    whole = help_text(typer.main.get_command(app), args, capsys)
    assert "Commands:" in whole or "Options:" in whole
    assert help_text(lazy_command(app), args, capsys) == whole


def test_a_mistyped_command_is_matched_against_every_name(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert execute(["sesions"]) == 2
    assert "No such command 'sesions'. Did you mean 'sessions'?" in capsys.readouterr().err
