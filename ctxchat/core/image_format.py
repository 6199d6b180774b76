"""Which image format a file's bytes are, and its size in pixels, read from its header.

Only the four formats the OpenAI API takes (PNG, JPEG, WebP, non-animated GIF) are known;
the size is what a provider bills an image by (`ctxchat.core.tokens.image_tokens`), so it
is read here from the header rather than by decoding the picture (no imaging library).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class ImageInfo:
    media_type: str
    width: int
    height: int


def image_info(data: bytes) -> ImageInfo | None:
    """The format and size of an image in a known format; None for anything else (or an
    image whose header is cut short)."""
    try:
        if data.startswith(b"\x89PNG\r\n\x1a\n") and data[12:16] == b"IHDR":
            return ImageInfo(
                "image/png", int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
            )
        if data[:6] in (b"GIF87a", b"GIF89a"):
            return ImageInfo(
                "image/gif",
                int.from_bytes(data[6:8], "little"),
                int.from_bytes(data[8:10], "little"),
            )
        if data.startswith(b"\xff\xd8\xff"):
            return _jpeg(data)
        if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
            return _webp(data)
    except IndexError:
        return None
    return None


# JPEG start-of-frame markers carry the size; C4 (Huffman tables), C8 and CC are not frames.
_SOF_MARKERS = frozenset(range(0xC0, 0xD0)) - {0xC4, 0xC8, 0xCC}


def _jpeg(data: bytes) -> ImageInfo | None:
    at = 2
    while at + 9 < len(data):
        if data[at] != 0xFF:
            return None
        marker = data[at + 1]
        if marker == 0xFF:  # fill byte
            at += 1
            continue
        length = int.from_bytes(data[at + 2 : at + 4], "big")
        if marker in _SOF_MARKERS:
            height = int.from_bytes(data[at + 5 : at + 7], "big")
            width = int.from_bytes(data[at + 7 : at + 9], "big")
            return ImageInfo("image/jpeg", width, height)
        at += 2 + length
    return None


def _webp(data: bytes) -> ImageInfo | None:
    chunk = data[12:16]
    if chunk == b"VP8 " and len(data) >= 30:
        width = int.from_bytes(data[26:28], "little") & 0x3FFF
        height = int.from_bytes(data[28:30], "little") & 0x3FFF
        return ImageInfo("image/webp", width, height)
    if chunk == b"VP8L" and len(data) >= 25:
        bits = int.from_bytes(data[21:25], "little")
        return ImageInfo("image/webp", (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1)
    if chunk == b"VP8X" and len(data) >= 30:
        width = int.from_bytes(data[24:27], "little") + 1
        height = int.from_bytes(data[27:30], "little") + 1
        return ImageInfo("image/webp", width, height)
    return None
