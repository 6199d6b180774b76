"""Tools at scale against a model window (issue 21, item 6), each case on its own: a 20 MB
MCP result, a directory of 500 entries, 300 MCP servers advertised without a selector.
Each turn is kept, every request fits the window (the fake refuses one that does not, as
llama.cpp's server does), and what is stored is bounded."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

from cli_support import ctxchat, write_config
from fakeopenai import FakeOpenAI, Text, ToolCalls
from toolkit import ODD_SERVER, toml_string

from ctxchat.core.agent import Agent
from ctxchat.core.budget import measure
from ctxchat.core.provider import ProviderEnv
from ctxchat.core.session import Session
from ctxchat.providers.history.in_memory import InMemoryHistoryProvider
from ctxchat.providers.tools.provider import ToolsProvider
from ctxchat.testing import ScriptedModel

TINY_SERVER = Path(__file__).resolve().parent / "mcp_tiny_server.py"
WINDOW = 8_192
CUT_FOR_WINDOW = "(the rest did not fit the model's context window)]"


def strict_window(fake: FakeOpenAI) -> None:
    """The fake tells its window by /props and refuses any longer request."""
    fake.imitate = "llama.cpp"
    fake.context_size = WINDOW
    fake.strict_context = True


def mcp_table(name: str, *args: str) -> str:
    quoted = ", ".join(toml_string(a) for a in args)
    # A busy machine may take long to start 300 servers or to send 20 MB: no product
    # timeout may decide these tests, only what they check.
    return (
        f"[providers.mcp.{name}]\ncommand = {toml_string(sys.executable)}\nargs = [{quoted}]\n"
        "start_timeout = 3600\ntimeout = 3600\n"
    )


def stored_bytes(home: Path) -> int:
    return sum(
        p.stat().st_size for p in home.rglob("*") if p.is_file() and "mcp-logs" not in p.parts
    )


def test_a_20_mb_mcp_result_is_cut_to_the_window_and_stored_cut(
    cli_env: dict[str, str], fake_openai: FakeOpenAI, ctxchat_home: Path
) -> None:
    strict_window(fake_openai)
    write_config(
        ctxchat_home,
        '[[providers]]\ntype = "sql_history"\n\n[[providers]]\ntype = "tools"\n'
        + mcp_table("odd", str(ODD_SERVER)),
    )
    fake_openai.enqueue(ToolCalls([("odd__big", {"megabytes": 20})]), Text("Read it."))
    done = ctxchat("run", "read the big one", env=cli_env, timeout=1800)

    assert done.returncode == 0, done.stderr
    assert done.stdout == "Read it.\n"
    assert fake_openai.refused == 0
    sent = fake_openai.chat_requests()[1].messages[-1]
    assert sent["role"] == "tool"
    content = str(sent["content"])
    assert content.startswith("All work and no play makes a dull chat. ")
    assert "this tool result was 20,972,000 bytes" in content
    assert content.endswith(CUT_FOR_WINDOW)
    assert len(content) < WINDOW * 4
    # Stored as the model read it: the history holds kilobytes, not 20 MB.
    assert stored_bytes(ctxchat_home) < 2_000_000


def test_a_directory_of_500_entries_is_listed_within_the_window(tmp_path: Path) -> None:
    root = tmp_path / "files"
    root.mkdir()
    for number in range(500):
        (root / f"quarterly-report-{number:04d}-final-revised-for-the-board.txt").write_text("x")
    env = ProviderEnv(data_dir=tmp_path / "data")
    tools = ToolsProvider(
        "tools", ToolsProvider.Options(builtins=["list_directory"], roots=[str(root)]), env=env
    )
    model = ScriptedModel(
        ScriptedModel.calls(("list_directory", {"path": "."})), "Listed.", window=WINDOW
    )
    agent = Agent(model=model, providers=[InMemoryHistoryProvider("history"), tools])
    session = Session()
    context = asyncio.run(agent.run(session, "what is in there?"))

    assert context.error is None
    assert context.stored
    assert context.response is not None
    assert context.response.messages[-1].text == "Listed."
    limits = asyncio.run(model.limits())
    second = model.requests[1]
    assert measure(limits, second.messages, second.tools) <= limits.room
    sent = second.messages[-1].tool_results[0].content
    listing_start = '{"directory": '
    assert sent.startswith(listing_start)
    assert "quarterly-report-0000-final-revised-for-the-board.txt" in sent
    assert sent.endswith(CUT_FOR_WINDOW)
    stored = [m for m in session.state["history"]["messages"] if m["role"] == "tool"]
    assert stored[0]["parts"][0]["content"] == sent


def test_300_mcp_servers_without_a_selector_are_trimmed_to_the_window(
    cli_env: dict[str, str], fake_openai: FakeOpenAI, ctxchat_home: Path
) -> None:
    """As the README's Tools example configures servers: advertised whole, no selector."""
    strict_window(fake_openai)
    servers = "".join(mcp_table(f"s{n}", str(TINY_SERVER), f"s{n}") for n in range(300))
    write_config(
        ctxchat_home,
        '[[providers]]\ntype = "sql_history"\n\n[[providers]]\ntype = "tools"\n'
        "builtins = []\n" + servers,
    )
    fake_openai.enqueue(ToolCalls([("s0__s0_lookup_1", {"key": "k-7"})]), Text("Found."))
    done = ctxchat("run", "look up k-7", env=cli_env, timeout=1800)

    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    assert done.stdout == "Found.\n"
    assert fake_openai.refused == 0
    first, second = fake_openai.chat_requests()
    offered = first.tool_names
    # Every server came up (600 tools), the window took the first of them, in order.
    assert 0 < len(offered) < 600
    expected = [f"s{n}__s{n}_lookup_{t}" for n in range(300) for t in range(2)]
    assert offered == expected[: len(offered)]
    assert str(second.messages[-1]["content"]) == 's0_lookup_1 {"key": "k-7"}'
    listed = json.loads(ctxchat("tools", "list", "--json", env=cli_env, timeout=1800).stdout)
    assert len(listed) == 600
