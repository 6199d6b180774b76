"""A config file's TOML, read within a size limit, its errors as one line naming the
file, line and column."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

from ctxchat.core.errors import ConfigError

MAX_CONFIG_BYTES = 1_000_000


def read_toml(path: Path) -> dict[str, Any]:
    """The file's TOML; no more than `MAX_CONFIG_BYTES` of it is read: a config holds
    settings, and whatever it holds (a system prompt) is sent with every turn."""
    try:
        with path.open("rb") as handle:
            raw = handle.read(MAX_CONFIG_BYTES + 1)
        if len(raw) > MAX_CONFIG_BYTES:
            raise ConfigError(f"config file {path} is over the limit of {MAX_CONFIG_BYTES:,} bytes")
        text = raw.decode("utf-8")
    except FileNotFoundError:
        raise ConfigError(f"config file {path} does not exist") from None
    except IsADirectoryError:
        raise ConfigError(f"config file {path} is a directory") from None
    except UnicodeDecodeError:
        raise ConfigError(f"config file {path} is not UTF-8 text") from None
    except OSError as exc:
        raise ConfigError(f"cannot read config file {path}: {exc.strerror}") from exc
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(
            f"{path}:{_toml_position(exc, text)} invalid TOML: {_toml_reason(exc)}"
        ) from exc


def _toml_position(exc: tomllib.TOMLDecodeError, text: str) -> str:
    line = getattr(exc, "lineno", None)
    col = getattr(exc, "colno", None)
    if line is None:
        found = re.search(r"\(at line (\d+), column (\d+)\)", str(exc))
        if found:
            line, col = int(found.group(1)), int(found.group(2))
        elif "(at end of document)" in str(exc):
            lines = text.split("\n")
            line, col = len(lines), len(lines[-1]) + 1
    return f"{line}:{col}:" if line is not None else ""


def _toml_reason(exc: tomllib.TOMLDecodeError) -> str:
    message = getattr(exc, "msg", None) or str(exc)
    return re.sub(r"\s*\(at (line \d+, column \d+|end of document)\)", "", message)
