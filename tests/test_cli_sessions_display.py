"""How `ctxchat sessions` looks: the list at terminal widths and in a pipe, `show` in a
pipe, exports to stdout, the delete confirmation on a terminal, the help's placeholders."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from cli_support import assert_clean_error, ctxchat, session_documents, write_config
from fakeopenai import Error, FakeOpenAI, Text
from repl_support import ANSI, Repls, finished

LONG_TITLE = "Planning the trip to Lisbon in May with the whole family"
AUDITED = """
[[providers]]
type = "in_memory_history"
source_id = "history"

[[providers]]
type = "audit"
"""


@pytest.fixture
def terminal(cli_env: dict[str, str]) -> Iterator[Repls]:
    repls = Repls(cli_env)
    yield repls
    repls.close()


def make_session(env: dict[str, str], *lines: str, title: str | None = None) -> str:
    args = ["run", "--lines", "--json"] + (["--title", title] if title else [])
    result = ctxchat(*args, env=env, stdin="".join(f"{line}\n" for line in lines))
    assert result.returncode == 0, result.stderr
    return str(json.loads(result.stdout.splitlines()[0])["session"])


def screen_lines(output: str) -> list[str]:
    return [ANSI.sub("", line) for line in output.replace("\r\n", "\n").split("\n") if line]


def assert_tidy(lines: list[str]) -> None:
    for line in lines:
        assert line == line.rstrip(), f"trailing spaces: {line!r}"


def _sessions(env: dict[str, str]) -> list[str]:
    short_model = {**env, "CTXCHAT_MODEL": "m1"}  # every model name shorter than "model"
    return [
        make_session(short_model, "hello", title=LONG_TITLE),
        make_session(short_model, "one", "two", title="Short"),
    ]


def test_list_on_an_80_column_terminal(terminal: Repls, cli_env: dict[str, str]) -> None:
    first, second = _sessions(cli_env)
    status, output = finished(terminal.spawn("sessions", "list", dimensions=(24, 80)))
    assert status == 0
    header, *rows = screen_lines(output)
    assert header.split()[:4] == ["id", "title", "model", "turns"]  # none cut
    assert header.endswith("last used")
    shown = [row.split()[0] for row in rows]  # the shortest prefixes that tell them apart
    pairs = list(zip(shown, [second, first], strict=True))
    assert all(len(prefix) < len(whole) and whole.startswith(prefix) for prefix, whole in pairs)
    assert shown[0] != shown[1]
    for row in [header, *rows]:
        assert len(row) <= 80, row
    long_row = rows[1]
    title = long_row[len(shown[1]) :].strip()
    assert title.startswith(LONG_TITLE[:16]), long_row  # a readable title, not 5 letters
    assert re.search(r"\d\d:\d\d$", long_row), long_row  # last used keeps its time
    assert re.search(r"\b1 turn\b|\s1\s", long_row)
    assert_tidy([header, *rows])


def test_list_on_a_wide_terminal_shows_everything(terminal: Repls, cli_env: dict[str, str]) -> None:
    _sessions(cli_env)
    status, output = finished(terminal.spawn("sessions", "list", dimensions=(24, 160)))
    assert status == 0
    header, *rows = screen_lines(output)
    assert header.split() == ["id", "title", "model", "turns", "created", "last", "used"]
    assert LONG_TITLE in rows[1]
    assert len(re.findall(r"\d\d:\d\d", rows[1])) == 2  # created and last used, in full
    assert_tidy([header, *rows])


def test_list_in_a_pipe_is_whole_rows(cli_env: dict[str, str]) -> None:
    _sessions(cli_env)
    result = ctxchat("sessions", "list", env=cli_env)
    assert result.returncode == 0, result.stderr
    header, *rows = result.stdout.splitlines()
    assert "created" in header
    assert LONG_TITLE in rows[1]
    assert len(re.findall(r"\d\d:\d\d", rows[1])) == 2
    assert_tidy(result.stdout.splitlines())


def test_show_in_a_pipe_is_not_wrapped(
    cli_env: dict[str, str], ctxchat_home: Path, fake_openai: FakeOpenAI
) -> None:
    write_config(ctxchat_home, AUDITED)
    question = "why " + " ".join(f"word{i}" for i in range(40))  # well over 80 columns
    failure = "the endpoint said no: " + " ".join(f"reason{i}" for i in range(20))
    fake_openai.enqueue(Text("fine"), Error(400, failure))
    session_id = make_session(cli_env, question)
    assert ctxchat("run", "-s", session_id, env=cli_env, stdin="again\n").returncode == 1

    shown = ctxchat("sessions", "show", session_id, env=cli_env)
    assert shown.returncode == 0, shown.stderr
    assert f"you › {question}\n" in shown.stdout
    assert_tidy(shown.stdout.splitlines())

    audit = ctxchat("sessions", "show", session_id, "--audit", env=cli_env)
    assert audit.returncode == 0, audit.stderr
    (failed,) = [line for line in audit.stdout.splitlines() if line.startswith("turn 2 ")]
    assert failed.endswith("reason19"), failed  # the whole error on the turn's line
    assert_tidy(audit.stdout.splitlines())


def test_audit_markdown_labels_each_message_with_its_role(
    cli_env: dict[str, str], ctxchat_home: Path
) -> None:
    write_config(ctxchat_home, AUDITED)
    session_id = make_session(cli_env, "first", "second")
    result = ctxchat("sessions", "export", session_id, "--audit", env=cli_env)
    assert result.returncode == 0, result.stderr
    turn_two = result.stdout.split("## Turn 2")[1]
    context = turn_two.split("### Context from `history` (2 messages)")[1].split("### Input")[0]
    assert "#### You\n\nfirst" in context
    assert "#### Assistant\n\necho: first" in context
    assert "### Output\n\n#### Assistant\n\necho: second" in turn_two
    assert "Recorded by `audit`: 2 turns" in result.stdout


def test_export_to_stdout_and_format_from_the_file_name(
    cli_env: dict[str, str], tmp_path: Path
) -> None:
    session_id = make_session(cli_env, "hello")
    folder = tmp_path / "here"
    folder.mkdir()
    dash = ctxchat("sessions", "export", session_id, "-o", "-", env=cli_env, cwd=folder)
    assert dash.returncode == 0, dash.stderr
    assert dash.stdout.startswith("# hello\n")
    assert list(folder.iterdir()) == []  # no file named "-"
    dash_json = ctxchat("sessions", "export", session_id, "-f", "json", "-o", "-", env=cli_env)
    assert json.loads(dash_json.stdout)["id"] == session_id

    target = tmp_path / "chat.jsonl"
    written = ctxchat("sessions", "export", session_id, "-o", str(target), env=cli_env)
    assert written.returncode == 0, written.stderr
    assert "exported 2 messages" in written.stderr
    first = json.loads(target.read_text().splitlines()[0])
    assert first == {"role": "user", "content": "hello"}


def test_delete_asks_on_a_terminal_naming_the_title(
    terminal: Repls, cli_env: dict[str, str], ctxchat_home: Path
) -> None:
    session_id = make_session(cli_env, "hello", title="my title")
    asked = terminal.spawn("sessions", "delete", session_id[:10])
    asked.expect_exact(f'Delete session {session_id} "my title"? [y/N]')
    asked.send("n\r")
    status, output = finished(asked)
    assert status == 0
    assert "nothing deleted" in output
    assert [d["id"] for d in session_documents(ctxchat_home)] == [session_id]

    asked = terminal.spawn("sessions", "delete", "my title")
    asked.expect_exact('"my title"? [y/N]')
    asked.send("y\r")
    status, output = finished(asked)
    assert status == 0
    assert f"deleted {session_id}" in output
    assert session_documents(ctxchat_home) == []


def test_delete_without_a_terminal_refuses_in_one_lowercase_line(
    cli_env: dict[str, str],
) -> None:
    session_id = make_session(cli_env, "hello", title="kept")
    refused = ctxchat("sessions", "delete", session_id, env=cli_env)
    line = assert_clean_error(refused, 2, "--yes")
    assert f'error: delete session {session_id} "kept": not confirmed; pass --yes' in line


@pytest.mark.parametrize(
    ("command", "usage"),
    [
        ("show", "[OPTIONS] SESSION"),
        ("export", "[OPTIONS] SESSION"),
        ("rename", "[OPTIONS] SESSION TITLE"),
        ("delete", "[OPTIONS] SESSION..."),
    ],
)
def test_help_names_the_session_argument(cli_env: dict[str, str], command: str, usage: str) -> None:
    result = ctxchat("sessions", command, "--help", env=cli_env)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[0].endswith(usage)  # words; [brackets] when optional
    assert "ref" not in result.stdout.replace("prefix", "")  # the parameter's Python name
