"""A run's models, when they are GGUF files: chosen, started, and the config pointed at
them (the chat's `[model]`, and `[embeddings] path`)."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ctxchat.config.loading import Config


def use_local_model(config: Config) -> tuple[Config, str | None]:
    """The config to run with and the line that says which files were loaded, or the
    config unchanged and None when both models are servers' (see `services.local_model`)."""
    from ctxchat.core.paths import models_dir
    from ctxchat.services.local_model import choose_local_model, start_local_model

    config, embeddings_note = use_local_embeddings(config)
    choice = choose_local_model(
        config.model,
        models=models_dir(),
        config_dir=config.path.parent if config.path is not None else None,
    )
    if choice is None:
        return config, embeddings_note
    started = start_local_model(config.model, choice)
    # "local": the run's model is the file's, whatever model a resumed session used.
    origins = {**config.origins, "model": "local"}
    note = started.note if embeddings_note is None else f"{started.note}; {embeddings_note}"
    return replace(config, model=started.settings, origins=origins), note


def use_local_embeddings(config: Config) -> tuple[Config, str | None]:
    """The config with `[embeddings]` pointed at the server of its GGUF file, started, and
    the line saying so; unchanged and None when `[embeddings] path` is not set."""
    from ctxchat.services.local_embeddings import embedding_file, start_local_embeddings

    path = embedding_file(config.embeddings, config.path.parent if config.path else None)
    if path is None:
        return config, None
    started = start_local_embeddings(config.embeddings, path)
    return replace(config, embeddings=started.settings), started.note
