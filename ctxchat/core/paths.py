"""Where ctxchat keeps its files. CTXCHAT_HOME, when set, holds everything (tests use it)."""

from __future__ import annotations

import os
from pathlib import Path

APP_NAME = "ctxchat"


def _home() -> Path | None:
    value = os.environ.get("CTXCHAT_HOME")
    return Path(value).expanduser() if value else None


def config_dir() -> Path:
    home = _home()
    if home is not None:
        return home
    import platformdirs

    return Path(platformdirs.user_config_dir(APP_NAME))


def data_dir() -> Path:
    home = _home()
    if home is not None:
        return home
    import platformdirs

    return Path(platformdirs.user_data_dir(APP_NAME))


def default_config_path() -> Path:
    return config_dir() / "config.toml"


def sessions_dir(data: Path | None = None) -> Path:
    """Where session files live: in `data` (a provider's `env.data_dir`), else the data dir."""
    return (data_dir() if data is None else data) / "sessions"


def input_history_path() -> Path:
    return data_dir() / "input_history"


def model_lists_path() -> Path:
    """Which models each endpoint serves, as it last said (see `model_discovery`)."""
    return data_dir() / "models.json"


def models_dir() -> Path:
    """GGUF model files `ctxchat models pull` fetched (see `storage.model_files`)."""
    return data_dir() / "models"
