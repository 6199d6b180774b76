"""PDFs attached as their text (`ctxchat.services.pdf_text`), read from PDFs the tests
write themselves (tests/pdfkit.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from pdfkit import scanned_pdf, text_pdf

from ctxchat.core.messages import TextPart
from ctxchat.core.settings import AttachmentSettings
from ctxchat.services.attachments import AttachmentError, read_attachment


def test_a_pdf_is_attached_as_its_text_page_by_page(tmp_path: Path) -> None:
    pages = [["Quarterly report", "Revenue rose (a lot)."], ["Page two holds the costs."]]
    (tmp_path / "report.pdf").write_bytes(text_pdf(pages))

    (part,) = read_attachment("report.pdf", cwd=tmp_path)

    assert isinstance(part, TextPart)
    assert part.origin == "document"
    header, body = part.text.split("\n", 1)
    assert header == "Attached file report.pdf (PDF, 2 pages):"
    lines = [line for line in body.splitlines() if line.strip()]
    assert lines == [
        "```",
        "[page 1]",
        "Quarterly report",
        "Revenue rose (a lot).",
        "[page 2]",
        "Page two holds the costs.",
        "```",
    ]


def test_a_pdf_without_a_text_layer_is_one_clear_line(tmp_path: Path) -> None:
    (tmp_path / "scan.pdf").write_bytes(scanned_pdf())
    with pytest.raises(AttachmentError) as caught:
        read_attachment("scan.pdf", cwd=tmp_path)
    message = str(caught.value)
    assert "\n" not in message
    assert message.startswith(
        "cannot attach scan.pdf: the PDF has no text layer (1 page of pictures"
    )


def test_a_damaged_pdf_is_refused_by_name_in_one_line(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "paper.pdf").write_bytes(b"%PDF-1.7\n\x00\x01binary")
    with pytest.raises(AttachmentError, match=r"^cannot attach paper\.pdf: the PDF cannot be read"):
        read_attachment("paper.pdf", cwd=tmp_path)
    # pypdf's warnings about the damage are not printed under the user's prompt.
    assert capfd.readouterr().err == ""


def test_a_pdf_over_its_limits_is_refused(tmp_path: Path) -> None:
    data = text_pdf([["some words on a page"] * 40])
    (tmp_path / "long.pdf").write_bytes(data)
    with pytest.raises(AttachmentError, match=r"long\.pdf: the PDF is over 100 bytes"):
        read_attachment("long.pdf", cwd=tmp_path, limits=AttachmentSettings(pdf_bytes=100))
    with pytest.raises(AttachmentError, match=r"long\.pdf: its text is over 200 bytes"):
        read_attachment("long.pdf", cwd=tmp_path, limits=AttachmentSettings(text_bytes=200))
