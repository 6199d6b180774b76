"""A PDF's text, page by page, for an attachment (`ctxchat.services.attachments`).

pypdf reads it: pure Python, no native code, kept up to date, and imported only when a PDF
is attached (about 0.1 s), so start-up never pays for it. It comes with `ctxchat[pdf]`;
without it, attaching a PDF is one line saying how to get it. A PDF without a text layer
(a scan, a picture) gives no text, and ctxchat does not read pictures of text: that too is
one line, rather than an empty attachment the model would answer about.
"""

from __future__ import annotations

import io
import logging
from dataclasses import dataclass

from ctxchat.core.errors import UsageError

PDF_MAGIC = b"%PDF-"


class PdfError(UsageError):
    """A PDF whose text cannot be had: unreadable, encrypted, without text, no reader."""


@dataclass(frozen=True)
class PdfText:
    text: str
    pages: int


def is_pdf(data: bytes) -> bool:
    return data.startswith(PDF_MAGIC)


def pdf_text(data: bytes) -> PdfText:
    """The text of every page, each after a "[page N]" line, so the model can say where
    it read something. Raises `PdfError` with the reason, to be put after the attachment's name."""
    try:
        from pypdf import PdfReader
        from pypdf.errors import PdfReadError
    except ImportError:
        raise PdfError("reading a PDF needs pypdf: pip install 'ctxchat[pdf]'") from None
    # pypdf warns of every oddity of a damaged file through logging; with no handler,
    # Python would print those on stderr, under the REPL's prompt.
    logging.getLogger("pypdf").addHandler(logging.NullHandler())
    logging.getLogger("pypdf").propagate = False
    try:
        reader = PdfReader(io.BytesIO(data))
        if reader.is_encrypted and not reader.decrypt(""):
            raise PdfError("it is an encrypted PDF")
        pages = [page.extract_text() or "" for page in reader.pages]
    except PdfError:
        raise
    except PdfReadError as exc:
        raise PdfError(f"the PDF cannot be read: {exc}") from None
    except Exception as exc:  # pypdf raises many kinds on a damaged file: one line each
        raise PdfError(f"the PDF cannot be read ({type(exc).__name__}: {exc})") from None
    if not any(page.strip() for page in pages):
        count = f"{len(pages)} page" + ("" if len(pages) == 1 else "s")
        raise PdfError(
            f"the PDF has no text layer ({count} of pictures, a scan perhaps); "
            "ctxchat reads a PDF's text, not its images"
        )
    text = "\n\n".join(f"[page {n}]\n{page.strip()}" for n, page in enumerate(pages, 1))
    return PdfText(text, len(pages))
