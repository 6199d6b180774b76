"""A minimal MCP server over stdio, standard library only, for the tests that start
hundreds of servers (an SDK server costs a second of CPU to start; this one a few ms).

    python mcp_tiny_server.py NAME [TOOLS]

It speaks the handshake era: `server/discover` is "method not found" (the client then
sends `initialize`), and it answers `initialize`, `ping`, `tools/list` (TOOLS tools named
`NAME_lookup_N`, read-only, each with a description and two parameters) and `tools/call` (the tool's
name and arguments back as text).
"""

from __future__ import annotations

import json
import sys

NAME = sys.argv[1]
COUNT = int(sys.argv[2]) if len(sys.argv) > 2 else 2


def tools() -> list[dict[str, object]]:
    return [
        {
            "name": f"{NAME}_lookup_{number}",
            "description": f"Looks up record {number} of the {NAME} service by its key, with "
            "the fields asked for, and says when it was last changed and by whom.",
            "inputSchema": {
                "type": "object",
                "properties": {
                    "key": {"type": "string", "description": "the record's key"},
                    "fields": {"type": "array", "items": {"type": "string"}},
                },
                "required": ["key"],
            },
            "annotations": {"readOnlyHint": True},
        }
        for number in range(COUNT)
    ]


def answer(request: dict[str, object]) -> dict[str, object]:
    method = request.get("method")
    params = request.get("params") or {}
    assert isinstance(params, dict)
    if method == "initialize":
        return {
            "result": {
                "protocolVersion": params.get("protocolVersion", "2025-06-18"),
                "capabilities": {"tools": {}},
                "serverInfo": {"name": NAME, "version": "1"},
            }
        }
    if method == "ping":
        return {"result": {}}
    if method == "tools/list":
        return {"result": {"tools": tools()}}
    if method == "tools/call":
        said = f"{params.get('name')} {json.dumps(params.get('arguments'))}"
        return {"result": {"content": [{"type": "text", "text": said}], "isError": False}}
    return {"error": {"code": -32601, "message": f"no method {method}"}}


for line in sys.stdin:
    request = json.loads(line)
    if "id" not in request:
        continue  # a notification (initialized, cancelled): nothing to answer
    reply = {"jsonrpc": "2.0", "id": request["id"], **answer(request)}
    sys.stdout.write(json.dumps(reply) + "\n")
    sys.stdout.flush()
