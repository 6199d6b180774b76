"""GGUF model files kept in the data dir: listed, found by a short name, removed.

A pulled file keeps the name its source gave it (`qwen2.5-1.5b-instruct-q4_k_m.gguf`); the
user names it by its stem or by its short name, the stem less the quantisation tag and an
`-instruct` suffix (`qwen2.5-1.5b`), case aside. The folder is 0700 and each file 0600, as
for every data file.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from ctxchat.core.errors import UsageError

GGUF_MAGIC = b"GGUF"
SUFFIX = ".gguf"
# `-q4_k_m`, `.Q4_1`, `-f16`, `-bf16`, `-iq3_xxs`: the weights' format, not the model.
QUANT_TAG = re.compile(r"[-._](?:i?q\d[\w]*|b?f16|f32)$", re.IGNORECASE)
INSTRUCT_TAG = re.compile(r"[-._]instruct$", re.IGNORECASE)


@dataclass(frozen=True)
class ModelFile:
    path: Path
    size: int

    @property
    def stem(self) -> str:
        return self.path.stem

    @property
    def short_name(self) -> str:
        return short_name(self.path.stem)


def short_name(stem: str) -> str:
    """`Qwen2.5-1.5B-Instruct-Q4_K_M` -> `qwen2.5-1.5b`."""
    name = QUANT_TAG.sub("", stem)
    name = INSTRUCT_TAG.sub("", name)
    return (name or stem).lower()


def looks_like_gguf_path(name: str) -> bool:
    """Whether a model name is a file to run here rather than a name a server knows."""
    return name.lower().endswith(SUFFIX)


def is_gguf(path: Path) -> bool:
    """Whether the file begins as every GGUF file does."""
    try:
        with path.open("rb") as file:
            return file.read(len(GGUF_MAGIC)) == GGUF_MAGIC
    except OSError:
        return False


def list_models(folder: Path) -> list[ModelFile]:
    """The GGUF files in `folder`, by name; none when it does not exist."""
    try:
        entries = sorted(folder.iterdir())
    except OSError:
        return []
    found = []
    for entry in entries:
        if entry.suffix.lower() != SUFFIX or not entry.is_file():
            continue
        try:
            found.append(ModelFile(entry, entry.stat().st_size))
        except OSError:
            continue
    return found


def find_model(folder: Path, name: str) -> ModelFile | None:
    """The kept file named `name` (its file name, stem or short name), or None. A short
    name that two files share names neither: the user is told to be precise."""
    wanted = name.lower().removesuffix(SUFFIX)
    models = list_models(folder)
    exact = [m for m in models if m.stem.lower() == wanted]
    if exact:
        return exact[0]
    short = [m for m in models if m.short_name == wanted]
    if len(short) > 1:
        names = ", ".join(m.path.name for m in short)
        raise UsageError(f"'{name}' names {len(short)} models ({names}): give the file's name")
    return short[0] if short else None


def remove_model(folder: Path, name: str) -> ModelFile:
    """Delete a kept model by any of its names; UsageError (exit 2) when none has it."""
    found = find_model(folder, name)
    if found is None:
        listed = ", ".join(m.short_name for m in list_models(folder)) or "none"
        raise UsageError(f"no model '{name}' in {folder} (kept: {listed})")
    try:
        found.path.unlink()
    except OSError as exc:
        raise UsageError(f"cannot remove {found.path}: {exc.strerror or exc}") from exc
    return found
