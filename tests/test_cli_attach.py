"""Attachments from the command line: `ctxchat run -a FILE` and `@path` in the prompt,
against the fake server, checked in what it received and in what was stored."""

from __future__ import annotations

import json
from pathlib import Path

from cli_support import assert_clean_error, ctxchat, only_session, session_documents, stored_texts
from fakeopenai import FakeOpenAI
from pdfkit import scanned_pdf, text_pdf

# A 1024 x 512 PNG's header: all ctxchat reads of an image besides its bytes.
PNG_1024x512 = (
    b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"
    + (1024).to_bytes(4, "big")
    + (512).to_bytes(4, "big")
    + b"\x08\x02\x00\x00\x00\x00\x00\x00\x00"
)


def user_content(fake: FakeOpenAI) -> object:
    (request,) = fake.chat_requests()
    return [m for m in request.messages if m.get("role") == "user"][-1]["content"]


def test_a_text_file_is_sent_fenced_and_named_and_stored(
    cli_env: dict[str, str], fake_openai: FakeOpenAI, ctxchat_home: Path, tmp_path: Path
) -> None:
    (tmp_path / "app.py").write_text("def f():\n    return '```'\n")

    result = ctxchat("run", "-a", "app.py", "what does f return?", env=cli_env, cwd=tmp_path)

    assert result.returncode == 0, result.stderr
    content = user_content(fake_openai)
    assert isinstance(content, str)
    # Named, fenced with a fence longer than the backticks inside the file.
    assert content == (
        "what does f return?\n\nAttached file app.py:\n````python\ndef f():\n    return '```'\n````"
    )
    session = only_session(ctxchat_home)
    assert stored_texts(cli_env, session["id"])[0] == ("user", content)


def test_an_image_is_sent_as_image_url_data(
    cli_env: dict[str, str], fake_openai: FakeOpenAI, ctxchat_home: Path, tmp_path: Path
) -> None:
    (tmp_path / "chart.png").write_bytes(PNG_1024x512)

    result = ctxchat("run", "-a", "chart.png", "describe it", env=cli_env, cwd=tmp_path)

    assert result.returncode == 0, result.stderr
    content = user_content(fake_openai)
    assert isinstance(content, list)
    assert content[0] == {"type": "text", "text": "describe it"}
    url = content[1]["image_url"]["url"]
    assert content[1]["type"] == "image_url"
    import base64

    assert url == "data:image/png;base64," + base64.b64encode(PNG_1024x512).decode()
    exported = ctxchat(
        "sessions", "export", only_session(ctxchat_home)["id"], "--format", "md", env=cli_env
    )
    assert "**Attached image** `chart.png` (image/png, 1024x512)" in exported.stdout
    session = only_session(ctxchat_home)["id"]
    shown = ctxchat("sessions", "show", session, env=cli_env)
    audited = ctxchat("sessions", "show", session, "--audit", env=cli_env)
    assert "[image chart.png · image/png · 1024x512]" in shown.stdout
    assert "[image chart.png · image/png · 1024x512]" in audited.stdout


def test_at_path_in_the_prompt_attaches_only_an_existing_word_initial_file(
    cli_env: dict[str, str], fake_openai: FakeOpenAI, tmp_path: Path
) -> None:
    (tmp_path / "notes.txt").write_text("buy milk\n")
    (tmp_path / "alice").mkdir()  # a directory named like a handle is not `@alice` below
    prompt = "read @notes.txt, mail me@example.com or @bob; @@notes.txt is literal"

    result = ctxchat("run", prompt, env=cli_env, cwd=tmp_path)

    assert result.returncode == 0, result.stderr
    assert user_content(fake_openai) == (
        "read @notes.txt, mail me@example.com or @bob; @notes.txt is literal"
        "\n\nAttached file notes.txt:\n```\nbuy milk\n```"
    )


def test_at_path_in_piped_input_is_text(
    cli_env: dict[str, str], fake_openai: FakeOpenAI, tmp_path: Path
) -> None:
    (tmp_path / "notes.txt").write_text("secret plans\n")

    result = ctxchat("run", env=cli_env, cwd=tmp_path, stdin="look at @notes.txt\n")

    assert result.returncode == 0, result.stderr
    assert user_content(fake_openai) == "look at @notes.txt"


def test_a_directory_is_its_text_files_bounded(
    cli_env: dict[str, str], fake_openai: FakeOpenAI, tmp_path: Path
) -> None:
    project = tmp_path / "proj"
    (project / ".git").mkdir(parents=True)
    (project / ".git" / "HEAD").write_text("ref: main\n")
    (project / "a.md").write_text("# A\n")
    (project / "b.bin").write_bytes(b"\x00\x01\x02")
    (project / "sub").mkdir()
    (project / "sub" / "c.py").write_text("x = 1\n")

    result = ctxchat("run", "-a", "proj", "what is here?", env=cli_env, cwd=tmp_path)

    assert result.returncode == 0, result.stderr
    content = user_content(fake_openai)
    assert isinstance(content, str)
    assert "Attached directory proj: 2 files" in content
    assert "Attached file proj/a.md:\n```markdown\n# A\n```" in content
    assert "Attached file proj/sub/c.py:\n```python\nx = 1\n```" in content
    assert "ref: main" not in content


def test_a_binary_file_is_refused_by_name_before_any_model_call(
    cli_env: dict[str, str], fake_openai: FakeOpenAI, ctxchat_home: Path, tmp_path: Path
) -> None:
    (tmp_path / "blob.dat").write_bytes(b"\x7fELF\x00\x00binary")

    result = ctxchat("run", "-a", "blob.dat", "what is it?", env=cli_env, cwd=tmp_path)

    assert_clean_error(result, 2, "blob.dat", "binary")
    assert fake_openai.chat_requests() == []
    assert not (ctxchat_home / "sessions").exists() or not list(
        (ctxchat_home / "sessions").glob("*.json")
    )


def test_a_missing_file_is_a_clear_error(
    cli_env: dict[str, str], fake_openai: FakeOpenAI, tmp_path: Path
) -> None:
    result = ctxchat("run", "-a", "nope.txt", "hi", env=cli_env, cwd=tmp_path)

    assert_clean_error(result, 2, "nope.txt", "no such file")
    assert fake_openai.chat_requests() == []


def test_an_attachment_too_large_for_the_window_fails_before_any_model_call(
    cli_env: dict[str, str], fake_openai: FakeOpenAI, tmp_path: Path
) -> None:
    (tmp_path / "big.txt").write_text("word " * 40_000)
    config = tmp_path / "config.toml"
    config.write_text("[model]\ncontext_window = 4096\n")

    result = ctxchat(
        "run", "--config", str(config), "-a", "big.txt", "sum up", env=cli_env, cwd=tmp_path
    )

    assert_clean_error(result, 2, "over the 3,584 the model takes")
    assert fake_openai.chat_requests() == []


def test_a_model_that_takes_no_images_is_one_line_and_no_turn_is_stored(
    cli_env: dict[str, str], fake_openai: FakeOpenAI, ctxchat_home: Path, tmp_path: Path
) -> None:
    fake_openai.vision = False
    (tmp_path / "chart.png").write_bytes(PNG_1024x512)

    result = ctxchat("run", "-a", "chart.png", "describe it", env=cli_env, cwd=tmp_path)

    assert_clean_error(result, 1, "model 'fake-model'", "does not take images")
    assert fake_openai.refused == 1
    assert [d["turns"] for d in session_documents(ctxchat_home)] in ([], [0])


def test_the_budget_counts_an_image_as_the_provider_bills_it(
    cli_env: dict[str, str], fake_openai: FakeOpenAI, tmp_path: Path
) -> None:
    (tmp_path / "chart.png").write_bytes(PNG_1024x512)
    billed: list[int] = []
    counted: list[int] = []
    for extra in (["-a", "chart.png"], []):
        # A home each: nothing of the first run is recalled into the second.
        env = {**cli_env, "CTXCHAT_HOME": str(tmp_path / f"home{len(billed)}")}
        result = ctxchat("run", "--json", *extra, "describe", env=env, cwd=tmp_path)
        assert result.returncode == 0, result.stderr
        billed.append(json.loads(result.stdout)["usage"]["input_tokens"])
        session = json.loads(result.stdout)["session"]
        audit = ctxchat("sessions", "export", session, "--audit", "--format", "jsonl", env=env)
        assert audit.returncode == 0, audit.stderr
        counted.append(json.loads(audit.stdout.splitlines()[0])["budget"]["request_tokens"])
    # 1024 x 512 is two 512-pixel tiles: 2 * 170 + 85 = 425 by OpenAI's formula, as the
    # fake bills it; the budget counts the image part the same.
    assert billed[0] - billed[1] == 425
    assert counted[0] - counted[1] == 425


def test_limits_are_configurable(
    cli_env: dict[str, str], fake_openai: FakeOpenAI, tmp_path: Path
) -> None:
    (tmp_path / "notes.txt").write_text("x" * 200)
    config = tmp_path / "config.toml"
    config.write_text("[attachments]\ntext_bytes = 100\n")

    result = ctxchat(
        "run", "--config", str(config), "-a", "notes.txt", "hi", env=cli_env, cwd=tmp_path
    )

    assert_clean_error(result, 2, "notes.txt", "over 100 bytes")
    assert fake_openai.chat_requests() == []
    config.write_text("[attachments]\ntext_bytes = 0\n")
    bad = ctxchat("run", "--config", str(config), "hi", env=cli_env, cwd=tmp_path)
    assert_clean_error(bad, 2, "text_bytes", "at least 1")


def test_memory_learns_from_the_prompt_never_from_an_attachment(
    cli_env: dict[str, str], fake_openai: FakeOpenAI, tmp_path: Path
) -> None:
    (tmp_path / "letter.txt").write_text("I live in Porto and I have a cat named Miso.\n")

    result = ctxchat(
        "run", "-a", "letter.txt", "I live in Quito. Proofread this.", env=cli_env, cwd=tmp_path
    )

    assert result.returncode == 0, result.stderr
    facts = json.loads(ctxchat("memory", "list", "--json", env=cli_env).stdout)
    assert [f["value"] for f in facts] == ["I live in Quito."]


def test_a_leading_bang_in_a_script_is_text_unless_allow_shell(
    cli_env: dict[str, str], fake_openai: FakeOpenAI, tmp_path: Path
) -> None:
    piped = "!echo from the shell\nwhat did it say?\n!!literal\n"
    plain = ctxchat("run", "--lines", env=cli_env, cwd=tmp_path, stdin=piped)
    assert plain.returncode == 0, plain.stderr
    assert [r.last_user_text for r in fake_openai.chat_requests()] == [
        "!echo from the shell",
        "what did it say?",
        "!!literal",
    ]
    fake_openai.reset()

    shell = ctxchat("run", "--lines", "--allow-shell", env=cli_env, cwd=tmp_path, stdin=piped)

    assert shell.returncode == 0, shell.stderr
    assert "ran 'echo from the shell' (exit 0)" in shell.stderr
    assert [r.last_user_text for r in fake_openai.chat_requests()] == [
        "what did it say?\n\nOutput of $ echo from the shell (exit 0):\n```\nfrom the shell\n```",
        "!literal",
    ]


def test_a_pdf_is_sent_as_its_text_and_a_scan_is_one_line(
    cli_env: dict[str, str], fake_openai: FakeOpenAI, ctxchat_home: Path, tmp_path: Path
) -> None:
    (tmp_path / "memo.pdf").write_bytes(text_pdf([["The meeting moved to Thursday."]]))
    (tmp_path / "scan.pdf").write_bytes(scanned_pdf())

    result = ctxchat("run", "-a", "memo.pdf", "when is it?", env=cli_env, cwd=tmp_path)

    assert result.returncode == 0, result.stderr
    content = user_content(fake_openai)
    assert isinstance(content, str)
    assert content.startswith("when is it?\n\nAttached file memo.pdf (PDF, 1 page):\n```\n")
    assert "The meeting moved to Thursday." in content

    refused = ctxchat("run", "-a", "scan.pdf", "what does it say?", env=cli_env, cwd=tmp_path)
    assert_clean_error(refused, 2, "cannot attach scan.pdf: the PDF has no text layer")
    assert len(fake_openai.chat_requests()) == 1  # no model call for the refused one
