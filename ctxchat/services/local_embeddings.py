"""Embeddings from a GGUF file (`[embeddings] path`), in a llama.cpp server of their own.

llama.cpp's embedding mode serves `/v1/embeddings` and fails every chat request, so the
chat's server never runs in it: the embedding file gets a second child server, started
the same way (`local_model.start_server`: a loopback port of the file's own, ended with
the process), in embedding mode. The chat's and the embeddings' settings then differ only
in their base URLs, and everything that embeds (the tool selector's `embedding` and
`hybrid` rankers, recall's message vectors, `recall index`) goes through the usual
OpenAI client to it.

A dedicated embedding model is what the mode is for; a chat model pooled (`pooling`)
embeds too, less well.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, replace
from pathlib import Path

from ctxchat.core.settings import EmbeddingSettings

# The file's embedding server's port is not its chat server's: one file may be both.
PORT_PURPOSE = "embeddings "


@dataclass(frozen=True)
class LocalEmbeddings:
    """A running embedding server: the settings that reach it, and what to tell the user."""

    settings: EmbeddingSettings
    note: str


def embedding_file(settings: EmbeddingSettings, config_dir: Path | None) -> Path | None:
    """The GGUF file `[embeddings] path` names (relative to the config file naming it)."""
    if settings.path is None:
        return None
    path = Path(settings.path).expanduser()
    if not path.is_absolute() and config_dir is not None:
        path = config_dir / path
    return Path(os.path.abspath(path))


def start_local_embeddings(settings: EmbeddingSettings, path: Path) -> LocalEmbeddings:
    """Start the embedding server for `path` (checked first, as a chat model's file is)."""
    from ctxchat.services.free_cores import free_threads
    from ctxchat.services.llama_server import LlamaServerOptions
    from ctxchat.services.local_model import check_model_file, preferred_port, start_server

    check_model_file(path)
    options = LlamaServerOptions(
        path,
        threads=free_threads(),
        prompt_cache_mib=0,  # embedding requests reuse no prompt
        embedding=True,
        pooling=settings.pooling or "",
        port=preferred_port(path, PORT_PURPOSE),
    )
    began = time.monotonic()
    server = start_server(options)
    took = time.monotonic() - began
    local = replace(
        settings,
        base_url=server.base_url,
        model=options.model_id,
        path=None,
        api_key_env=None,
    )
    return LocalEmbeddings(local, f"embeddings {path.name}: loaded in {took:.1f} s")
