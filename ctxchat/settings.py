"""ctxchat's own settings tables: `[model]` and `[agent]`."""

from __future__ import annotations

from dataclasses import dataclass, field
from urllib.parse import urlsplit, urlunsplit

from ctxchat.options import option

OPENAI_BASE_URL = "https://api.openai.com/v1"
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
        if self.timeout <= 0:
            raise ValueError("timeout must be positive")
        if self.retries < 0:
            raise ValueError("retries must be 0 or more")
        if self.temperature is not None and not 0 <= self.temperature <= 2:
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

    def __post_init__(self) -> None:
        if self.max_tool_rounds < 1:
            raise ValueError("max_tool_rounds must be at least 1")
        if self.tool_timeout <= 0:
            raise ValueError("tool_timeout must be positive")


def mask_url(url: str) -> str:
    parts = urlsplit(url)
    if parts.password is None and parts.username is None:
        return url
    host = parts.hostname or ""
    if parts.port:
        host = f"{host}:{parts.port}"
    return urlunsplit((parts.scheme, f"***@{host}", parts.path, parts.query, parts.fragment))


def mask_secret(value: str | None) -> str:
    return "**** (set)" if value else "(not set)"
