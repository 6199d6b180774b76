"""`ctxchat serve MODEL.gguf`: the local model's server in the foreground, to share.

The same llama.cpp child server a run with `--model FILE.gguf` starts, on a port the user
picks, until Ctrl-C or SIGTERM: several ctxchat processes (`OPENAI_BASE_URL=...`), or any
other OpenAI-compatible tool, then share one loaded model. Its base URL is the one line on
stdout; what it loaded goes to stderr.
"""

from __future__ import annotations

import signal
import sys
from types import FrameType
from typing import Annotated

import typer

from ctxchat.cli.common import report
from ctxchat.core.errors import LocalServerError

DEFAULT_PORT = 8080  # llama.cpp's own


class _Stopped(Exception):
    """SIGTERM: leave the way Ctrl-C does, the child ended first."""


def _stop(_signum: int, _frame: FrameType | None) -> None:
    raise _Stopped


def serve(
    model: Annotated[
        str,
        typer.Argument(
            metavar="MODEL", help="A .gguf file, or a kept model's name.", show_default=False
        ),
    ],
    port: Annotated[
        int,
        typer.Option(min=0, max=65535, metavar="N", help="Port on 127.0.0.1 (0: any free one)."),
    ] = DEFAULT_PORT,
    threads: Annotated[
        int | None,
        typer.Option(
            min=1,
            metavar="N",
            help="llama.cpp's threads (default: the cores free now, measured).",
            show_default=False,
        ),
    ] = None,
) -> None:
    """Serve a GGUF model for several chats to share, until Ctrl-C.

    Point ctxchat at it with OPENAI_BASE_URL (the URL this prints)."""
    import time
    from dataclasses import replace

    from ctxchat.cli.common import require_utf8
    from ctxchat.core.paths import models_dir
    from ctxchat.core.settings import ModelSettings
    from ctxchat.services.llama_server import LlamaServer
    from ctxchat.services.local_model import choose_local_model, server_options

    require_utf8(model=model)
    choice = choose_local_model(ModelSettings(model=model), models=models_dir())
    if choice is None:
        from ctxchat.core.errors import UsageError

        raise UsageError(
            f"no model '{model}': give a .gguf file or a name `ctxchat models list` shows"
        )
    options = replace(server_options(ModelSettings(), choice, threads=threads), port=port)
    server = LlamaServer(options)
    signal.signal(signal.SIGTERM, _stop)
    began = time.monotonic()
    try:
        server.start()
        took = time.monotonic() - began
        report(
            f"serving {choice.path.name} as '{options.model_id}' ({options.threads} "
            f"thread{'' if options.threads == 1 else 's'}, loaded in {took:.1f} s); Ctrl-C stops",
            kind="",
        )
        sys.stdout.write(server.base_url + "\n")
        sys.stdout.flush()
        status = server.wait()
        raise LocalServerError(f"the local model server ended on its own (status {status})")
    except (KeyboardInterrupt, _Stopped):
        pass
    finally:
        server.stop()
