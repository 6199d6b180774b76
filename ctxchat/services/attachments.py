"""Attachments: a file, a directory or a URL read into the parts of the user's message.

Text and code become a text part, named and fenced, with the `document` origin: the
budget counts it, the audit, exports and search see it as the text it is, and memory,
which learns only from the user's own words, never learns from it. A PDF becomes its text
(`ctxchat.services.pdf_text`). An image in a format the API takes becomes an image part.
Anything else is refused by name before any model call, as is an attachment over its
limit: nothing is half-attached.
"""

from __future__ import annotations

import base64
import importlib
import os
import re
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from ctxchat.core.errors import UsageError
from ctxchat.core.image_format import image_info
from ctxchat.core.messages import ImagePart, Part, TextPart
from ctxchat.core.settings import AttachmentSettings
from ctxchat.services.pdf_text import PdfError, is_pdf, pdf_text

_URL = re.compile(r"https?://", re.IGNORECASE)

# Fence languages by suffix: a hint for the model and for Markdown; unknown ones get none.
_LANGUAGES = {
    ".py": "python", ".js": "javascript", ".ts": "typescript", ".rs": "rust", ".go": "go",
    ".c": "c", ".h": "c", ".cpp": "cpp", ".java": "java", ".rb": "ruby", ".sh": "bash",
    ".toml": "toml", ".json": "json", ".yaml": "yaml", ".yml": "yaml", ".md": "markdown",
    ".html": "html", ".css": "css", ".sql": "sql", ".txt": "",
}  # fmt: skip
_SKIPPED_DIRS = frozenset({".git", ".hg", ".svn", "__pycache__", "node_modules", ".venv"})


class AttachmentError(UsageError):
    """An attachment that cannot be read or sent: missing, binary, too large."""


def is_url(source: str) -> bool:
    return _URL.match(source) is not None


def read_attachments(
    sources: Iterable[str], *, cwd: Path | None = None, limits: AttachmentSettings | None = None
) -> tuple[Part, ...]:
    """The parts of every source, in order; the first that cannot be read raises."""
    parts: list[Part] = []
    for source in sources:
        parts.extend(read_attachment(source, cwd=cwd, limits=limits))
    return tuple(parts)


def read_attachment(
    source: str, *, cwd: Path | None = None, limits: AttachmentSettings | None = None
) -> tuple[Part, ...]:
    limits = limits or AttachmentSettings()
    if is_url(source):
        return (_from_url(source, limits),)
    path = Path(os.path.expanduser(source))
    if not path.is_absolute() and cwd is not None:
        path = cwd / path
    if path.is_dir():
        return (_from_directory(path, source, limits),)
    try:
        data = _read_capped(path, max(limits.text_bytes, limits.image_bytes, limits.pdf_bytes))
    except FileNotFoundError:
        raise AttachmentError(f"cannot attach {source}: no such file") from None
    except OSError as exc:
        raise AttachmentError(f"cannot attach {source}: {exc.strerror or exc}") from None
    return (_from_bytes(data, source, limits),)


def _read_capped(path: Path, cap: int) -> bytes:
    with path.open("rb") as handle:
        return handle.read(cap + 1)


def _from_bytes(data: bytes, name: str, limits: AttachmentSettings) -> Part:
    if is_pdf(data):
        return _from_pdf(data, name, limits)
    info = image_info(data)
    if info is not None:
        if len(data) > limits.image_bytes:
            raise AttachmentError(
                f"cannot attach {name}: the image is over {limits.image_bytes:,} bytes"
            )
        encoded = base64.b64encode(data).decode("ascii")
        return ImagePart(info.media_type, encoded, name, info.width, info.height)
    text = _as_text(data)
    if text is None:
        raise AttachmentError(
            f"cannot attach {name}: it is a binary file, neither text, a PDF nor an image in "
            "PNG, JPEG, WebP or GIF"
        )
    if len(data) > limits.text_bytes:
        raise AttachmentError(f"cannot attach {name}: it is over {limits.text_bytes:,} bytes")
    return TextPart(fenced(name, text), "document")


def _from_pdf(data: bytes, name: str, limits: AttachmentSettings) -> Part:
    """A PDF as its text, fenced and named with its page count; the file is held to
    `pdf_bytes`, its text to `text_bytes`, as a text file's."""
    if len(data) > limits.pdf_bytes:
        raise AttachmentError(f"cannot attach {name}: the PDF is over {limits.pdf_bytes:,} bytes")
    try:
        found = pdf_text(data)
    except PdfError as exc:
        raise AttachmentError(f"cannot attach {name}: {exc}") from None
    if len(found.text.encode("utf-8")) > limits.text_bytes:
        raise AttachmentError(f"cannot attach {name}: its text is over {limits.text_bytes:,} bytes")
    pages = "1 page" if found.pages == 1 else f"{found.pages} pages"
    return TextPart(fenced(f"{name} (PDF, {pages})", found.text), "document")


def _as_text(data: bytes) -> str | None:
    """The text of UTF-8 data; None for what is not text (a NUL byte, invalid UTF-8). A
    file read up to a cap may end inside a character: that end is not held against it."""
    if b"\x00" in data:
        return None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        if exc.start < len(data) - 3:
            return None
        return data[: exc.start].decode("utf-8-sig")


def fenced(name: str, text: str) -> str:
    """`text` named and fenced, with a fence longer than any backtick run inside it, so
    that the attachment cannot close its own fence."""
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    language = _LANGUAGES.get(Path(name).suffix.lower(), "")
    body = text if text.endswith("\n") else text + "\n"
    return f"Attached file {name}:\n{fence}{language}\n{body}{fence}"


def _from_directory(path: Path, name: str, limits: AttachmentSettings) -> Part:
    """A directory's text files, in path order, as one part; hidden entries and version
    control or build folders are left out, as are binaries. Bounded by file count and
    total size: what is left out is said in the part, so the model knows it is partial."""
    files = sorted(_walk(path))
    texts: list[str] = []
    used = 0
    left_out = 0
    for file in files:
        if len(texts) >= limits.directory_files:
            left_out += 1
            continue
        shown = str(Path(name) / file.relative_to(path))
        try:
            data = _read_capped(file, limits.text_bytes)
        except OSError:
            continue
        text = _as_text(data)
        if text is None or image_info(data) is not None:
            continue
        if len(data) > limits.text_bytes or used + len(data) > limits.directory_bytes:
            left_out += 1
            continue
        used += len(data)
        texts.append(fenced(shown, text))
    if not texts:
        raise AttachmentError(f"cannot attach {name}: the directory holds no text files")
    header = f"Attached directory {name}: {len(texts)} files"
    if left_out:
        header += f" ({left_out} more left out: over the limit of the attachment)"
    return TextPart("\n\n".join([header, *texts]), "document")


def _walk(root: Path) -> Iterable[Path]:
    for here, dirs, names in os.walk(root):
        dirs[:] = [d for d in dirs if not d.startswith(".") and d not in _SKIPPED_DIRS]
        for entry in names:
            if not entry.startswith("."):
                yield Path(here) / entry


def _from_url(url: str, limits: AttachmentSettings) -> Part:
    """A URL's body, capped: read as text or as an image by its content type and bytes."""
    httpx = _httpx()
    try:
        with (
            httpx.Client(timeout=limits.url_timeout, follow_redirects=True) as client,
            client.stream("GET", url) as response,
        ):
            if response.status_code >= 400:
                raise AttachmentError(f"cannot attach {url}: HTTP {response.status_code}")
            cap = max(limits.url_bytes, 1)
            chunks: list[bytes] = []
            size = 0
            for chunk in response.iter_bytes():
                chunks.append(chunk)
                size += len(chunk)
                if size > cap:
                    raise AttachmentError(f"cannot attach {url}: it is over {cap:,} bytes")
            content_type = str(response.headers.get("content-type", ""))
    except AttachmentError:
        raise
    except Exception as exc:
        raise AttachmentError(f"cannot attach {url}: {type(exc).__name__}: {exc}") from None
    data = b"".join(chunks)
    part = _from_bytes(data, url, limits)
    if isinstance(part, TextPart) and content_type and not is_pdf(data):
        # The model is told what the server said the text is (HTML, JSON, plain...).
        named = f"{url} ({content_type.split(';')[0].strip()})"
        part = TextPart(fenced(named, _as_text(data) or ""), "document")
    return part


def _httpx() -> Any:
    # The HTTP client openai sends with: httpx2 for openai 3, httpx before it.
    try:
        return importlib.import_module("httpx2")
    except ImportError:
        return importlib.import_module("httpx")


def describe(parts: Sequence[Part]) -> list[str]:
    """What each attachment part is, a short line each (for "attached …" notes)."""
    lines = []
    for part in parts:
        if isinstance(part, ImagePart):
            lines.append(f"{part.name} (image {part.width}x{part.height})")
        elif isinstance(part, TextPart):
            first = part.text.split("\n", 1)[0]
            lines.append(first.removeprefix("Attached ").removesuffix(":"))
    return lines
