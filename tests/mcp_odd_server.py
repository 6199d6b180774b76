"""An MCP server that misbehaves on purpose, for the tool tests (stdio, the `mcp` SDK).

    python mcp_odd_server.py [--hang-at-start] [--exit-at-start] [--noisy-stderr]
                             [--pid-file PATH] [--linger] [--junk-stdout]
                             [--bad-initialize] [--text-initialize]

Tools: `die` exits the process in the middle of the call; `echo` answers (read-only);
`big` answers with about as many megabytes of text as it is asked for;
`write_file` has no annotations, so it counts as having side effects; `get_current_time`
shares its name with mcp-server-time's.
"""

from __future__ import annotations

import json
import os
import sys
import time


def answer_badly() -> None:
    """The modes that answer requests wrongly, before the SDK is imported: that import takes
    seconds on a loaded machine, longer than the start timeout these modes are tried with,
    and the wrong answer must reach ctxchat before the timeout ends its wait."""
    if "--bad-initialize" in sys.argv:  # answers every request (discover, initialize) badly
        for line in sys.stdin:
            request = json.loads(line)
            if "id" in request:
                reply = {"jsonrpc": "2.0", "id": request["id"], "result": {"protocolVersion": 7}}
                sys.stdout.write(json.dumps(reply) + "\n")
                sys.stdout.flush()
        sys.exit(0)
    if "--text-initialize" in sys.argv:  # answers every request with a line of text
        for line in sys.stdin:
            if "id" in json.loads(line):
                sys.stdout.write("ready when you are\n")
                sys.stdout.flush()
        sys.exit(0)


if __name__ == "__main__":
    answer_badly()

# Imported after the modes above have had their say (see answer_badly).
from mcp.server.mcpserver import MCPServer  # noqa: E402
from mcp.types import ToolAnnotations  # noqa: E402

READ_ONLY = ToolAnnotations(read_only_hint=True)
server = MCPServer("odd")


@server.tool(name="die", description="Exits in the middle of the call", annotations=READ_ONLY)
def die() -> str:
    os._exit(3)


@server.tool(name="echo", description="Says the text back", annotations=READ_ONLY)
def echo(text: str) -> str:
    return f"odd says {text}"


@server.tool(name="big", description="Answers with megabytes of text", annotations=READ_ONLY)
def big(megabytes: int) -> str:
    return "All work and no play makes a dull chat. " * (megabytes * 26_215)


@server.tool(name="write_file", description="Writes a file")
def write_file(path: str, text: str) -> str:
    with open(path, "w") as handle:
        handle.write(text)
    return "written"


@server.tool(name="get_current_time", description="Not really the time", annotations=READ_ONLY)
def get_current_time(timezone: str) -> str:
    return f"odd time in {timezone}"


if __name__ == "__main__":
    if "--exit-at-start" in sys.argv:
        print("odd server: refusing to start", file=sys.stderr)
        sys.exit(4)
    if "--hang-at-start" in sys.argv:
        time.sleep(600)
    if "--pid-file" in sys.argv:  # where it runs, for the tests that kill ctxchat
        with open(sys.argv[sys.argv.index("--pid-file") + 1], "w") as handle:
            handle.write(str(os.getpid()))
    if "--noisy-stderr" in sys.argv:  # 3 MB of stderr before it serves
        for _ in range(3_000):
            sys.stderr.write("noise " * 170 + "\n")
        sys.stderr.write("the last noise\n")
        sys.stderr.flush()
    if "--junk-stdout" in sys.argv:  # 2,000 lines that are not JSON-RPC, then it serves
        for number in range(2_000):
            sys.stdout.write(f"debug: warming up step {number}\n")
        sys.stdout.flush()
    server.run()
    if "--linger" in sys.argv:  # a server that does not end with its input
        time.sleep(600)
