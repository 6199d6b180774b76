"""A local HTTP server standing in for a model hub, for `ctxchat models pull` (these
machines reach no hub). It answers as the Hugging Face hub does: `/OWNER/REPO/resolve/main/
FILE` redirects to the file's blob with its size and SHA-256 in `X-Linked-Size` and
`X-Linked-Etag`; the blob honours `Range`. `cut_after` bytes, it can drop the connection
mid-file once, as a network does."""

from __future__ import annotations

import hashlib
import http.server
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class Hub:
    files: dict[str, Path]  # "owner/repo/FILE" -> the bytes to serve
    cut_after: int | None = None  # the next download stops after this many bytes
    wrong_sha256: bool = False  # the hub names a hash the bytes do not have
    ranges: list[str] = field(default_factory=list)  # the Range headers received
    base_url: str = ""


@contextmanager
def hub_server(files: dict[str, Path]) -> Iterator[Hub]:
    hub = Hub(files)

    class Handler(http.server.BaseHTTPRequestHandler):
        def log_message(self, *_args: object) -> None:
            pass

        def do_GET(self) -> None:
            path = self.path.lstrip("/")
            if "/resolve/main/" in path:
                owner_repo, file = path.split("/resolve/main/", 1)
                source = hub.files.get(f"{owner_repo}/{file}")
                if source is None:
                    self.send_error(404)
                    return
                digest = hashlib.sha256(source.read_bytes()).hexdigest()
                if hub.wrong_sha256:
                    digest = "0" * 64
                self.send_response(302)
                self.send_header("Location", f"/blobs/{owner_repo}/{file}")
                self.send_header("X-Linked-Size", str(source.stat().st_size))
                self.send_header("X-Linked-Etag", f'"{digest}"')
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            source = hub.files.get(path.removeprefix("blobs/"))
            if source is None:
                self.send_error(404)
                return
            self.blob(source)

        def blob(self, source: Path) -> None:
            data = source.read_bytes()
            start = 0
            wanted = self.headers.get("Range")
            if wanted:
                hub.ranges.append(wanted)
                start = int(wanted.removeprefix("bytes=").split("-")[0])
            if start >= len(data) and wanted:
                self.send_response(416)
                self.send_header("Content-Range", f"bytes */{len(data)}")
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            self.send_response(206 if wanted else 200)
            if wanted:
                self.send_header("Content-Range", f"bytes {start}-{len(data) - 1}/{len(data)}")
            self.send_header("Content-Length", str(len(data) - start))
            self.end_headers()
            body = data[start:]
            if hub.cut_after is not None:
                body, hub.cut_after = body[: hub.cut_after], None
                self.wfile.write(body)
                self.wfile.flush()
                self.close_connection = True
                return
            self.wfile.write(body)

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    hub.base_url = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield hub
    finally:
        server.shutdown()
        server.server_close()
