"""The built-in tools, run as the model runs them: through the catalogue and invoke_tool."""

from __future__ import annotations

import asyncio
import json
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from ctxchat.core.errors import ConfigError
from ctxchat.core.messages import ToolCallPart, ToolResultPart
from ctxchat.core.provider import ProviderEnv
from ctxchat.core.tools import invoke_tool
from ctxchat.providers.tools.provider import ToolsProvider


def provider(tmp_path: Path, **options: Any) -> ToolsProvider:
    return ToolsProvider(
        "tools", ToolsProvider.Options(**options), env=ProviderEnv(data_dir=tmp_path / "data")
    )


def call(tools: ToolsProvider, name: str, **arguments: Any) -> ToolResultPart:
    tool = tools.env.tools.get(name)
    part = ToolCallPart("c1", name, json.dumps(arguments))
    return asyncio.run(invoke_tool(tool, part, default_timeout=10))


def test_the_default_built_ins_are_safe_and_the_file_tools_are_off(tmp_path: Path) -> None:
    tools = provider(tmp_path)
    assert tools.env.tools.names() == [
        "current_time",
        "convert_time",
        "calculate",
        "search_sessions",
    ]
    assert all(not t.side_effects and t.source == "builtin" for t in tools.catalogue())


def test_current_time_in_time_zones(tmp_path: Path) -> None:
    tools = provider(tmp_path)
    tokyo = json.loads(call(tools, "current_time", timezone="Asia/Tokyo").content)
    assert tokyo["timezone"] == "Asia/Tokyo"
    assert tokyo["utc_offset"] == "+09:00"
    moment = datetime.fromisoformat(tokyo["datetime"])
    assert moment.utcoffset() is not None
    assert abs((moment - datetime.now(moment.tzinfo)).total_seconds()) < 60
    local = json.loads(call(tools, "current_time").content)
    assert local["datetime"]
    unknown = call(tools, "current_time", timezone="Mars/Olympus")
    assert unknown.is_error
    assert "unknown time zone 'Mars/Olympus'" in unknown.content


def test_convert_time_between_zones_across_a_date_line(tmp_path: Path) -> None:
    tools = provider(tmp_path)
    result = call(
        tools,
        "convert_time",
        time="2025-01-15T09:30",
        from_timezone="America/New_York",
        to_timezone="Asia/Kolkata",
    )
    converted = json.loads(result.content)
    assert converted["from"]["utc_offset"] == "-05:00"
    assert converted["to"]["datetime"] == "2025-01-15T20:00:00+05:30"
    today = json.loads(
        call(tools, "convert_time", time="12:00", from_timezone="UTC", to_timezone="UTC").content
    )
    assert today["to"]["datetime"].endswith("T12:00:00+00:00")


@pytest.mark.parametrize(
    ("expression", "value"),
    [
        ("(2 + 3) * 4", "20"),
        ("2 ** 10 - 1", "1023"),
        ("7 // 2 + 7 % 2", "4"),
        ("-3 / 4", "-0.75"),
        ("sqrt(16) + abs(-2)", "6"),
        ("round(pi, 3)", "3.142"),
        ("max(1, 5, 3)", "5"),
    ],
)
def test_the_calculator_does_arithmetic(tmp_path: Path, expression: str, value: str) -> None:
    result = call(provider(tmp_path), "calculate", expression=expression)
    assert (result.is_error, result.content) == (False, value)


@pytest.mark.parametrize(
    ("expression", "said"),
    [
        ("__import__('os').system('touch /tmp/pwned')", "not allowed"),
        ("open('/etc/passwd').read()", "not allowed"),
        ("x + 1", "the name 'x'"),
        ("(1).__class__", "Attribute"),
        ("'a' * 3", "only numbers"),
        ("[1, 2]", "List"),
        ("[x for x in range(10)]", "ListComp"),
        ("lambda: 1", "Lambda"),
        ("True + 1", "only numbers"),
        ("1 if 1 else 2", "IfExp"),
        ("1 < 2", "Compare"),
        ("sqrt(x=4)", "not allowed"),
        ("9 ** 9 ** 9", "exponent too large"),
        ("10 ** 100000", "exponent too large"),
        ("factorial(100000)", "limited"),
        ("round(1, -10**9)", "argument 2 of round is limited to -1000 to 1000"),
        ("round(1.5, 10**9)", "argument 2 of round is limited"),
        ("1 / 0", "division by zero"),
        ("import os", "not an arithmetic expression"),
        ("1; 2", "not an arithmetic expression"),
        ("(" * 300 + "1" + ")" * 300, ""),
        ("1 +" * 300 + "1", "longer than"),
    ],
)
def test_the_calculator_refuses_anything_but_arithmetic(
    tmp_path: Path, expression: str, said: str
) -> None:
    result = call(provider(tmp_path), "calculate", expression=expression)
    assert result.is_error, result.content
    assert said in result.content
    assert not Path("/tmp/pwned").exists()


@pytest.fixture
def tree(tmp_path: Path) -> dict[str, Path]:
    """A root with a file, a subdirectory, and links that point in and out of it."""
    root = tmp_path / "root"
    (root / "sub").mkdir(parents=True)
    (root / "notes.txt").write_text("hello from the root\n", "utf-8")
    (root / "sub" / "deep.txt").write_text("deep\n", "utf-8")
    (root / "blob.bin").write_bytes(b"\0\1\2binary")
    outside = tmp_path / "secret.txt"
    outside.write_text("do not read\n", "utf-8")
    (root / "out-link").symlink_to(outside)
    (root / "dir-link").symlink_to(tmp_path)
    (root / "in-link").symlink_to(root / "notes.txt")
    return {"root": root, "outside": outside}


def test_file_tools_read_and_list_inside_a_root(tmp_path: Path, tree: dict[str, Path]) -> None:
    tools = provider(tmp_path, roots=[str(tree["root"])])
    assert "read_file" in tools.env.tools.names()
    assert call(tools, "read_file", path="notes.txt").content == "hello from the root\n"
    deep = call(tools, "read_file", path=str(tree["root"] / "sub" / "deep.txt"))
    assert deep.content == "deep\n"
    assert call(tools, "read_file", path="in-link").content == "hello from the root\n"
    listing = json.loads(call(tools, "list_directory", path=".").content)
    kinds = {e["name"]: e["kind"] for e in listing["entries"]}
    assert kinds == {
        "blob.bin": "file",
        "dir-link": "link",
        "in-link": "link",
        "notes.txt": "file",
        "out-link": "link",
        "sub": "directory",
    }
    assert call(tools, "read_file", path="blob.bin").content.endswith("is not a text file")


@pytest.mark.parametrize(
    "path",
    [
        "../secret.txt",
        "sub/../../secret.txt",
        "out-link",
        "dir-link/secret.txt",
        "/etc/passwd",
        "~/.ssh/id_rsa",
    ],
)
def test_file_tools_refuse_paths_outside_the_root(
    tmp_path: Path, tree: dict[str, Path], path: str
) -> None:
    tools = provider(tmp_path, roots=[str(tree["root"])])
    for name in ("read_file", "list_directory"):
        result = call(tools, name, path=path)
        assert result.is_error
        assert "outside the directories open to the file tools" in result.content
        assert "do not read" not in result.content


def test_roots_must_exist(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"roots\[0\]: .* is not a directory"):
        provider(tmp_path, roots=[str(tmp_path / "missing")])
    with pytest.raises(ConfigError, match="must be an absolute path"):
        provider(tmp_path, roots=["relative/dir"])


def test_an_unknown_built_in_is_a_config_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"unknown built-in tool 'calculater'.*'calculate'"):
        provider(tmp_path, builtins=["calculater"])


SWAPPER = """
import os, sys
root, link, stop = sys.argv[1:4]
swaps = 0
while not os.path.exists(stop) or swaps < 300:
    os.rename(root + "/mid", root + "/held")
    os.rename(link, root + "/mid")  # `mid` is now the link out
    os.rename(root + "/mid", link)
    os.rename(root + "/held", root + "/mid")
    swaps += 1
"""


def test_a_middle_directory_swapped_for_a_link_never_lets_read_file_out(tmp_path: Path) -> None:
    """Issue 21, item 7: O_NOFOLLOW covered only the last component, so swapping `mid` for
    a link to a directory outside between the check and the open read the outside file.
    The swapper is a process of its own, so it races the reads truly in parallel."""
    import subprocess
    import sys

    from ctxchat.providers.tools.files import FileTools, OutsideRoots

    root, outside = tmp_path / "root", tmp_path / "outside"
    (root / "mid").mkdir(parents=True)
    (root / "mid" / "file.txt").write_text("inside\n")
    (outside / "mid").mkdir(parents=True)
    (outside / "mid" / "file.txt").write_text("SECRET\n")
    link = root / "link"
    link.symlink_to(outside / "mid")
    stop = tmp_path / "stop"
    files = FileTools([root.resolve()], 1_000)
    swapper = subprocess.Popen([sys.executable, "-c", SWAPPER, str(root), str(link), str(stop)])
    read: list[str] = []
    try:
        while len(read) < 3_000:
            try:
                read.append(files.read_file("mid/file.txt"))
            except (OutsideRoots, OSError):
                read.append("refused")
    finally:
        stop.write_text("stop")
        assert swapper.wait(60) == 0
    assert read.count("SECRET\n") == 0
    assert "inside\n" in read  # the race was run, not refused whole
