"""A home ctxchat cannot write: reading commands still work, writing ones fail with one
line naming the path (exit 2), never "unexpected OSError".

The real case, a read-only file system, is made with a read-only bind mount in a private
mount namespace (`unshare -m`): file modes would not do, since the tests may run as root,
which ignores them. Where namespaces are not allowed those cases are skipped; the cases
after them make writes fail another way (a path under a regular file, an index that is a
directory) and always run.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_support import assert_clean_error, ctxchat, only_session, sessions_dir
from fakeopenai import FakeOpenAI
from mount_support import ctxchat_read_only, needs_read_only_mount


@pytest.fixture
def saved_id(cli_env: dict[str, str], ctxchat_home: Path) -> str:
    assert ctxchat("run", "--title", "kept", "remember me", env=cli_env).returncode == 0
    return str(only_session(ctxchat_home)["id"])


@needs_read_only_mount
def test_list_and_show_work_on_a_read_only_home(
    cli_env: dict[str, str], ctxchat_home: Path, saved_id: str
) -> None:
    listed = ctxchat_read_only(ctxchat_home, "sessions", "list", "--json", env=cli_env)
    assert (listed.returncode, listed.stderr) == (0, "")
    assert '"title": "kept"' in listed.stdout

    for ref in (saved_id, saved_id[:20], "kept"):
        shown = ctxchat_read_only(ctxchat_home, "sessions", "show", ref, env=cli_env)
        assert (shown.returncode, shown.stderr) == (0, ""), ref
        # The conversation itself, read from the SQL history on the read-only mount.
        assert "remember me" in shown.stdout
        assert "echo: remember me" in shown.stdout


@needs_read_only_mount
def test_writing_to_a_read_only_home_is_one_line_naming_the_path(
    cli_env: dict[str, str], fake_openai: FakeOpenAI, ctxchat_home: Path, saved_id: str
) -> None:
    attempts = [
        ("run", "--session", saved_id, "more"),
        ("run", "a new session"),
        ("sessions", "rename", saved_id, "new title"),
        ("sessions", "delete", saved_id, "--yes"),
    ]
    for args in attempts:
        result = ctxchat_read_only(ctxchat_home, *args, env=cli_env)
        line = assert_clean_error(result, 2, f"cannot write {sessions_dir(ctxchat_home)}/")
        assert line.endswith(": Read-only file system"), line
        assert "unexpected" not in line
    assert len(fake_openai.chat_requests()) == 1  # only the fixture's turn


def test_a_home_under_a_regular_file_is_one_line_naming_the_path(
    cli_env: dict[str, str], fake_openai: FakeOpenAI, tmp_path: Path
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    env = {**cli_env, "CTXCHAT_HOME": str(blocker / "home")}

    result = ctxchat("run", "hello", env=env)

    assert_clean_error(result, 2, f"cannot write {blocker}/home", "Not a directory")
    assert fake_openai.chat_requests() == []


def test_an_index_that_cannot_be_written_falls_back_to_the_session_files(
    cli_env: dict[str, str], ctxchat_home: Path, saved_id: str
) -> None:
    index = sessions_dir(ctxchat_home) / "index.sqlite3"
    index.unlink()
    index.mkdir()  # SQLite cannot open a directory: every index write fails

    listed = ctxchat("sessions", "list", "--json", env=cli_env)
    assert (listed.returncode, listed.stderr) == (0, "")
    assert saved_id in listed.stdout

    shown = ctxchat("sessions", "show", "kept", env=cli_env)  # by title: an index lookup
    assert (shown.returncode, shown.stderr) == (0, "")
    assert "echo: remember me" in shown.stdout

    # Writing a session does not need the index either: it is only a cache.
    again = ctxchat("run", "--session", saved_id, "and this", env=cli_env)
    assert (again.returncode, again.stderr) == (0, "")
    assert only_session(ctxchat_home)["turns"] == 2
