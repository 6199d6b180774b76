"""PDFs the tests write themselves: pages of text in the standard Helvetica font, laid out
by hand (objects, content streams, cross-reference table), so a test knows exactly what
text a PDF holds; and a page with a picture and no text, as a scan has."""

from __future__ import annotations

import zlib


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


def _document(objects: list[bytes]) -> bytes:
    """`objects` (numbered from 1, catalog first) as a PDF file with a correct xref."""
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    for offset in offsets:
        out += f"{offset:010d} 00000 n \n".encode()
    out += f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\n".encode()
    out += f"startxref\n{xref}\n%%EOF\n".encode()
    return bytes(out)


def _stream(data: bytes, extra: str = "") -> bytes:
    packed = zlib.compress(data)
    head = f"<< /Length {len(packed)} /Filter /FlateDecode {extra}>>\nstream\n".encode()
    return head + packed + b"\nendstream"


def text_pdf(pages: list[list[str]]) -> bytes:
    """A PDF whose page N shows the lines of `pages[N]`, top down."""
    count = len(pages)
    # 1 catalog, 2 page tree, 3 font, then per page: the page and its content stream.
    kids = " ".join(f"{4 + 2 * i} 0 R" for i in range(count))
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        f"<< /Type /Pages /Kids [{kids}] /Count {count} >>".encode(),
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    for i, lines in enumerate(pages):
        shown = " ".join(f"({_escape(line)}) Tj T*" for line in lines)
        content = f"BT /F1 12 Tf 14 TL 72 720 Td {shown} ET".encode()
        objects.append(
            f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] "
            f"/Resources << /Font << /F1 3 0 R >> >> /Contents {5 + 2 * i} 0 R >>".encode()
        )
        objects.append(_stream(content))
    return _document(objects)


def scanned_pdf() -> bytes:
    """One page holding only a grey picture: no text layer at all."""
    width = height = 8
    pixels = bytes([128]) * (width * height)
    image = _stream(
        pixels,
        f"/Type /XObject /Subtype /Image /Width {width} /Height {height} "
        "/ColorSpace /DeviceGray /BitsPerComponent 8 ",
    )
    content = _stream(b"q 400 0 0 400 100 200 cm /Im1 Do Q")
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] "
        b"/Resources << /XObject << /Im1 4 0 R >> >> /Contents 5 0 R >>",
        image,
        content,
    ]
    return _document(objects)
