"""Python functions as tools, by "package.module:function" reference."""

from __future__ import annotations

import asyncio
import json
import os
import textwrap
import time
from pathlib import Path

import pytest
from fakeopenai import FakeOpenAI, Text, ToolCalls

from ctxchat.config.loading import load_config
from ctxchat.core.errors import ConfigError
from ctxchat.core.messages import ToolCallPart, ToolResultPart
from ctxchat.core.provider import ProviderEnv
from ctxchat.core.tools import invoke_tool
from ctxchat.providers.tools.provider import ToolsProvider
from ctxchat.services.build import build_agent

MODULE = '''
from enum import Enum
from typing import Annotated, Literal


class Unit(Enum):
    C = "celsius"
    F = "fahrenheit"


def forecast(city: str, days: int = 1, unit: Unit = Unit.C, detail: bool = False) -> dict:
    """Weather forecast for a city.

    Looks it up in the local almanac.

    Args:
        city: the city's name
        days: how many days ahead,
            from 1 to 7
        unit: the temperature unit
    """
    return {"city": city, "days": days, "unit": unit, "detail": detail}


def tag(text: Annotated[str, "what to tag"], colour: Literal["red", "blue"] | None = None,
        labels: list[str] | None = None, extra: dict[str, float] | None = None) -> str:
    """Tag a text.

    :param colour: the tag's colour
    """
    return f"{text}:{colour}:{labels}:{extra}"


def spread(*values: int) -> int:
    return sum(values)


def untyped(value) -> str:
    return str(value)


def needs_socket(sock: "socket.socket") -> None:
    pass


import socket

not_a_function = 42
'''


@pytest.fixture
def almanac(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    package = tmp_path / "pylib" / "almanac_pkg"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "weather.py").write_text(textwrap.dedent(MODULE))
    monkeypatch.syspath_prepend(str(tmp_path / "pylib"))
    return "almanac_pkg.weather"


def tools_with(tmp_path: Path, *python: object) -> ToolsProvider:
    env = ProviderEnv(data_dir=tmp_path / "data")
    return ToolsProvider("tools", ToolsProvider.Options(builtins=[], python=list(python)), env=env)


def test_a_function_by_reference_gets_its_schema_from_hints_and_docstring(
    tmp_path: Path, almanac: str
) -> None:
    tools = tools_with(tmp_path, f"{almanac}:forecast", f"{almanac}:tag")
    forecast = tools.env.tools.get("forecast")
    assert forecast is not None
    assert forecast.description == "Weather forecast for a city. Looks it up in the local almanac."
    assert forecast.side_effects  # unknown code: asks, unless the config says otherwise
    assert forecast.source == f"python:{almanac}:forecast"
    assert forecast.parameters == {
        "type": "object",
        "properties": {
            "city": {"type": "string", "description": "the city's name"},
            "days": {
                "type": "integer",
                "description": "how many days ahead, from 1 to 7",
                "default": 1,
            },
            "unit": {"enum": ["celsius", "fahrenheit"], "description": "the temperature unit"},
            "detail": {"type": "boolean", "default": False},
        },
        "required": ["city"],
    }
    tag = tools.env.tools.get("tag")
    assert tag is not None
    properties = tag.parameters["properties"]
    assert properties["text"] == {"type": "string", "description": "what to tag"}
    assert properties["colour"] == {
        "anyOf": [{"enum": ["red", "blue"]}, {"type": "null"}],
        "description": "the tag's colour",
    }
    assert properties["labels"] == {
        "anyOf": [{"type": "array", "items": {"type": "string"}}, {"type": "null"}]
    }
    assert properties["extra"]["anyOf"][0] == {
        "type": "object",
        "additionalProperties": {"type": "number"},
    }
    result = asyncio.run(
        invoke_tool(
            forecast,
            ToolCallPart("c", "forecast", json.dumps({"city": "Oslo", "days": 3})),
            default_timeout=5,
        )
    )
    assert json.loads(result.content)["days"] == 3


def test_a_table_entry_names_the_tool_and_its_side_effects(tmp_path: Path, almanac: str) -> None:
    entry = {"ref": f"{almanac}:forecast", "name": "weather", "side_effects": False, "timeout": 3}
    tools = tools_with(tmp_path, entry)
    weather = tools.env.tools.get("weather")
    assert weather is not None
    assert (weather.side_effects, weather.timeout) == (False, 3.0)


@pytest.mark.parametrize(
    ("reference", "said"),
    [
        ("no_such_package.tools:run", "cannot import 'no_such_package.tools': ModuleNotFoundError"),
        ("almanac_pkg.weather:nowhere", "'almanac_pkg.weather' has no 'nowhere'"),
        ("almanac_pkg.weather:not_a_function", "'not_a_function' is not callable"),
        ("almanac_pkg.weather", "expected 'package.module:function'"),
        ("almanac_pkg.weather:spread", "*values is not supported: name each argument"),
        ("almanac_pkg.weather:untyped", "parameter 'value' has no type hint"),
        ("almanac_pkg.weather:needs_socket", "parameter 'sock': type socket cannot be described"),
    ],
)
def test_a_bad_reference_or_signature_is_a_config_error_naming_it(
    tmp_path: Path, almanac: str, reference: str, said: str
) -> None:
    with pytest.raises(ConfigError) as raised:
        tools_with(tmp_path, reference)
    assert f"python tool '{reference}'" in raised.value.message
    assert said in raised.value.message


def test_the_config_error_names_the_provider_entry(tmp_path: Path, almanac: str) -> None:
    config = tmp_path / "config.toml"
    config.write_text(
        '[[providers]]\ntype = "tools"\npython = ["almanac_pkg.weather:untyped"]\n', "utf-8"
    )
    with pytest.raises(ConfigError) as raised:
        build_agent(load_config(config, environ={}))
    message = raised.value.message
    assert message.startswith(f"{config}: providers[0]: python tool")
    assert "'almanac_pkg.weather:untyped'" in message


def test_a_table_entry_with_a_typo_gets_the_nearest_key(tmp_path: Path, almanac: str) -> None:
    with pytest.raises(ConfigError, match=r"python\[0\]\.side_efects: unknown option"):
        tools_with(tmp_path, {"ref": f"{almanac}:forecast", "side_efects": False})


UNRULY = '''
import asyncio
import os
import sys
import time


def hog() -> str:
    """Holds the GIL in one C call for hours."""
    return str(sum(range(10**14)))


async def stuck() -> str:
    """An async tool that blocks its event loop."""
    time.sleep(600)
    return "woke"


async def greet(who: str) -> str:
    """Greets someone, after a pause."""
    await asyncio.sleep(0.01)
    return f"hello {who}"


async def stuck_awhile(started: str, seconds: float = 20) -> str:
    """An async tool that blocks its event loop for a while."""
    open(started, "w").close()
    time.sleep(seconds)
    return "woke"


def chatty(pid_file: str) -> str:
    """Prints, writes to stderr, reads stdin."""
    print("LEAKED TO STDOUT \\x1b[31m")
    sys.stderr.write("LEAKED TO STDERR\\n")
    with open(pid_file, "w") as handle:
        handle.write(str(os.getpid()))
    return f"read {sys.stdin.read()!r}"


def sleeper(pid_file: str) -> str:
    """Says where it runs, then sleeps."""
    with open(pid_file, "w") as handle:
        handle.write(str(os.getpid()))
    time.sleep(600)
    return "woke"


def quits() -> str:
    """Ends its process."""
    sys.exit(4)
'''


@pytest.fixture
def unruly(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    package = tmp_path / "pylib" / "unruly_pkg"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "tools.py").write_text(textwrap.dedent(UNRULY))
    monkeypatch.syspath_prepend(str(tmp_path / "pylib"))
    return "unruly_pkg.tools"


def run_tool(tools: ToolsProvider, name: str, **arguments: object) -> ToolResultPart:
    tool = tools.env.tools.get(name)
    assert tool is not None
    call = ToolCallPart("c", name, json.dumps(arguments))
    return asyncio.run(invoke_tool(tool, call, default_timeout=30))


def pid_gone(pid: int) -> bool:
    """Whether `pid` has ended (a zombie counts: it runs nothing)."""
    try:
        with open(f"/proc/{pid}/stat") as handle:
            return handle.read().split(") ", 1)[1].startswith("Z")
    except FileNotFoundError:
        return True


@pytest.mark.parametrize("function", ["hog", "stuck"])
def test_a_tool_holding_the_gil_or_blocking_its_loop_is_stopped_at_its_timeout(
    tmp_path: Path, unruly: str, function: str
) -> None:
    """Issue 21, items 5 and 8: in a thread, neither timeout could fire."""
    tools = tools_with(tmp_path, {"ref": f"{unruly}:{function}", "timeout": 0.5})
    result = run_tool(tools, function)
    assert (result.is_error, result.content) == (True, f"tool '{function}' timed out after 0.5s")


def test_an_async_tool_not_isolated_that_blocks_is_stopped_at_its_timeout(
    tmp_path: Path, unruly: str
) -> None:
    """Issue 21, item 8: `isolated = false` ran an async tool on ctxchat's own loop, which
    it blocked: its timeout (and Ctrl-C) waited for it to return."""
    tools = tools_with(
        tmp_path, {"ref": f"{unruly}:stuck_awhile", "isolated": False, "timeout": 0.5}
    )
    started = tmp_path / "started"
    result = run_tool(tools, "stuck_awhile", started=str(started))
    assert started.exists()  # it ran, in this process
    assert (result.is_error, result.content) == (True, "tool 'stuck_awhile' timed out after 0.5s")


def test_an_async_tool_not_isolated_keeps_its_schema_and_answers(
    tmp_path: Path, unruly: str
) -> None:
    tools = tools_with(tmp_path, {"ref": f"{unruly}:greet", "isolated": False})
    tool = tools.env.tools.get("greet")
    assert tool is not None
    assert tool.description == "Greets someone, after a pause."
    assert tool.parameters["required"] == ["who"]
    assert run_tool(tools, "greet", who="Ana").content == "hello Ana"


def test_a_tool_timed_out_leaves_no_process_running(tmp_path: Path, unruly: str) -> None:
    pid_file = tmp_path / "pid"
    tools = tools_with(tmp_path, {"ref": f"{unruly}:sleeper", "timeout": 0.5})
    result = run_tool(tools, "sleeper", pid_file=str(pid_file))
    assert result.content == "tool 'sleeper' timed out after 0.5s"
    pid = int(pid_file.read_text())
    assert pid != os.getpid()
    assert pid_gone(pid)


def test_a_tools_standard_streams_are_not_ctxchats(
    tmp_path: Path, unruly: str, capfd: pytest.CaptureFixture[str]
) -> None:
    """Issue 21, item 8: its print stays out of --json output and the terminal, and it
    cannot read the script's later turns."""
    tools = tools_with(tmp_path, f"{unruly}:chatty")
    result = run_tool(tools, "chatty", pid_file=str(tmp_path / "pid"))
    assert (result.is_error, result.content) == (False, "read ''")
    out, err = capfd.readouterr()
    assert "LEAKED" not in out
    assert "LEAKED" not in err


def test_a_python_tool_ending_its_worker_is_an_error_result(tmp_path: Path, unruly: str) -> None:
    tools = tools_with(tmp_path, f"{unruly}:quits")
    first = run_tool(tools, "quits")
    assert first.content == "SystemExit: tool 'quits' tried to end the process (exit status 4)"
    assert run_tool(tools, "quits").content == first.content  # the worker is still usable


def test_an_isolated_false_tool_runs_in_ctxchats_own_process(tmp_path: Path, unruly: str) -> None:
    pid_file = tmp_path / "pid"
    tools = tools_with(tmp_path, {"ref": f"{unruly}:chatty", "isolated": False})
    run_tool(tools, "chatty", pid_file=str(pid_file))
    assert int(pid_file.read_text()) == os.getpid()


def test_a_cancelled_call_kills_its_worker(tmp_path: Path, unruly: str) -> None:
    """Ctrl-C during a tool: the worker goes with the call, nothing keeps running."""
    pid_file = tmp_path / "pid"
    tools = tools_with(tmp_path, f"{unruly}:sleeper")
    tool = tools.env.tools.get("sleeper")
    assert tool is not None

    async def cancel_once_started() -> None:
        call = ToolCallPart("c", "sleeper", json.dumps({"pid_file": str(pid_file)}))
        task = asyncio.ensure_future(invoke_tool(tool, call, default_timeout=60))
        while not pid_file.exists() or not pid_file.read_text():
            await asyncio.sleep(0.01)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(cancel_once_started())
    assert pid_gone(int(pid_file.read_text()))


def test_ctrl_c_stops_a_script_in_an_async_tool_not_isolated_that_blocks(
    tmp_path: Path, unruly: str, cli_env: dict[str, str], fake_openai: FakeOpenAI
) -> None:
    """Issue 21: Ctrl-C could not stop it, its handler waiting on the blocked loop."""
    import signal

    from cli_support import coprocess, write_config

    write_config(
        Path(cli_env["CTXCHAT_HOME"]),
        '[[providers]]\ntype = "tools"\nbuiltins = []\n'
        f'python = [{{ ref = "{unruly}:stuck_awhile", isolated = false, side_effects = false }}]\n',
    )
    started = tmp_path / "started"
    fake_openai.enqueue(
        ToolCalls([("stuck_awhile", {"started": str(started), "seconds": 600})]), Text("late")
    )
    env = {**cli_env, "PYTHONPATH": str(tmp_path / "pylib")}
    with coprocess("run", "--lines", env=env) as child:
        child.stdin.write(b"wait for it\n")
        child.stdin.close()
        deadline = time.monotonic() + 60
        while not started.exists():
            assert time.monotonic() < deadline, "the tool never started"
            time.sleep(0.01)
        child.process.send_signal(signal.SIGINT)
        code = child.process.wait(timeout=60)
        stderr = child.stderr.read().decode()
    assert code == 130, stderr
    assert "Traceback" not in stderr
