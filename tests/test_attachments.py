"""Attachments read in process: image headers, the image token formula, `@path` rules,
fences, limits."""

from __future__ import annotations

import struct
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import ClassVar

import pytest
from pdfkit import text_pdf

from ctxchat.core.image_format import image_info
from ctxchat.core.messages import ImagePart, Message, TextPart
from ctxchat.core.settings import AttachmentSettings
from ctxchat.core.tokens import count_message_tokens, image_tokens
from ctxchat.services.attachments import AttachmentError, fenced, read_attachment
from ctxchat.services.compose import with_mentions
from ctxchat.services.mentions import find_mentions


def png(width: int, height: int) -> bytes:
    return b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + struct.pack(">II", width, height) + b"\x08\x02"


def jpeg(width: int, height: int) -> bytes:
    app0 = b"\xff\xe0" + struct.pack(">H", 16) + b"JFIF\x00" + b"\x00" * 9
    sof = b"\xff\xc0" + struct.pack(">HBHH", 17, 8, height, width) + b"\x03" + b"\x00" * 9
    return b"\xff\xd8" + app0 + sof


def webp_vp8x(width: int, height: int) -> bytes:
    body = b"WEBPVP8X" + struct.pack("<I", 10) + b"\x00\x00\x00\x00"
    body += (width - 1).to_bytes(3, "little") + (height - 1).to_bytes(3, "little")
    return b"RIFF" + struct.pack("<I", len(body)) + body


def webp_vp8l(width: int, height: int) -> bytes:
    bits = (width - 1) | ((height - 1) << 14)
    body = b"WEBPVP8L" + struct.pack("<I", 5) + b"\x2f" + struct.pack("<I", bits)
    return b"RIFF" + struct.pack("<I", len(body)) + body


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (png(640, 480), ("image/png", 640, 480)),
        (jpeg(1920, 1080), ("image/jpeg", 1920, 1080)),
        (b"GIF89a" + struct.pack("<HH", 32, 16) + b"\x00" * 8, ("image/gif", 32, 16)),
        (webp_vp8x(3000, 2000), ("image/webp", 3000, 2000)),
        (webp_vp8l(300, 200), ("image/webp", 300, 200)),
    ],
)
def test_image_headers_give_type_and_size(data: bytes, expected: tuple[str, int, int]) -> None:
    info = image_info(data)
    assert info is not None
    assert (info.media_type, info.width, info.height) == expected


def test_what_is_no_known_image_is_none() -> None:
    assert image_info(b"%PDF-1.7\n") is None
    assert image_info(b"\x89PNG\r\n\x1a\n") is None  # cut short
    assert image_info(b"") is None


@pytest.mark.parametrize(
    ("width", "height", "tokens"),
    # OpenAI's worked examples of its tile formula (high detail): 1024 x 1024 is scaled to
    # 768 x 768, four tiles; 2048 x 4096 to 1024 x 2048, then 768 x 1536, six tiles.
    [(1024, 1024, 765), (2048, 4096, 1105), (512, 512, 255), (100, 100, 255), (4096, 8192, 1105)],
)
def test_image_tokens_follow_the_documented_tile_formula(
    width: int, height: int, tokens: int
) -> None:
    assert image_tokens(width, height) == tokens


def test_the_budget_counts_an_image_part() -> None:
    text_only = Message("user", (TextPart("hi"),))
    with_image = Message("user", (TextPart("hi"), ImagePart("image/png", "AA==", "a", 1024, 1024)))
    assert count_message_tokens(with_image) - count_message_tokens(text_only) == 765


def test_mentions_only_word_initial_existing_files(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("x")
    (tmp_path / "dir").mkdir()
    found = find_mentions(
        "see @notes.txt. and @dir, not me@notes.txt nor @ghost; @@notes.txt", tmp_path
    )
    assert found.paths == ("notes.txt", "dir")
    assert found.text == "see @notes.txt. and @dir, not me@notes.txt nor @ghost; @notes.txt"


def test_mentions_in_a_paste_or_piped_text_attach_nothing(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("kept private")
    message = Message(
        "user", (TextPart("typed @notes.txt", "typed"), TextPart("@notes.txt", "pasted"))
    )
    piped = Message.user("@notes.txt", origin="stdin")

    attached = with_mentions(message, tmp_path)

    assert [p.text for p in attached.parts if isinstance(p, TextPart)] == [
        "typed @notes.txt",
        "@notes.txt",
        "Attached file notes.txt:\n```\nkept private\n```",
    ]
    assert with_mentions(piped, tmp_path).parts == piped.parts


def test_an_attachment_is_a_document_memory_does_not_learn_from(tmp_path: Path) -> None:
    (tmp_path / "me.txt").write_text("my name is Zed")
    (part,) = read_attachment("me.txt", cwd=tmp_path)
    message = Message("user", (TextPart("hello", "typed"), part))
    assert message.text_from(frozenset({"typed", "argument", "stdin"})) == "hello"


def test_a_fence_is_longer_than_any_backtick_run_inside() -> None:
    assert fenced("x.md", "a ````` b") == "Attached file x.md:\n``````markdown\na ````` b\n``````"


def test_limits_refuse_a_file_over_them_by_name(tmp_path: Path) -> None:
    (tmp_path / "big.txt").write_text("a" * 101)
    (tmp_path / "big.png").write_bytes(png(10, 10) + b"\x00" * 100)
    limits = AttachmentSettings(text_bytes=100, image_bytes=100)
    with pytest.raises(AttachmentError, match=r"big\.txt.*over 100 bytes"):
        read_attachment("big.txt", cwd=tmp_path, limits=limits)
    with pytest.raises(AttachmentError, match=r"big\.png.*image is over 100 bytes"):
        read_attachment("big.png", cwd=tmp_path, limits=limits)


def test_a_directory_says_what_it_left_out(tmp_path: Path) -> None:
    for index in range(5):
        (tmp_path / f"f{index}.txt").write_text(str(index))
    (part,) = read_attachment(".", cwd=tmp_path, limits=AttachmentSettings(directory_files=3))
    assert isinstance(part, TextPart)
    assert part.text.startswith("Attached directory .: 3 files (2 more left out")
    assert "f2.txt" in part.text
    assert "f3.txt" not in part.text


class _Files(BaseHTTPRequestHandler):
    routes: ClassVar[dict[str, tuple[str, bytes]]] = {}

    def do_GET(self) -> None:
        found = self.routes.get(self.path)
        if found is None:
            self.send_error(404)
            return
        content_type, body = found
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture
def web() -> Iterator[str]:
    _Files.routes = {
        "/notes.txt": ("text/plain; charset=utf-8", b"from the web\n"),
        "/pic.png": ("image/png", png(20, 10)),
        "/big.txt": ("text/plain", b"x" * 5000),
        "/paper.pdf": ("application/pdf", text_pdf([["fetched from the web"]])),
    }
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Files)
    # Polled every 10 ms, so that shutdown() returns at once (at 0.5 s, the default, each
    # test's teardown waited up to half a second for the loop to look).
    thread = threading.Thread(
        target=server.serve_forever, kwargs={"poll_interval": 0.01}, daemon=True
    )
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def test_a_url_is_fetched_as_text_or_image(web: str) -> None:
    (text,) = read_attachment(f"{web}/notes.txt")
    (image,) = read_attachment(f"{web}/pic.png")
    assert text == TextPart(
        f"Attached file {web}/notes.txt (text/plain):\n```\nfrom the web\n```", "document"
    )
    assert isinstance(image, ImagePart)
    assert (image.media_type, image.width, image.height) == ("image/png", 20, 10)


def test_a_url_over_its_cap_or_failing_is_refused(web: str) -> None:
    with pytest.raises(AttachmentError, match=r"big\.txt: it is over 1,000 bytes"):
        read_attachment(f"{web}/big.txt", limits=AttachmentSettings(url_bytes=1000))
    with pytest.raises(AttachmentError, match=r"missing: HTTP 404"):
        read_attachment(f"{web}/missing")


def test_a_pdf_url_is_read_as_its_text(web: str) -> None:
    (pdf,) = read_attachment(f"{web}/paper.pdf")
    assert isinstance(pdf, TextPart)
    assert pdf.text.startswith(f"Attached file {web}/paper.pdf (PDF, 1 page):\n")
    assert "fetched from the web" in pdf.text
