"""The engine behind /context, the status line, prune, `config show` and streamed Markdown."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from ctxchat.cli.render import stable_length, tail_source
from ctxchat.config.loading import config_from_dict
from ctxchat.core.agent import Agent
from ctxchat.core.context import RunContext, RunResponse
from ctxchat.core.errors import UsageError
from ctxchat.core.messages import Message, Usage
from ctxchat.core.session import Session
from ctxchat.core.settings import AgentSettings
from ctxchat.core.tokens import count_request_tokens
from ctxchat.core.tools import Tool
from ctxchat.services.prune import parse_age
from ctxchat.storage.catalog import SessionCatalog, cutoff_for
from ctxchat.storage.store import SessionStore
from ctxchat.testing import ScriptedModel
from ctxchat.views.config_report import describe_config, masked
from ctxchat.views.context_report import context_report, format_report, format_status, turn_stats


def _context() -> RunContext:
    context = RunContext(session_id="s", input_messages=[Message.user("and the dog?")])
    context.extend_messages(
        "history",
        [Message.user("my cat is Tom"), Message.assistant("Nice name.")],
        kind="history",
    )
    context.extend_instructions("memory", "The user has a cat named Tom.")
    context.extend_tools("files", [Tool("read_file", "Read a file", lambda path: path)])
    return context


def test_context_report_by_source() -> None:
    context = _context()
    agent = Agent(model=ScriptedModel(), settings=AgentSettings(instructions="Be brief."))
    assembled = agent.assemble(context)
    report = context_report(
        context,
        assembled,
        base_instructions="Be brief.",
        source_ids=["history", "memory", "files", "silent"],
        context_window=1000,
    )
    by_id = {s.source_id: s for s in report.sources}
    assert list(by_id) == ["history", "memory", "files", "silent"]
    assert [i.label for i in by_id["history"].messages] == ["user", "assistant"]
    assert by_id["memory"].instructions[0].preview == "The user has a cat named Tom."
    assert by_id["files"].tools[0].preview == "read_file"
    assert by_id["silent"].empty
    assert all(s.tokens > 0 for s in report.sources if not s.empty)
    # The total is the request as the status line counts it, the framing included.
    assert report.total_tokens == count_request_tokens(assembled, context.all_tools())
    assert report.total_tokens == (
        report.base_instruction_tokens
        + sum(s.tokens for s in report.sources)
        + report.input_tokens
        + report.framing_tokens
    )
    assert report.framing_tokens > 0
    stats = turn_stats(context, assembled, 1000)
    assert stats.estimated
    assert stats.usage.input_tokens == report.total_tokens  # one counter for both

    text = format_report(report)
    assert "history:" in text
    assert "2 messages" in text
    assert "memory:" in text
    assert "instructions (" in text
    assert "tools: read_file (" in text
    assert "silent: nothing this turn" in text
    assert "your input:" in text
    assert "of 1k)" in text


def test_long_histories_are_summarised_in_the_report() -> None:
    context = RunContext(session_id="s", input_messages=[Message.user("q")])
    context.extend_messages("history", [Message.user(f"m{i}") for i in range(30)], kind="history")
    text = format_report(context_report(context, []))
    assert "… 22 earlier messages" in text
    assert "m29" in text
    assert "m5" not in text


def test_status_uses_reported_usage_of_the_last_call() -> None:
    context = _context()
    reply = Message.assistant("Rex.", usage=Usage(1200, 30))
    context._set_response(RunResponse((reply,), Usage(1200, 30)))
    stats = turn_stats(context, [], 128_000)
    assert not stats.estimated
    assert format_status(stats) == "tokens 1,200 in · 30 out · context 1.23k/128k (1%)"


def test_status_estimates_when_the_endpoint_reports_nothing() -> None:
    context = _context()
    context._set_response(RunResponse((Message.assistant("Rex."),), Usage()))
    stats = turn_stats(context, [Message.user("x" * 400)], None)
    assert stats.estimated
    assert format_status(stats).startswith("tokens ~")
    assert "context" not in format_status(stats)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("30d", timedelta(days=30)),
        ("12h", timedelta(hours=12)),
        (" 2W ", timedelta(weeks=2)),
        ("90s", timedelta(seconds=90)),
    ],
)
def test_parse_age(text: str, expected: timedelta) -> None:
    assert parse_age(text) == expected


@pytest.mark.parametrize("text", ["30", "d", "1.5d", "-3d", "0d", "3 days", "999999999999w"])
def test_parse_age_rejects(text: str) -> None:
    with pytest.raises(UsageError, match="--older-than"):
        parse_age(text)


def test_prune_chooses_by_last_use_oldest_first(tmp_path: Path) -> None:
    now = datetime.now(UTC)
    store = SessionStore(tmp_path / "sessions")
    for title, days in (("new", 1), ("old", 40), ("older", 400), ("edge", 29)):
        moment = now - timedelta(days=days)
        store.save(Session(title=title, created_at=moment, updated_at=moment))
    chosen = SessionCatalog(store).last_used_before(cutoff_for(timedelta(days=30), now))
    assert [s.title for s in chosen] == ["older", "old"]
    assert cutoff_for(timedelta(days=10**8), now).year == 1  # no overflow for absurd ages


def test_masking() -> None:
    assert masked("api_key", "sk-123") == "**** (set)"
    assert masked("password", None) == "(not set)"
    assert masked("max_tokens", 100) == 100
    assert masked("url", "postgresql://me:pw@db/x") == "postgresql://***@db/x"
    assert masked("base_url", "http://host/v1") == "http://host/v1"


def test_describe_config_masks_and_notes_origins(tmp_path: Path) -> None:
    from ctxchat.services.build import build_agent

    config = config_from_dict(
        {
            "model": {"base_url": "http://h/v1?key=secret"},
            "providers": [{"type": "in_memory_history", "source_id": "h", "max_messages": 5}],
        },
        path=tmp_path / "c.toml",
        environ={"OPENAI_API_KEY": "sk-live-123"},
        model_overrides={"model": "from-flag"},
    )
    text = describe_config(config, build_agent(config))
    assert "sk-live-123" not in text
    assert "secret" not in text
    assert 'api_key = "**** (set)"  # env OPENAI_API_KEY' in text
    assert 'model = "from-flag"  # flag' in text
    assert 'base_url = "http://h/v1?key=***"  # file' in text
    assert "max_messages = 5  # set" in text
    assert "max_tokens: not set" in text
    assert "# history: provider 'h' (InMemoryHistoryProvider) loads it" in text


def test_stable_length_never_splits_a_code_block() -> None:
    assert stable_length("para one\n\npara tw") == len("para one\n\n")
    assert stable_length("no blank line yet\n") == 0
    code = "intro\n\n```python\nx = 1\n\ny = 2\n"
    assert stable_length(code) == len("intro\n\n")  # the blank line inside the fence is not a cut
    closed = code + "```\nafter"
    assert stable_length(closed) == len(code + "```\n")
    tilde = "~~~\na\n\n~~~~\n\nnext"
    assert stable_length(tilde) == len("~~~\na\n\n~~~~\n\n")
    assert stable_length("````\n```\n\n") == 0  # a shorter fence does not close a longer one


def test_tail_source_reopens_the_code_block_it_starts_in() -> None:
    short = "1. a\n2. b\n"
    assert tail_source(short, 10) == short
    listed = "".join(f"{i}. item\n" for i in range(1, 50))
    assert tail_source(listed, 3) == "48. item\n49. item\n"
    code = "```python\n" + "".join(f"x = {i}\n" for i in range(50))
    assert tail_source(code, 3) == "```python\nx = 48\nx = 49\n"
    closed = code + "```\nafter\n"
    assert tail_source(closed, 2) == "after\n"  # past the closing fence: plain text again


def test_a_model_that_is_a_path_keeps_its_file_name_on_a_narrow_terminal() -> None:
    from ctxchat.cli.session_table import table_lines
    from ctxchat.storage.session_index import SessionSummary

    now = datetime(2026, 11, 30, 15, 32, tzinfo=UTC)
    model = "/models/small/llama-3.2-1b-instruct-q4_k_m.gguf"
    summary = SessionSummary("01JDX0ABCDEF", "Haiku", model, 3, now, now)
    _header, row = table_lines([summary], width=60)
    assert re.search(r"…\S*q4_k_m\.gguf", row)
    assert "/models" not in row
    (whole,) = table_lines([summary], width=None)[1:]
    assert model in whole  # a pipe gets every cell whole
