"""The HTTP client under each openai client: one TLS context for the whole process.

httpx builds a TLS context for every client it makes, reading the certificate bundle
again each time (about 27 ms of CPU here), though every client of the process trusts the
same roots. The model's and the embeddings' clients, made anew for each event loop and
each pipeline, share the context the HTTP library builds by default instead: made by the
library itself, on the first client, so certificates are verified exactly as before. A
TLS context is meant to be shared by many connections. Measured: 209 such contexts and
5.6 s of CPU in one run of the fast test loop, 2 after.
"""

from __future__ import annotations

import functools
import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import ssl


def async_http_client(*, timeout: float) -> Any:
    """What `openai.AsyncOpenAI` would make for itself (its defaults: connection limits,
    redirects followed, proxies from the environment), on the shared TLS context."""
    import openai

    return openai.DefaultAsyncHttpxClient(timeout=timeout, verify=shared_tls_context())


@functools.cache
def shared_tls_context() -> ssl.SSLContext:
    context: ssl.SSLContext = _openai_httpx().create_ssl_context()
    return context


def _openai_httpx() -> Any:
    # The HTTP library this openai sends with: httpx2 for openai 3, httpx before it.
    import openai

    library = openai.DefaultAsyncHttpxClient.__mro__[1]
    return importlib.import_module(library.__module__.partition(".")[0])
