"""A run's model, when it is a GGUF file: chosen, started, and the config pointed at it."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ctxchat.config.loading import Config


def use_local_model(config: Config) -> tuple[Config, str | None]:
    """The config to run with and the line that says which file was loaded, or the config
    unchanged and None when the model is a server's (see `services.local_model`)."""
    from ctxchat.core.paths import models_dir
    from ctxchat.services.local_model import choose_local_model, start_local_model

    choice = choose_local_model(
        config.model,
        models=models_dir(),
        config_dir=config.path.parent if config.path is not None else None,
    )
    if choice is None:
        return config, None
    started = start_local_model(config.model, choice)
    # "local": the run's model is the file's, whatever model a resumed session used.
    origins = {**config.origins, "model": "local"}
    return replace(config, model=started.settings, origins=origins), started.note
