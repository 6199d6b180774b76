"""`ctxchat models pull`: a GGUF file fetched into the data dir's models folder.

A source is a URL, or a Hugging Face repository and a file in it (`owner/repo FILE` or
`owner/repo/FILE`), fetched from `{hub}/owner/repo/resolve/main/FILE`; the hub is
`HF_ENDPOINT` when set (Hugging Face's own variable for a mirror), else huggingface.co.

The bytes go to a `.NAME.part` file beside the final one, and only a whole, checked file
is renamed to its name: a partial file is never taken for a model. A cut download is
resumed from where it stopped (an HTTP range request; a server that ignores it sends the
whole file again). What the source says of the file is checked: its size (the hub's
`X-Linked-Size`, else `Content-Length`) and its SHA-256 (the hub's `X-Linked-Etag`, or a
`#sha256=HEX` fragment on a URL, as pip reads one).
"""

from __future__ import annotations

import hashlib
import importlib
import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote, unquote, urlsplit

from ctxchat.core.errors import CtxchatError, UsageError
from ctxchat.storage.fsutil import FILE_MODE, ensure_private_dir
from ctxchat.storage.model_files import SUFFIX

HUB_ENV = "HF_ENDPOINT"
DEFAULT_HUB = "https://huggingface.co"
CHUNK = 1 << 20
REPO = re.compile(r"^[\w.-]+/[\w.-]+$")
SHA256 = re.compile(r"^[0-9a-f]{64}$")
TIMEOUT = 30.0  # seconds without a byte before the download is given up

Progress = Callable[[int, int | None], None]  # (bytes so far, bytes in all or None)


class PullError(CtxchatError):
    """The download failed or what arrived is not what the source said (exit 1); a partial
    file is kept to resume from only when it may be the file's start."""


@dataclass(frozen=True)
class Source:
    url: str
    name: str  # the file name it is kept under
    sha256: str | None = None


def parse_source(source: str, file: str | None, hub: str) -> Source:
    """Where `ctxchat models pull SOURCE [FILE]` fetches from; UsageError when unclear."""
    if source.startswith(("http://", "https://")):
        if file is not None:
            raise UsageError("a URL names its file: give the URL alone")
        url, _, fragment = source.partition("#")
        name = unquote(urlsplit(url).path.rsplit("/", 1)[-1])
        digest = fragment[len("sha256=") :].lower() if fragment.startswith("sha256=") else None
        if digest is not None and not SHA256.match(digest):
            raise UsageError(f"#sha256= in {source} is not a SHA-256 (64 hex digits)")
        return Source(url, _gguf_name(name, source), digest)
    parts = source.strip("/").split("/")
    if len(parts) == 3 and file is None:
        repo, file = "/".join(parts[:2]), parts[2]
    else:
        repo = source.strip("/")
    if not REPO.match(repo) or file is None:
        raise UsageError(
            f"'{source}' is not a source: give a URL, or a repository and a file in it "
            "(owner/repo FILE.gguf)"
        )
    url = f"{hub.rstrip('/')}/{repo}/resolve/main/{quote(file)}"
    return Source(url, _gguf_name(file.rsplit("/", 1)[-1], source))


def _gguf_name(name: str, source: str) -> str:
    if not name.lower().endswith(SUFFIX) or name.startswith(".") or "/" in name:
        raise UsageError(f"{source} does not name a .gguf file")
    return name


def hub_url(environ: dict[str, str] | None = None) -> str:
    return (dict(os.environ) if environ is None else environ).get(HUB_ENV) or DEFAULT_HUB


def _httpx() -> Any:
    try:
        return importlib.import_module("httpx2")  # the one openai 3 sends with
    except ImportError:
        return importlib.import_module("httpx")


def pull(source: Source, folder: Path, progress: Progress | None = None) -> Path:
    """Fetch `source` into `folder` (0700) as a 0600 file; its path. Already kept: kept."""
    target = folder / source.name
    if target.is_file():
        return target
    ensure_private_dir(folder)
    partial = folder / f".{source.name}.part"
    httpx = _httpx()
    try:
        with httpx.Client(follow_redirects=True, timeout=TIMEOUT) as client:
            _download(client, source, partial, progress)
    except httpx.HTTPError as exc:
        kept = partial.stat().st_size if partial.is_file() else 0
        again = f"; {kept:,} bytes kept: pull again to resume" if kept else ""
        raise PullError(f"cannot fetch {source.url}: {exc or type(exc).__name__}{again}") from exc
    except OSError as exc:
        raise PullError(f"cannot write {partial}: {exc.strerror or exc}") from exc
    os.replace(partial, target)
    return target


def _download(client: Any, source: Source, partial: Path, progress: Progress | None) -> None:
    have = partial.stat().st_size if partial.is_file() else 0
    headers = {"Range": f"bytes={have}-"} if have else {}
    with client.stream("GET", source.url, headers=headers) as answer:
        if answer.status_code == 416 and have:  # the part is already whole (or too long)
            answer.read()
            said = _said(answer, source, have, None)
        else:
            if answer.status_code >= 400:
                raise PullError(f"cannot fetch {source.url}: HTTP {answer.status_code}")
            resumed = answer.status_code == 206 and have > 0
            if not resumed:
                have = 0
            said = _said(answer, source, have, None if resumed else answer)
            digest = hashlib.sha256()
            fd = os.open(partial, os.O_RDWR | os.O_CREAT, FILE_MODE)
            with os.fdopen(fd, "r+b") as file:
                if resumed:
                    _hash_into(digest, file, have)
                file.truncate(have)
                file.seek(have)
                for block in answer.iter_bytes(CHUNK):
                    file.write(block)
                    digest.update(block)
                    have += len(block)
                    if progress is not None:
                        progress(have, said.size)
                file.flush()
                os.fsync(file.fileno())
            _check(source, partial, said, digest.hexdigest(), have)
            return
    digest = hashlib.sha256()
    with partial.open("rb") as file:
        _hash_into(digest, file, have)
    _check(source, partial, said, digest.hexdigest(), have)


@dataclass(frozen=True)
class Said:
    size: int | None
    sha256: str | None


def _said(answer: Any, source: Source, have: int, whole: Any) -> Said:
    """What the source says of the file: its size and SHA-256, where it says them. The
    hub says both on its redirect (`X-Linked-*`), which `history` keeps."""
    size: int | None = None
    sha256 = source.sha256
    for response in [*answer.history, answer]:
        linked_size = response.headers.get("x-linked-size")
        if linked_size and linked_size.isdigit():
            size = int(linked_size)
        etag = response.headers.get("x-linked-etag", "").strip('"').lower()
        if sha256 is None and SHA256.match(etag):
            sha256 = etag
    if size is None:
        length = answer.headers.get("content-length", "")
        ranged = answer.headers.get("content-range", "")
        if "/" in ranged and ranged.rsplit("/", 1)[1].isdigit():
            size = int(ranged.rsplit("/", 1)[1])
        elif whole is not None and length.isdigit():
            size = int(length)
        elif length.isdigit():
            size = have + int(length)
    return Said(size, sha256)


def _hash_into(digest: Any, file: Any, length: int) -> None:
    file.seek(0)
    left = length
    while left > 0:
        block = file.read(min(CHUNK, left))
        if not block:
            break
        digest.update(block)
        left -= len(block)


def _check(source: Source, partial: Path, said: Said, sha256: str, size: int) -> None:
    """The file is what the source said, or it goes (a wrong file is no start to resume)."""
    problem = None
    if said.size is not None and size != said.size:
        if size < said.size:  # cut short: kept, the next pull resumes it
            raise PullError(
                f"the download of {source.name} stopped at {size:,} of {said.size:,} bytes: "
                "pull again to resume it"
            )
        problem = f"is {size:,} bytes, not the {said.size:,} its source says"
    elif said.sha256 is not None and sha256 != said.sha256:
        problem = f"has SHA-256 {sha256}, not the {said.sha256} its source says"
    if problem is not None:
        partial.unlink(missing_ok=True)
        raise PullError(f"{source.name} from {source.url} {problem}; nothing was kept")
