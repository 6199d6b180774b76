"""ctxchat's own settings tables: `[model]` and `[agent]`."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from ctxchat.core.options import OptionValueError, option
from ctxchat.core.redact import InvalidHttpUrl, mask_url, parse_http_url

__all__ = ["AgentSettings", "ModelSettings", "StorageSettings", "mask_secret", "mask_url"]

OPENAI_BASE_URL = "https://api.openai.com/v1"
MIN_REPLY_BYTES = 1_000
DEFAULT_INSTRUCTIONS = (
    "You are a helpful assistant in a terminal chat. Answer concisely; use Markdown when it "
    "helps. Context blocks below come from the user's memory and tools: use them when relevant."
)


@dataclass(frozen=True)
class ModelSettings:
    model: str = option("gpt-4o-mini", help="model name as the endpoint knows it")
    base_url: str | None = option(
        None, help="OpenAI-compatible endpoint, e.g. http://localhost:11434/v1 for Ollama"
    )
    api_key: str | None = field(
        default=None,
        repr=False,
        metadata={"help": "API key; prefer the OPENAI_API_KEY environment variable"},
    )
    temperature: float | None = option(None, help="sampling temperature (endpoint default)")
    max_tokens: int | None = option(None, help="cap on tokens in each reply")
    timeout: float = option(120.0, help="seconds to wait for the endpoint")
    retries: int = option(2, help="retries on rate limits, timeouts and server errors")
    context_window: int = option(
        128_000, help="the model's context size in tokens (for the status line)"
    )
    embedding_model: str = option(
        "text-embedding-3-small", help="embedding model for providers that rank by meaning"
    )

    def __post_init__(self) -> None:
        if not self.model.strip():
            raise OptionValueError("model", "must name a model, e.g. gpt-4o-mini")
        if self.base_url is not None:
            check_base_url(self.base_url)
        if not 0 < self.timeout < math.inf:  # nan fails this too
            raise ValueError("timeout must be a positive number of seconds")
        if self.retries < 0:
            raise ValueError("retries must be 0 or more")
        if self.temperature is not None and not 0 <= self.temperature <= 2:  # nan too
            raise ValueError("temperature must be between 0 and 2")
        if self.max_tokens is not None and self.max_tokens <= 0:
            raise ValueError("max_tokens must be positive")

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
class StorageSettings:
    url: str | None = field(
        default=None,
        repr=False,  # it may carry a password
        metadata={
            "help": "the database every SQL-backed provider uses unless its own url says "
            "otherwise: a SQLAlchemy URL, e.g. postgresql+psycopg://user:pw@host/db "
            "(omitted = history.sqlite3 in the data dir)"
        },
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
