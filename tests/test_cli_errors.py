"""Bad input of every kind: one line on stderr, no traceback, the documented exit code, and
nothing already saved lost."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from cli_support import (
    assert_clean_error,
    ctxchat,
    only_session,
    session_documents,
    sessions_dir,
    turn_requests,
    write_config,
)
from fakeopenai import FakeOpenAI, Text


@pytest.fixture
def saved_session(cli_env: dict[str, str], ctxchat_home: Path) -> dict[str, object]:
    result = ctxchat("run", "--title", "keep me", env=cli_env, stdin="precious\n")
    assert result.returncode == 0, result.stderr
    return only_session(ctxchat_home)


def test_unknown_session(cli_env: dict[str, str], saved_session: dict[str, object]) -> None:
    for args in (["run", "--session", "nope"], ["sessions", "show", "nope"]):
        result = ctxchat(*args, env=cli_env, stdin="hi\n")
        assert_clean_error(result, 2, "no session matches 'nope'")


def test_continue_with_no_sessions(cli_env: dict[str, str], ctxchat_home: Path) -> None:
    result = ctxchat("run", "-c", env=cli_env, stdin="hi\n")
    assert_clean_error(result, 2, "no session to continue")


def test_ambiguous_prefix_lists_the_candidates(cli_env: dict[str, str], ctxchat_home: Path) -> None:
    for text in ("a\n", "b\n"):
        assert ctxchat("run", env=cli_env, stdin=text).returncode == 0
    ids = [d["id"] for d in session_documents(ctxchat_home)]
    first, second = ids
    shared = next(i for i, (a, b) in enumerate(zip(first, second, strict=True)) if a != b)
    common = first[:shared]
    assert common, ids  # ULIDs made a moment apart share their time prefix

    result = ctxchat("sessions", "show", common, env=cli_env)
    line = assert_clean_error(result, 2, "ambiguous")
    # Each id with its title (the first thing asked in it): ids alone say nothing.
    assert f'{first} "a"' in line
    assert f'{second} "b"' in line


def test_malformed_toml_names_path_line_and_column(
    cli_env: dict[str, str], ctxchat_home: Path, saved_session: dict[str, object]
) -> None:
    path = write_config(ctxchat_home, '[model]\nmodel = "x"\ntemperature = = 1\n')
    result = ctxchat("run", env=cli_env, stdin="hi\n")

    assert_clean_error(result, 2, f"{path}:3:", "invalid TOML")
    assert only_session(ctxchat_home)["turns"] == 1


def test_semantically_wrong_config_names_the_key(
    cli_env: dict[str, str], ctxchat_home: Path
) -> None:
    write_config(ctxchat_home, '[[providers]]\ntype = "in_memory_history"\nmax_mesages = 3\n')
    result = ctxchat("run", env=cli_env, stdin="hi\n")
    assert_clean_error(result, 2, "providers[0].max_mesages", "max_messages")

    write_config(ctxchat_home, '[[providers]]\ntype = "no_such_type"\n')
    result = ctxchat("config", "validate", env=cli_env)
    assert_clean_error(result, 2, "providers[0].type", "no_such_type")


def test_missing_named_config_file(cli_env: dict[str, str], tmp_path: Path) -> None:
    result = ctxchat("run", "--config", str(tmp_path / "absent.toml"), env=cli_env, stdin="x\n")
    assert_clean_error(result, 2, "absent.toml", "does not exist")


def test_corrupt_session_file_is_reported_and_kept(
    cli_env: dict[str, str], ctxchat_home: Path, saved_session: dict[str, object]
) -> None:
    session_id = str(saved_session["id"])
    path = sessions_dir(ctxchat_home) / f"{session_id}.json"
    damaged = path.read_bytes()[:-20]
    path.write_bytes(damaged)

    result = ctxchat("run", "--session", session_id, env=cli_env, stdin="hi\n")

    assert_clean_error(result, 2, "unreadable", "moved aside")
    (kept,) = sessions_dir(ctxchat_home).glob(f"{session_id}.json.corrupt-*")
    assert kept.read_bytes() == damaged


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads files whatever their mode")
def test_unreadable_session_file(
    cli_env: dict[str, str], ctxchat_home: Path, saved_session: dict[str, object]
) -> None:
    session_id = str(saved_session["id"])
    path = sessions_dir(ctxchat_home) / f"{session_id}.json"
    path.chmod(0)
    try:
        result = ctxchat("sessions", "show", session_id, env=cli_env)
        assert_clean_error(result, 2, "cannot read session file")
    finally:
        path.chmod(0o600)


def test_session_file_that_cannot_be_read(
    cli_env: dict[str, str], ctxchat_home: Path, saved_session: dict[str, object]
) -> None:
    # A directory where the file should be: unreadable whoever runs the test, root included.
    session_id = str(saved_session["id"])
    path = sessions_dir(ctxchat_home) / f"{session_id}.json"
    path.rename(path.with_name("moved.bak"))
    path.mkdir()

    result = ctxchat("sessions", "show", session_id, env=cli_env)

    assert_clean_error(result, 2, "cannot read session file")
    assert path.is_dir()


def test_unwritable_export_path(
    cli_env: dict[str, str], tmp_path: Path, saved_session: dict[str, object]
) -> None:
    session_id = str(saved_session["id"])
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    for target in (tmp_path / "missing" / "out.md", blocker / "out.md", tmp_path):
        result = ctxchat("sessions", "export", session_id, "-o", str(target), env=cli_env)
        assert_clean_error(result, 2, "cannot write the export")
    assert blocker.read_text() == "not a directory"


def test_non_utf8_stdin_is_replaced_and_warned(
    cli_env: dict[str, str], fake_openai: FakeOpenAI
) -> None:
    result = ctxchat("run", "--lines", env=cli_env, stdin=b"caf\xe9 au lait\nplain\n")

    assert result.returncode == 0, result.stderr
    (warning,) = result.stderr.splitlines()
    assert warning.startswith("ctxchat: warning: ")
    assert "not valid UTF-8" in warning
    assert "line 1" in warning
    sent = [r.last_user_text for r in fake_openai.chat_requests()]
    assert sent == ["caf\ufffd au lait", "plain"]


@pytest.mark.parametrize("stdin", [b"", b"\n\n  \n"])
def test_empty_stdin_is_a_usage_error(
    cli_env: dict[str, str], fake_openai: FakeOpenAI, ctxchat_home: Path, stdin: bytes
) -> None:
    result = ctxchat("run", env=cli_env, stdin=stdin)
    assert_clean_error(result, 2, "stdin is empty")
    assert fake_openai.chat_requests() == []
    assert session_documents(ctxchat_home) == []


def test_a_5mb_message_is_refused_with_the_limit_named(
    cli_env: dict[str, str], fake_openai: FakeOpenAI, ctxchat_home: Path
) -> None:
    big = ("x" * 99 + "\n") * 50_000  # 5 MB
    result = ctxchat("run", "read all of this", env=cli_env, stdin=big)

    # Refused as soon as more than the limit was read, not after reading it all.
    assert_clean_error(
        result, 2, "stdin is over the limit of 1,000,000 bytes (raise with --max-input)"
    )
    assert fake_openai.chat_requests() == []
    assert session_documents(ctxchat_home) == []


def test_a_large_message_within_a_raised_limit_is_sent(
    cli_env: dict[str, str], fake_openai: FakeOpenAI, ctxchat_home: Path
) -> None:
    big = "y" * 1_500_000
    fake_openai.enqueue(Text("received"))  # an echo would stream 1.5 MB back, 4 bytes a chunk
    write_config(ctxchat_home, "[model]\ncontext_window = 1000000\n")  # room for it
    result = ctxchat("run", "--max-input", "2000000", "--json", env=cli_env, stdin=f"{big}\n")

    assert result.returncode == 0, result.stderr
    (request,) = turn_requests(fake_openai)
    assert request.last_user_text == big
    assert json.loads(result.stdout)["output"] == "received"


def test_unknown_option_is_a_one_line_usage_error(cli_env: dict[str, str]) -> None:
    result = ctxchat("run", "--no-such-flag", env=cli_env)
    assert_clean_error(result, 2, "--no-such-flag", "ctxchat run --help")


def test_bad_export_format_is_a_usage_error(
    cli_env: dict[str, str], saved_session: dict[str, object]
) -> None:
    result = ctxchat("sessions", "export", str(saved_session["id"]), "-f", "pdf", env=cli_env)
    assert_clean_error(result, 2, "pdf")


def test_unexpected_error_is_one_line_unless_debugging(
    cli_env: dict[str, str], ctxchat_home: Path, saved_session: dict[str, object]
) -> None:
    # A history kept in the session file, whose messages are not a list: a state of the
    # right shape for the session, of the wrong one for its provider.
    write_config(ctxchat_home, '[[providers]]\ntype = "in_memory_history"\nsource_id = "history"\n')
    session_id = str(saved_session["id"])
    path = sessions_dir(ctxchat_home) / f"{session_id}.json"
    document = json.loads(path.read_text())
    document["state"]["history"] = {"messages": "not a list"}
    written = json.dumps(document)
    path.write_text(written)

    quiet = ctxchat("sessions", "show", session_id, env=cli_env)
    assert_clean_error(quiet, 1, "CTXCHAT_DEBUG=1")

    loud = ctxchat("sessions", "show", session_id, env={**cli_env, "CTXCHAT_DEBUG": "1"})
    assert loud.returncode == 1
    assert "Traceback" in loud.stderr
    assert path.read_text() == written  # reading it changed nothing


def test_an_export_file_name_that_names_no_format_is_a_usage_error(
    cli_env: dict[str, str], saved_session: dict[str, object], tmp_path: Path
) -> None:
    target = tmp_path / "a.txt"
    result = ctxchat("sessions", "export", str(saved_session["id"]), "-o", str(target), env=cli_env)
    assert_clean_error(result, 2, "a.txt")
    assert "md" in result.stderr  # the formats it can write are named
    assert not target.exists()
    chosen = ctxchat(
        "sessions", "export", str(saved_session["id"]), "-o", str(target), "-f", "md", env=cli_env
    )
    assert chosen.returncode == 0, chosen.stderr
    assert target.read_text().startswith("#")
