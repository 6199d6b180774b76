"""The command itself: version, help, exit codes documented, start-up kept light."""

from __future__ import annotations

import subprocess
import sys

import pytest
from cli_support import assert_clean_error, ctxchat

from ctxchat import __version__

# Only a run that loads a GGUF file imports these (xllamacpp only in the server's child).
LOCAL_MODEL = (
    "xllamacpp",
    "ctxchat.services.llama_server",
    "ctxchat.services.free_cores",
    "ctxchat.services.model_pull",
)
HEAVY = (
    "openai",
    "sqlalchemy",
    "prompt_toolkit",
    "rich.markdown",
    "ctxchat.core.agent",
    "ctxchat.services.build",
    "httpx",
    "httpx2",
    "mcp",  # imported only when a configured MCP server starts
    *LOCAL_MODEL,
)

PROBE = """
import sys
from ctxchat.cli.main import execute
code = execute(sys.argv[1:])
print(",".join(m for m in {heavy!r} if m in sys.modules))
sys.exit(code)
"""


# Typer itself reaches for pydantic once it builds a command's parameters (`run --help`);
# the top-level --help and --version must stay clear of it too.
TOP_LEVEL_HEAVY = (*HEAVY, "numpy", "pydantic")


@pytest.mark.parametrize(
    ("args", "heavy"),
    [
        (["--version"], TOP_LEVEL_HEAVY),
        (["--help"], TOP_LEVEL_HEAVY),
        (["run", "--help"], HEAVY),
        (["sessions", "--help"], HEAVY),
        (["tools", "--help"], HEAVY),
        (["models", "--help"], HEAVY),
        (["serve", "--help"], HEAVY),
    ],
)
def test_help_and_version_import_nothing_heavy(
    args: list[str], heavy: tuple[str, ...], cli_env: dict[str, str]
) -> None:
    result = subprocess.run(
        [sys.executable, "-c", PROBE.format(heavy=heavy), *args],
        capture_output=True,
        text=True,
        env=cli_env,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    imported = result.stdout.splitlines()[-1]
    assert imported == "", f"{args} imported {imported}"


def test_a_turn_against_a_server_imports_nothing_of_the_local_model(
    cli_env: dict[str, str],
) -> None:
    result = subprocess.run(
        [sys.executable, "-c", PROBE.format(heavy=LOCAL_MODEL), "run", "hello"],
        input="",
        capture_output=True,
        text=True,
        env=cli_env,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    imported = result.stdout.splitlines()[-1]
    assert imported == "", f"a turn imported {imported}"


def test_version(cli_env: dict[str, str]) -> None:
    for flag in ("--version", "-V"):
        result = ctxchat(flag, env=cli_env)
        assert result.returncode == 0
        assert result.stdout == f"ctxchat {__version__}\n"


def test_help_documents_the_exit_codes(cli_env: dict[str, str]) -> None:
    for args in (["--help"], ["run", "--help"]):
        text = " ".join(ctxchat(*args, env=cli_env).stdout.split())
        assert (
            "0 ok · 1 the model or a tool failed · 2 usage or config error · 130 interrupted"
            in (text)
        )
    run_help = ctxchat("run", "--help", env=cli_env).stdout
    for option in (
        "--session",
        "--continue",
        "--title",
        "--model",
        "--base-url",
        "--system",
        "--config",
        "--plain",
        "--script",
        "--json",
        "--turns-separator",
        "--show-last",
    ):
        assert option in run_help


def test_no_command_with_piped_stdin_runs_it_as_a_script(cli_env: dict[str, str]) -> None:
    result = ctxchat(env=cli_env, stdin="hello\nthere\n")
    assert result.returncode == 0, result.stderr
    assert result.stdout == "echo: hello\nthere\n"  # all of stdin, one turn, as `run` does
    empty = ctxchat(env=cli_env, stdin=b"")
    assert_clean_error(empty, 2, "nothing to send")
    helped = ctxchat("--help", env=cli_env)
    assert helped.returncode == 0
    assert "Usage: ctxchat [OPTIONS] [COMMAND [ARGS]...]" in helped.stdout
    assert "Commands" in helped.stdout


def test_a_group_without_its_command_prints_its_help_as_a_usage_error(
    cli_env: dict[str, str],
) -> None:
    result = ctxchat("sessions", env=cli_env)
    assert result.returncode == 2
    assert "Usage: ctxchat sessions" in result.stderr


def test_unknown_command(cli_env: dict[str, str]) -> None:
    assert_clean_error(ctxchat("chatt", env=cli_env), 2, "chatt")


def test_shell_completion_script_is_offered(cli_env: dict[str, str]) -> None:
    result = ctxchat("--show-completion", "bash", env={**cli_env, "SHELL": "/bin/bash"})
    assert result.returncode == 0, result.stderr
    assert "_CTXCHAT_COMPLETE" in result.stdout
