"""An https endpoint's certificate is verified, through the TLS context every client of
the process shares (`ctxchat/services/http_client.py`): a certificate no one trusts is
refused in the handshake, and the same one trusted through SSL_CERT_FILE, which the HTTP
library reads for its default context, is taken."""

from __future__ import annotations

import asyncio
import queue
import shutil
import socket
import ssl
import subprocess
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from ctxchat.core.settings import ModelSettings
from ctxchat.services.http_client import shared_tls_context
from ctxchat.services.model_client import OpenAIChatModel


@dataclass
class TlsServer:
    url: str
    certificate: Path
    handshakes: queue.Queue[str]  # "taken" or "refused", one per connection


def self_signed(folder: Path) -> tuple[Path, Path]:
    openssl = shutil.which("openssl")
    if openssl is None:
        pytest.skip("openssl is not installed: no certificate to serve")
    cert, key = folder / "cert.pem", folder / "key.pem"
    key_type = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
    name = ["-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"]
    files = ["-keyout", str(key), "-out", str(cert)]
    subprocess.run(
        [openssl, "req", "-x509", "-days", "1", *key_type, *name, *files],
        check=True,
        capture_output=True,
    )
    return cert, key


@pytest.fixture
def tls_server(tmp_path: Path) -> Iterator[TlsServer]:
    """Answers each connection's handshake with a self-signed certificate, then closes it."""
    cert, key = self_signed(tmp_path)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    listener = socket.create_server(("127.0.0.1", 0))
    handshakes: queue.Queue[str] = queue.Queue()

    def serve() -> None:
        while True:
            try:
                conn, _ = listener.accept()
            except OSError:  # the listener closed: the test is over
                return
            try:
                with context.wrap_socket(conn, server_side=True) as tls:
                    handshakes.put("taken")
                    tls.recv(65536)
            except (ssl.SSLError, OSError):
                handshakes.put("refused")
            finally:
                conn.close()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield TlsServer(f"https://127.0.0.1:{listener.getsockname()[1]}/v1", cert, handshakes)
    finally:
        listener.shutdown(socket.SHUT_RDWR)  # wakes the accept() under way (close alone does not)
        listener.close()
        thread.join(timeout=10)
        shared_tls_context.cache_clear()  # the next test's clients read the real trust again


def ask(url: str) -> None:
    """One request through the model's own client (the window probe before a turn goes
    through urllib, not this client)."""
    import openai

    async def request() -> None:
        model = OpenAIChatModel(ModelSettings(model="m", base_url=url, retries=0))
        with pytest.raises(openai.APIConnectionError):
            await model.client().models.list()

    asyncio.run(request())


def test_an_untrusted_certificate_is_refused(tls_server: TlsServer) -> None:
    shared_tls_context.cache_clear()
    ask(tls_server.url)
    assert tls_server.handshakes.get(timeout=30) == "refused"


def test_a_certificate_trusted_by_ssl_cert_file_is_taken(
    tls_server: TlsServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SSL_CERT_FILE", str(tls_server.certificate))
    shared_tls_context.cache_clear()
    ask(tls_server.url)  # the server closes without a reply, after the handshake
    assert tls_server.handshakes.get(timeout=30) == "taken"
