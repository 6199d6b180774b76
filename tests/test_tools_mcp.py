"""MCP servers as tool sources, against real servers started over stdio: the
`mcp-server-time` package, and `mcp_odd_server.py` (written with the SDK) that dies,
hangs and writes on purpose."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from cli_support import ctxchat, write_config
from fakeopenai import FakeOpenAI, RecordedRequest, Text, ToolCalls
from toolkit import ODD_SERVER, time_server_command, toml_string


def server(name: str, command: str, *args: str, **options: str | float | bool) -> str:
    lines = [f"[providers.mcp.{name}]", f"command = {toml_string(command)}"]
    lines.append("args = [" + ", ".join(toml_string(a) for a in args) + "]")
    for key, value in options.items():
        shown = json.dumps(value) if not isinstance(value, str) else toml_string(value)
        lines.append(f"{key} = {shown}")
    return "\n".join(lines) + "\n"


def config(home: Path, *servers: str) -> None:
    write_config(home, '[[providers]]\ntype = "tools"\n' + "".join(servers))


def odd(name: str = "odd", *flags: str, **options: str | float | bool) -> str:
    return server(name, sys.executable, str(ODD_SERVER), *flags, **options)


def tool_message(request: RecordedRequest) -> str:
    message = request.messages[-1]
    assert message["role"] == "tool", message
    return str(message["content"])


def test_a_round_trip_with_the_real_time_server(
    cli_env: dict[str, str], fake_openai: FakeOpenAI, ctxchat_home: Path
) -> None:
    config(ctxchat_home, server("time", time_server_command()))
    fake_openai.enqueue(
        ToolCalls([("time__get_current_time", {"timezone": "Asia/Tokyo"})]), Text("Evening.")
    )
    done = ctxchat("run", "what time is it in Tokyo?", env=cli_env)

    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    assert done.stdout == "Evening.\n"
    first, second = fake_openai.chat_requests()
    assert {"time__get_current_time", "time__convert_time"} <= set(first.tool_names)
    answer = json.loads(tool_message(second))
    assert answer["timezone"] == "Asia/Tokyo"
    assert answer["datetime"].endswith("+09:00")

    listed = json.loads(ctxchat("tools", "list", "--json", env=cli_env).stdout)
    entry = next(e for e in listed if e["name"] == "time__get_current_time")
    # readOnlyHint: no side effects, so it runs unasked, in a script too.
    assert entry == {
        "name": "time__get_current_time",
        "source": "mcp:time",
        "description": "Get current time in a specific timezone",
        "side_effects": False,
    }


def test_two_servers_with_a_tool_of_the_same_name_do_not_clash(
    cli_env: dict[str, str], fake_openai: FakeOpenAI, ctxchat_home: Path
) -> None:
    config(ctxchat_home, server("paris", time_server_command()), odd())
    fake_openai.enqueue(
        ToolCalls(
            [
                ("paris__get_current_time", {"timezone": "Europe/Paris"}),
                ("odd__get_current_time", {"timezone": "Europe/Paris"}),
            ]
        ),
        Text("Two answers."),
    )
    done = ctxchat("run", "the time, twice", env=cli_env)

    assert done.returncode == 0, done.stderr
    first, second = fake_openai.chat_requests()
    names = set(first.tool_names)
    assert {"paris__get_current_time", "odd__get_current_time"} <= names
    paris, odd_answer = second.messages[-2:]
    assert json.loads(paris["content"])["timezone"] == "Europe/Paris"
    assert odd_answer["content"] == "odd time in Europe/Paris"


def test_a_server_that_dies_mid_call_is_one_line_and_the_chat_goes_on(
    cli_env: dict[str, str], fake_openai: FakeOpenAI, ctxchat_home: Path
) -> None:
    config(ctxchat_home, odd())
    fake_openai.enqueue(ToolCalls([("odd__die", {})]), Text("It broke."), Text("Still here."))
    done = ctxchat("run", "--lines", env=cli_env, stdin="one\ntwo\n")

    assert done.returncode == 0, done.stderr
    assert done.stdout == "It broke.\nStill here.\n"
    requests = fake_openai.chat_requests()
    assert "MCP server 'odd' stopped during the call" in tool_message(requests[1])
    (line,) = done.stderr.splitlines()
    assert line.startswith("ctxchat: warning: provider 'tools': MCP server 'odd' stopped")
    assert line.endswith("the chat goes on without its tools")
    # The next turn is offered the other tools, not the dead server's.
    later = requests[2].tool_names
    assert "calculate" in later
    assert not [n for n in later if n.startswith("odd__")]


def test_servers_that_fail_to_start_or_hang_are_one_line_each(
    cli_env: dict[str, str], fake_openai: FakeOpenAI, ctxchat_home: Path
) -> None:
    config(
        ctxchat_home,
        odd("quits", "--exit-at-start"),
        odd("stuck", "--hang-at-start", start_timeout=1),
        server("nowhere", "/nonexistent/mcp-server"),
        server("time", time_server_command()),
    )
    done = ctxchat("run", "hello", env=cli_env)

    assert done.returncode == 0, done.stderr
    assert done.stdout == "echo: hello\n"
    lines = sorted(done.stderr.splitlines())
    assert len(lines) == 3, done.stderr
    nowhere, quits, stuck = lines
    assert "MCP server 'nowhere' did not start: no such program: /nonexistent/mcp-server" in nowhere
    assert "MCP server 'quits' did not start" in quits
    assert "it said: odd server: refusing to start" in quits
    assert "MCP server 'stuck' did not start within 1s" in stuck
    names = fake_openai.chat_requests()[0].tool_names
    assert "time__get_current_time" in names
    assert not [n for n in names if n.split("__")[0] in ("quits", "stuck", "nowhere")]


def test_side_effects_follow_the_annotations_unless_the_config_says(
    cli_env: dict[str, str], fake_openai: FakeOpenAI, ctxchat_home: Path, tmp_path: Path
) -> None:
    target = tmp_path / "written.txt"
    call = ToolCalls([("odd__write_file", {"path": str(target), "text": "hi"})])
    config(ctxchat_home, odd())
    fake_openai.enqueue(call, Text("no"))
    refused = ctxchat("run", "write it", env=cli_env)
    assert refused.returncode == 0, refused.stderr
    assert "tool 'odd__write_file' has side effects and was refused" in refused.stderr
    assert not target.exists()

    config(ctxchat_home, odd(side_effects=False))
    fake_openai.enqueue(call, Text("yes"))
    trusted = ctxchat("run", "write it", env=cli_env)
    assert trusted.returncode == 0, trusted.stderr
    assert target.read_text() == "hi"


def test_a_server_starts_only_when_its_tools_are_needed(
    cli_env: dict[str, str], ctxchat_home: Path, tmp_path: Path
) -> None:
    started = tmp_path / "started"
    config(
        ctxchat_home,
        server("marker", sys.executable, "-c", f"open({str(started)!r}, 'w')"),
    )
    for args in (["--help"], ["sessions", "list"], ["config", "show"], ["tools", "--help"]):
        done = ctxchat(*args, env=cli_env)
        assert done.returncode == 0, (args, done.stderr)
        assert not started.exists(), args
    listed = ctxchat("tools", "list", env=cli_env)
    assert started.exists()
    assert "MCP server 'marker' did not start" in listed.stderr


def test_a_bad_server_table_is_a_config_error(cli_env: dict[str, str], ctxchat_home: Path) -> None:
    write_config(
        ctxchat_home,
        '[[providers]]\ntype = "tools"\n[providers.mcp.time]\ncomand = "mcp-server-time"\n',
    )
    done = ctxchat("tools", "list", env=cli_env)
    assert done.returncode == 2
    assert "providers[0]: mcp.time.comand: unknown option (did you mean 'command'?)" in done.stderr
    write_config(
        ctxchat_home, '[[providers]]\ntype = "tools"\n[providers.mcp."a.b"]\ncommand = "x"\n'
    )
    done = ctxchat("tools", "list", env=cli_env)
    assert done.returncode == 2
    assert "mcp.a.b: a server name must be" in done.stderr


def test_config_validate_starts_the_servers_and_names_one_that_fails(
    cli_env: dict[str, str], ctxchat_home: Path
) -> None:
    config(ctxchat_home, server("time", time_server_command()))
    assert ctxchat("config", "validate", env=cli_env).returncode == 0
    config(ctxchat_home, server("time", time_server_command()), odd("quits", "--exit-at-start"))
    done = ctxchat("config", "validate", env=cli_env)
    assert done.returncode == 1
    (line,) = done.stderr.splitlines()
    assert "providers[0] ('tools'): MCP server 'quits' did not start" in line


def test_a_server_flooding_stderr_leaves_a_log_of_bounded_size(
    cli_env: dict[str, str], ctxchat_home: Path
) -> None:
    """Issue 21, item 9: 50 MB of stderr made a 52 MB mcp-logs file."""
    from ctxchat.providers.tools.mcp_log import MAX_LOG_BYTES

    config(ctxchat_home, odd("odd", "--noisy-stderr"))
    done = ctxchat("tools", "list", env=cli_env)
    assert done.returncode == 0, done.stderr
    assert "odd__echo" in done.stdout  # the server served once its noise was read away
    (log,) = ctxchat_home.rglob("mcp-logs/odd.log")
    text = log.read_text()
    assert MAX_LOG_BYTES <= len(text.encode()) < MAX_LOG_BYTES + 200
    assert text.endswith("the rest was dropped]\n")


def test_a_server_does_not_outlive_a_sigkilled_ctxchat(
    cli_env: dict[str, str], fake_openai: FakeOpenAI, ctxchat_home: Path, tmp_path: Path
) -> None:
    """Issue 21, item 9: PR_SET_PDEATHSIG in the server's process."""
    import signal
    import threading
    import time

    from cli_support import coprocess

    pid_file = tmp_path / "odd.pid"
    config(ctxchat_home, odd("odd", "--pid-file", str(pid_file), "--linger"))
    held = threading.Event()
    fake_openai.enqueue(Text("never finished " * 10, chunk_size=5, hold=held))
    try:
        with coprocess("run", "--lines", env=cli_env) as child:
            child.stdin.write(b"hello\n")
            child.stdin.close()
            assert fake_openai.wait_for_requests(1, timeout=30)  # the server is up by then
            server_pid = int(pid_file.read_text())
            child.process.send_signal(signal.SIGKILL)
            child.process.wait(timeout=20)
    finally:
        held.set()
    deadline = time.monotonic() + 20
    while not _gone(server_pid):
        assert time.monotonic() < deadline, "the MCP server outlived ctxchat"
        time.sleep(0.05)


def _gone(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as handle:
            return handle.read().split(") ", 1)[1].startswith("Z")
    except FileNotFoundError:
        return True


def test_a_server_writing_junk_on_stdout_is_one_warning_and_its_tools_still_work(
    cli_env: dict[str, str], fake_openai: FakeOpenAI, ctxchat_home: Path
) -> None:
    """Issue 21, item 9: 2,000 junk lines on a server's stdout gave 22,000 stderr lines
    (the SDK's traceback for each)."""
    config(ctxchat_home, odd("junk", "--junk-stdout"))
    fake_openai.enqueue(ToolCalls([("junk__echo", {"text": "hi"})]), Text("Done."))
    done = ctxchat("run", "say hi", env=cli_env)

    assert done.returncode == 0, done.stderr
    assert done.stdout == "Done.\n"
    (line,) = done.stderr.splitlines()
    assert line.startswith(
        "ctxchat: warning: provider 'tools': MCP server 'junk' wrote 2,000 lines on stdout "
        "that are not MCP messages (first: 'debug: warming up step 0'); ctxchat ignored them"
    ), line
    assert tool_message(fake_openai.chat_requests()[1]) == "odd says hi"
    (log,) = ctxchat_home.rglob("mcp-logs/junk.log")
    noted = log.read_text().splitlines()
    assert noted[0] == "[ctxchat: not an MCP message on stdout: 'debug: warming up step 0']"
    assert len(noted) == 2_000


def test_a_malformed_initialize_reply_is_one_line_and_the_chat_goes_on(
    cli_env: dict[str, str], fake_openai: FakeOpenAI, ctxchat_home: Path
) -> None:
    """Issue 21, item 9: a reply of the wrong shape, or a line of text, where the server
    should answer `initialize`: one line each, no traceback."""
    config(
        ctxchat_home,
        odd("shape", "--bad-initialize"),
        odd("chatty", "--text-initialize", start_timeout=5),
    )
    done = ctxchat("run", "hello", env=cli_env)

    assert done.returncode == 0, done.stderr
    assert done.stdout == "echo: hello\n"
    chatty, shape = sorted(done.stderr.splitlines())
    assert shape.startswith(
        "ctxchat: warning: provider 'tools': MCP server 'shape' did not start: its reply is "
        "malformed (capabilities: Field required; protocolVersion: Input should be a valid "
        "string; serverInfo: Field required)"
    ), shape
    assert "MCP server 'chatty' did not start within 5s" in chatty
    quoted = "(first: 'ready when you are')"
    assert f"wrote a line on stdout that is not an MCP message {quoted}" in chatty
    assert chatty.endswith("the chat goes on without its tools")
    names = fake_openai.chat_requests()[0].tool_names
    assert not [n for n in names if n.split("__")[0] in ("shape", "chatty")]
