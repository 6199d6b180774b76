"""One rule wherever text from a model or a server reaches a person, whether on a terminal,
through a pipe (`ctxchat run q | tee out`) or in a Markdown file: escape sequences and
bidi controls gone, other controls made visible. Only JSON outputs keep the raw text, with
anything a terminal could act on written as an escape."""

from __future__ import annotations

import json
from pathlib import Path

from cli_support import ctxchat, only_session, write_config
from fakeopenai import Error, FakeOpenAI, Text

from ctxchat.core.sanitize import json_text, terminal_safe

# A colour, a window title, a screen clear, a C1 CSI, a right-to-left override and isolate.
EVIL = "evil \x1b[31mred\x1b[0m \x1b]0;TITLE\x07 \x1b[2J \x9b2J \u202eflipped\u202c \u2067iso\u2069"
RAW = ("\x1b", "\x9b", "\u202e", "\u202c", "\u2067", "\u2069", "TITLE")
AUDITED = """
[[providers]]
type = "sql_history"
source_id = "history"

[[providers]]
type = "audit"
"""


def assert_clean(text: str) -> None:
    for raw in RAW:
        assert raw not in text, (raw, text)


def strings_in(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for item in value.values() for s in strings_in(item)]
    if isinstance(value, list):
        return [s for item in value for s in strings_in(item)]
    return []


def test_the_rule() -> None:
    assert terminal_safe(EVIL) == "evil red   \ufffd2J flipped iso"
    # JSON keeps everything, C1 and bidi controls escaped (json.dumps leaves them raw).
    encoded = json_text({"text": EVIL})
    assert_clean(encoded.replace("TITLE", ""))
    assert "\\u009b" in encoded
    assert "\\u202e" in encoded
    assert json.loads(encoded) == {"text": EVIL}


def test_a_piped_reply_is_sanitised_and_json_lines_escape_it(
    cli_env: dict[str, str], fake_openai: FakeOpenAI
) -> None:
    fake_openai.enqueue(Text(EVIL, chunk_size=3), Text(EVIL))

    piped = ctxchat("run", "question", env=cli_env)  # stdout is a pipe, as with `| tee out`
    assert piped.returncode == 0, piped.stderr
    assert piped.stdout == terminal_safe(EVIL) + "\n"

    as_json = ctxchat("run", "--json", "question", env=cli_env)
    assert as_json.returncode == 0, as_json.stderr
    assert_clean(as_json.stdout.replace("TITLE", ""))
    assert json.loads(as_json.stdout)["output"] == EVIL


def test_markdown_exports_are_sanitised_and_json_exports_exact(
    cli_env: dict[str, str], ctxchat_home: Path, fake_openai: FakeOpenAI, tmp_path: Path
) -> None:
    write_config(ctxchat_home, AUDITED)
    fake_openai.enqueue(Text(EVIL))
    assert ctxchat("run", f"question {EVIL}", env=cli_env).returncode == 0
    session_id = str(only_session(ctxchat_home)["id"])

    for extra in ((), ("--audit",)):
        shown = ctxchat("sessions", "export", session_id, "-f", "md", *extra, env=cli_env)
        assert shown.returncode == 0, shown.stderr
        assert "flipped" in shown.stdout
        assert_clean(shown.stdout)
        target = tmp_path / f"export{len(extra)}.md"
        written = ctxchat("sessions", "export", session_id, "-o", str(target), *extra, env=cli_env)
        assert written.returncode == 0, written.stderr
        assert target.read_text("utf-8") == shown.stdout

        exact = ctxchat("sessions", "export", session_id, "-f", "json", *extra, env=cli_env)
        assert "\\u202e" in exact.stdout
        assert any(EVIL in text for text in strings_in(json.loads(exact.stdout)))


def test_a_server_error_is_sanitised_on_stderr_and_in_the_audit(
    cli_env: dict[str, str], ctxchat_home: Path, fake_openai: FakeOpenAI
) -> None:
    write_config(ctxchat_home, AUDITED)
    fake_openai.enqueue(Text("fine"), Error(400, f"bad request {EVIL}"))
    assert ctxchat("run", "--title", "t", "first", env=cli_env).returncode == 0

    failed = ctxchat("run", "-c", "second", env=cli_env)

    assert failed.returncode == 1
    assert "bad request evil red" in failed.stderr
    assert_clean(failed.stderr)
    for args in (("sessions", "show", "t", "--audit"), ("sessions", "export", "t", "--audit")):
        audit = ctxchat(*args, env=cli_env)
        assert audit.returncode == 0, audit.stderr
        assert "FAILED" in audit.stdout
        assert "bad request evil red" in audit.stdout
        assert_clean(audit.stdout)


def test_titles_lose_bidi_controls_and_lists_cut_them(
    cli_env: dict[str, str], ctxchat_home: Path, fake_openai: FakeOpenAI
) -> None:
    assert ctxchat("run", "--title", "t", "q", env=cli_env).returncode == 0
    session_id = str(only_session(ctxchat_home)["id"])
    renamed = ctxchat("sessions", "rename", session_id, "\u202eexe.txt\u202c", env=cli_env)
    assert renamed.returncode == 0, renamed.stderr
    assert only_session(ctxchat_home)["title"] == "exe.txt"

    long_title = "word " * 2000
    assert ctxchat("sessions", "rename", session_id, long_title, env=cli_env).returncode == 0
    listed = ctxchat("sessions", "list", env=cli_env)  # a pipe: no width to fit
    assert listed.returncode == 0, listed.stderr
    row = listed.stdout.splitlines()[1]
    assert len(row) < 200, row
    assert "word word" in row
    assert "…" in row
