"""`!command` at the REPL: a shell command the user runs, whose output is offered as an
attachment for the next message. The user runs it, never the model; its output is a
document (memory does not learn from it), named by the command and its exit status."""

from __future__ import annotations

import asyncio
import contextlib
import os
import subprocess
from dataclasses import dataclass

from ctxchat.core.messages import TextPart
from ctxchat.core.settings import AttachmentSettings
from ctxchat.services.attachments import fenced


@dataclass(frozen=True)
class ShellOutput:
    part: TextPart
    status: int
    lines: int
    cut: bool  # the output ran past `text_bytes`: only that much is attached


async def shell_output(command: str, limits: AttachmentSettings) -> ShellOutput:
    """The command's output (stdout and stderr together, as a terminal shows them)."""
    shell = os.environ.get("SHELL") or "/bin/sh"
    process = await asyncio.create_subprocess_exec(
        shell,
        "-c",
        command,
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
        start_new_session=True,  # Ctrl-C at the REPL ends it through us, not the terminal
    )
    assert process.stdout is not None
    data = bytearray()
    try:
        while len(data) <= limits.text_bytes:
            chunk = await process.stdout.read(65536)
            if not chunk:
                break
            data += chunk
        if len(data) > limits.text_bytes:
            process.kill()  # the rest would not be attached: no reason to wait for it
        status = await process.wait()
    except asyncio.CancelledError:
        with contextlib.suppress(ProcessLookupError):
            process.kill()
        await process.wait()
        raise
    return _output(command, bytes(data), status, limits)


def run_shell(command: str, limits: AttachmentSettings) -> ShellOutput:
    """`shell_output` for a script, which reads its turns outside the event loop."""
    shell = os.environ.get("SHELL") or "/bin/sh"
    with subprocess.Popen(
        [shell, "-c", command],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    ) as process:
        assert process.stdout is not None
        data = process.stdout.read(limits.text_bytes + 1)
        if len(data) > limits.text_bytes:
            process.kill()
        status = process.wait()
    return _output(command, data, status, limits)


def _output(command: str, data: bytes, status: int, limits: AttachmentSettings) -> ShellOutput:
    cut = len(data) > limits.text_bytes
    text = data[: limits.text_bytes].decode("utf-8", errors="replace")
    name = f"$ {command} (exit {status}{', output cut' if cut else ''})"
    body = fenced(name, text).replace("Attached file ", "Output of ", 1)
    return ShellOutput(TextPart(body, "document"), status, len(text.splitlines()), cut)
