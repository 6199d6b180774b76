"""Roles end to end: real `ctxchat` processes against the local OpenAI-protocol server, and
`/role` in a real terminal."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from cli_support import assert_clean_error, assert_clean_errors, ctxchat, write_config
from fakeopenai import FakeOpenAI
from repl_support import PROMPT, Repls, turn

ROLES = """
[roles.review]
description = "review the code piped in"
instructions = "You review {{language}} code."
prompt = "Review this code:\\n\\n{{input}}"
temperature = 0.3
[roles.pirate]
description = "talk like a pirate"
instructions = "Answer as a pirate."
memory = false
"""


def system_text(request: object) -> str:
    return str(request.messages[0]["content"])  # type: ignore[attr-defined]


def test_config_init_writes_a_role_that_works(
    cli_env: dict[str, str], fake_openai: FakeOpenAI
) -> None:
    assert ctxchat("config", "init", env=cli_env).returncode == 0
    listed = ctxchat("roles", "list", env=cli_env)
    assert listed.returncode == 0, listed.stderr
    assert listed.stdout.startswith("review  review the code piped in  [{{language}}]")
    result = ctxchat("run", "--role", "review", env=cli_env, stdin="def f(): pass\n")
    assert result.returncode == 0, result.stderr
    (request,) = fake_openai.chat_requests()
    assert system_text(request).startswith("You review Python code")  # the default
    assert request.messages[-1]["content"] == "Review this code:\n\ndef f(): pass"


def test_a_piped_document_fills_input_and_the_session_keeps_its_role(
    cli_env: dict[str, str], ctxchat_home: Path, fake_openai: FakeOpenAI
) -> None:
    write_config(ctxchat_home, ROLES)
    result = ctxchat(
        "run", "--role", "review", "--arg", "language=Go", env=cli_env, stdin="x := 1\n"
    )
    assert result.returncode == 0, result.stderr
    first = fake_openai.chat_requests()[0]
    assert system_text(first).startswith("You review Go code.")
    assert first.messages[-1]["content"] == "Review this code:\n\nx := 1"
    assert first.body["temperature"] == 0.3

    listed = json.loads(ctxchat("sessions", "list", "--json", env=cli_env).stdout)
    assert [s["role"] for s in listed] == ["review"]
    table = ctxchat("sessions", "list", env=cli_env).stdout.splitlines()
    assert table[0].split()[:4] == ["id", "title", "model", "role"]
    assert "review" in table[1].split()

    # Resumed, the session goes on with its role (its arguments given again).
    again = ctxchat("run", "-c", "--arg", "language=Rust", "and this?", env=cli_env, stdin=None)
    assert again.returncode == 0, again.stderr
    second = fake_openai.chat_requests()[1]
    assert system_text(second).startswith("You review Rust code.")
    assert second.messages[-1]["content"] == "Review this code:\n\nand this?"

    # Another role replaces it, and the session remembers the new one.
    third = ctxchat("run", "-c", "--role", "pirate", "ahoy", env=cli_env, stdin=None)
    assert third.returncode == 0, third.stderr
    assert system_text(fake_openai.chat_requests()[2]).startswith("Answer as a pirate.")
    listed = json.loads(ctxchat("sessions", "list", "--json", env=cli_env).stdout)
    assert [s["role"] for s in listed] == ["pirate"]


def test_wrong_roles_and_arguments_are_one_clean_line(
    cli_env: dict[str, str], ctxchat_home: Path, fake_openai: FakeOpenAI
) -> None:
    write_config(ctxchat_home, ROLES)
    unknown = ctxchat("run", "--role", "reveiw", "hi", env=cli_env)
    assert_clean_error(unknown, 2, "unknown role 'reveiw'", "did you mean 'review'?")
    missing = ctxchat("run", "--role", "review", "hi", env=cli_env)
    assert_clean_error(missing, 2, "role 'review' needs --arg language=VALUE")
    stray = ctxchat("run", "--arg", "language=Go", "hi", env=cli_env)
    assert_clean_error(stray, 2, "--arg", "--role")
    shown = ctxchat("roles", "show", "nope", env=cli_env)
    assert_clean_error(shown, 2, "unknown role 'nope'")
    assert fake_openai.chat_requests() == []  # nothing was sent
    assert json.loads(ctxchat("sessions", "list", "--json", env=cli_env).stdout) == []


def test_config_validate_reports_every_wrong_role(
    cli_env: dict[str, str], ctxchat_home: Path
) -> None:
    write_config(
        ctxchat_home,
        '[roles.a]\ninstrutions = "x"\n[roles.b.providers.memroy]\nenabled = false\n'
        "[roles.c.providers.tools]\nmax_rounds = 2\n",
    )
    result = ctxchat("config", "validate", env=cli_env)
    lines = assert_clean_errors(result, 2, str(ctxchat_home / "config.toml"))
    assert any(
        "roles.a.instrutions: unknown option (did you mean 'instructions'?)" in x for x in lines
    )
    assert any("roles.b.providers.memroy: no provider" in x and "'memory'" in x for x in lines)
    assert any("roles.c.providers.tools.max_rounds: unknown option" in x for x in lines)


def test_roles_show_prints_the_table(cli_env: dict[str, str], ctxchat_home: Path) -> None:
    write_config(ctxchat_home, ROLES)
    shown = ctxchat("roles", "show", "pirate", env=cli_env)
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.splitlines()[:4] == [
        f"[roles.pirate]  # from {ctxchat_home / 'config.toml'}",
        'description = "talk like a pirate"',
        'instructions = "Answer as a pirate."',
        "memory = false",
    ]
    listed = json.loads(ctxchat("roles", "list", "--json", env=cli_env).stdout)
    assert [r["name"] for r in listed] == ["review", "pirate"]
    assert listed[0]["arguments"] == ["language"]


@pytest.fixture
def repl(cli_env: dict[str, str]) -> Iterator[Repls]:
    repls = Repls(cli_env)
    yield repls
    repls.close()


def test_role_in_the_repl_completes_and_switches(
    repl: Repls, ctxchat_home: Path, fake_openai: FakeOpenAI, cli_env: dict[str, str]
) -> None:
    write_config(ctxchat_home, ROLES)
    child = repl()
    child.send("/role pi\t")
    child.expect_exact("rate")  # Tab drew the rest of the name in
    child.send("\r")
    child.expect_exact("role: pirate (from the next turn)")
    child.expect_exact(PROMPT)
    turn(child, "hello")
    assert system_text(fake_openai.chat_requests()[-1]).startswith("Answer as a pirate.")
    child.send("/role\r")
    child.expect_exact("role: pirate")
    child.expect_exact("talk like a pirate")
    child.expect_exact(PROMPT)
    child.send("/role off\r")
    child.expect_exact("role: none")
    child.expect_exact(PROMPT)
    turn(child, "plain again")
    assert not system_text(fake_openai.chat_requests()[-1]).startswith("Answer as a pirate.")
    child.sendeof()
    child.expect(r"\$|$")
    child.wait()
    listed = json.loads(ctxchat("sessions", "list", "--json", env=cli_env).stdout)
    assert [s["role"] for s in listed] == [None]


def test_the_readme_role_is_a_valid_config(cli_env: dict[str, str], ctxchat_home: Path) -> None:
    readme = (Path(__file__).parents[1] / "README.md").read_text("utf-8")
    section = readme.split("### Roles\n", 1)[1].split("\n### ", 1)[0]
    block = section.split("```toml\n", 1)[1].split("```", 1)[0]
    write_config(ctxchat_home, block)
    checked = ctxchat("config", "validate", env=cli_env)
    assert checked.returncode == 0, checked.stderr
    shown = ctxchat("roles", "show", "review", env=cli_env)
    assert "[roles.review.providers.tools]" in shown.stdout
