"""ctxchat's own settings tables: `[model]`, `[agent]`, `[embeddings]`, `[storage]`,
`[attachments]`."""

from __future__ import annotations

import math
from dataclasses import dataclass
from urllib.parse import urlsplit

from ctxchat.core.options import OptionValueError, option
from ctxchat.core.redact import InvalidHttpUrl, mask_url, parse_http_url

__all__ = [
    "AgentSettings",
    "AttachmentSettings",
    "EmbeddingSettings",
    "ModelSettings",
    "StorageSettings",
    "mask_secret",
]

OPENAI_BASE_URL = "https://api.openai.com/v1"
OPENAI_HOST = "api.openai.com"
# The model used when none is named, on OpenAI's own endpoint only: any other endpoint is
# asked which models it serves (see `ctxchat.services.model_discovery`).
OPENAI_DEFAULT_MODEL = "gpt-4o-mini"
MIN_REPLY_BYTES = 1_000
POOLINGS = ("mean", "cls", "last")  # llama.cpp's, for an embedding GGUF
DEFAULT_INSTRUCTIONS = (
    "You are a helpful assistant in a terminal chat. Answer concisely; use Markdown when it "
    "helps. Context blocks below come from the user's memory and tools: use them when relevant."
)


@dataclass(frozen=True)
class ModelSettings:
    model: str | None = option(
        None,
        help="model name as the endpoint knows it (unset: gpt-4o-mini on OpenAI; on another "
        "endpoint, the one model its /v1/models lists)",
    )
    base_url: str | None = option(
        None, help="OpenAI-compatible endpoint, e.g. http://localhost:11434/v1 for Ollama"
    )
    path: str | None = option(
        None,
        help="a GGUF model file run on this machine by llama.cpp (the `local` extra); "
        "`--model FILE.gguf` does the same",
    )
    api_key: str | None = option(
        None,
        secret=True,
        help="API key; prefer the OPENAI_API_KEY environment variable",
    )
    temperature: float | None = option(None, help="sampling temperature (endpoint default)")
    max_tokens: int | None = option(None, help="cap on tokens in each reply")
    timeout: float = option(120.0, help="seconds to wait for the endpoint")
    read_timeout: float = option(
        60.0, help="seconds a reply under way may send nothing before it is a timeout"
    )
    retries: int = option(2, help="retries on rate limits, timeouts and server errors")
    context_window: int | None = option(
        None,
        help="the model's context size in tokens (omitted = what the endpoint reports, "
        "else 8192); every request is fitted to it",
    )

    def __post_init__(self) -> None:
        if self.model is not None and not self.model.strip():
            raise OptionValueError("model", "must name a model, e.g. gpt-4o-mini")
        if self.base_url is not None:
            check_base_url(self.base_url)
        if self.path is not None and not self.path.strip():
            raise OptionValueError("path", "must name a GGUF file, e.g. ./model.gguf")
        if not 0 < self.timeout < math.inf:  # nan fails this too
            raise ValueError("timeout must be a positive number of seconds")
        if not 0 < self.read_timeout < math.inf:
            raise ValueError("read_timeout must be a positive number of seconds")
        if self.retries < 0:
            raise ValueError("retries must be 0 or more")
        if self.temperature is not None and not 0 <= self.temperature <= 2:  # nan too
            raise ValueError("temperature must be between 0 and 2")
        if self.max_tokens is not None and self.max_tokens <= 0:
            raise ValueError("max_tokens must be positive")
        if self.context_window is not None and self.context_window < 256:
            raise OptionValueError("context_window", "must be at least 256 tokens")

    @property
    def on_openai(self) -> bool:
        """Whether the endpoint is OpenAI's own (no base_url, or one on its host)."""
        return self.base_url is None or urlsplit(self.base_url).hostname == OPENAI_HOST

    @property
    def model_name(self) -> str:
        """The model to ask for: the one named, else OpenAI's default on OpenAI; "" when
        the endpoint must first be asked which models it serves."""
        if self.model is not None:
            return self.model
        return OPENAI_DEFAULT_MODEL if self.on_openai else ""

    @property
    def endpoint(self) -> str:
        """The base URL for display: credentials in it are masked."""
        return mask_url(self.base_url or OPENAI_BASE_URL)


@dataclass(frozen=True)
class AgentSettings:
    instructions: str = option(DEFAULT_INSTRUCTIONS, help="the system prompt")
    max_tool_rounds: int = option(8, help="model calls allowed per turn when tools are used")
    tool_timeout: float = option(30.0, help="seconds a tool call may take")
    max_reply_bytes: int = option(
        200_000,
        help="largest reply kept in the history and the audit, in bytes; a longer one is "
        "shown whole but kept cut, with a note saying so",
    )

    def __post_init__(self) -> None:
        if self.max_tool_rounds < 1:
            raise ValueError("max_tool_rounds must be at least 1")
        if self.max_reply_bytes < MIN_REPLY_BYTES:
            raise OptionValueError("max_reply_bytes", f"must be at least {MIN_REPLY_BYTES:,}")
        if not 0 < self.tool_timeout < math.inf:  # nan fails this too
            raise ValueError("tool_timeout must be a positive number of seconds")


@dataclass(frozen=True)
class EmbeddingSettings:
    """The embeddings endpoint (the tool selector ranks tools by meaning through it)."""

    base_url: str | None = option(
        None, help="OpenAI-compatible endpoint for embeddings (omitted = the chat endpoint)"
    )
    api_key_env: str | None = option(
        None, help="environment variable holding its API key (omitted = the chat key)"
    )
    model: str = option("text-embedding-3-small", help="embedding model name")
    dimensions: int | None = option(None, help="vector size, for models that can shorten")
    path: str | None = option(
        None,
        help="an embedding GGUF file run on this machine by a llama.cpp server of its own "
        "(the `local` extra); its name is the model's",
    )
    pooling: str | None = option(
        None,
        help="how that file's token vectors make one: mean, cls or last (omitted = what "
        "the file says)",
    )

    def __post_init__(self) -> None:
        if self.base_url is not None:
            check_base_url(self.base_url)
        if self.path is not None and not self.path.strip():
            raise OptionValueError("path", "must name a GGUF file, e.g. ./bge-small.gguf")
        if self.path is not None and self.base_url is not None:
            raise OptionValueError("path", "and base_url name two endpoints: set one")
        if self.pooling is not None and self.pooling not in POOLINGS:
            raise OptionValueError("pooling", f"must be one of {', '.join(POOLINGS)}")
        if not self.model.strip():
            raise OptionValueError("model", "must name an embedding model")
        if self.dimensions is not None and self.dimensions < 1:
            raise OptionValueError("dimensions", "must be at least 1")


@dataclass(frozen=True)
class AttachmentSettings:
    """How much one attachment may hold. A file over its limit is refused, not cut: a
    model answering about half a file would not say so."""

    text_bytes: int = option(1_000_000, help="largest text file attached, in bytes")
    image_bytes: int = option(20_000_000, help="largest image attached, in bytes")
    pdf_bytes: int = option(
        20_000_000, help="largest PDF attached, in bytes (its text: text_bytes)"
    )
    directory_files: int = option(50, help="most files a directory attaches (the rest named)")
    directory_bytes: int = option(2_000_000, help="most bytes a directory attaches in all")
    url_bytes: int = option(5_000_000, help="largest body fetched for a URL, in bytes")
    url_timeout: float = option(30.0, help="seconds a URL may take to fetch")

    def __post_init__(self) -> None:
        for name in (
            "text_bytes",
            "image_bytes",
            "pdf_bytes",
            "directory_files",
            "directory_bytes",
        ):
            if getattr(self, name) < 1:
                raise OptionValueError(name, "must be at least 1")
        if self.url_bytes < 1:
            raise OptionValueError("url_bytes", "must be at least 1")
        if not 0 < self.url_timeout < math.inf:
            raise OptionValueError("url_timeout", "must be a positive number of seconds")


@dataclass(frozen=True)
class StorageSettings:
    url: str | None = option(
        None,
        secret=True,  # it may carry a password
        help="the database every SQL-backed provider uses unless its own url says "
        "otherwise: a SQLAlchemy URL, e.g. postgresql+psycopg://user:pw@host/db "
        "(omitted = history.sqlite3 in the data dir)",
    )


def check_base_url(url: str) -> None:
    """An http(s) URL with a host and no credentials, or `OptionValueError` saying what is
    wrong. Checked when the config loads, so a typo is a config error, not a connection
    failure per turn."""
    example = "e.g. http://localhost:11434/v1"
    shown = mask_url(url)
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - parsing the port is what validates it
    except ValueError as exc:
        raise OptionValueError("base_url", f"'{shown}' is not a valid URL ({exc})") from None
    if parts.scheme.lower() not in ("http", "https"):
        what = f"its scheme is '{parts.scheme}'" if "://" in url else "it has no scheme"
        raise OptionValueError(
            "base_url", f"'{shown}' is not an http:// or https:// URL ({what}; {example})"
        )
    if not parts.hostname:
        raise OptionValueError("base_url", f"'{shown}' names no host ({example})")
    # The client sends whatever user and password the URL holds as Basic auth, instead of
    # the bearer key: judged as httpx, which sends the requests, reads the URL.
    try:
        userinfo = parse_http_url(url).userinfo
    except InvalidHttpUrl as exc:
        raise OptionValueError("base_url", f"'{shown}' is not a valid URL ({exc})") from None
    if userinfo:
        raise OptionValueError(
            "base_url",
            f"'{shown}' holds a user name or password: the endpoint's key goes in "
            "OPENAI_API_KEY (or [model] api_key), not in the URL",
        )


def mask_secret(value: str | None) -> str:
    return "**** (set)" if value else "(not set)"
