"""Helpers for the tool tests: a Python tool module on PYTHONPATH, MCP server commands,
JSON Lines files of tools and cases."""

from __future__ import annotations

import json
import sys
import textwrap
from pathlib import Path

HERE = Path(__file__).resolve().parent
# A misbehaving MCP server written with the SDK (see the file): dies, hangs, writes.
ODD_SERVER = HERE / "mcp_odd_server.py"

TOOL_MODULE = '''
import os
import time
from pathlib import Path

OUT = Path(os.environ["TOOL_TEST_DIR"])


def append_note(text: str) -> str:
    """Append a line to the user's notes file.

    Args:
        text: the line to add
    """
    with (OUT / "notes.txt").open("a") as notes:
        notes.write(text + "\\n")
    return "noted"


def nap(seconds: float = 100) -> str:
    """Sleep, then say so."""
    (OUT / "nap-started").touch()
    time.sleep(seconds)
    (OUT / "nap-finished").touch()
    return "rested"
'''


def tool_module(tmp_path: Path, env: dict[str, str]) -> tuple[dict[str, str], Path]:
    """`testtools` importable by a ctxchat subprocess; (its env, the dir the tools write)."""
    lib = tmp_path / "pylib"
    lib.mkdir(exist_ok=True)
    (lib / "testtools.py").write_text(textwrap.dedent(TOOL_MODULE), "utf-8")
    out = tmp_path / "tool-out"
    out.mkdir(exist_ok=True)
    return {**env, "PYTHONPATH": str(lib), "TOOL_TEST_DIR": str(out)}, out


def time_server_command() -> str:
    """The real `mcp-server-time` installed beside the interpreter running the tests."""
    return str(Path(sys.executable).with_name("mcp-server-time"))


def toml_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def write_jsonl(path: Path, records: list[object]) -> Path:
    """`records` as a JSON Lines file at `path` (tools or cases for `tools eval`)."""
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path
