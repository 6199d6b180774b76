"""What a failed request to an OpenAI-compatible endpoint means, said in one line: a key
refused, a model not found, a host that does not resolve, a request longer than the
model takes, a stream cut mid-way, a model that takes no images. Never the key, even when
the server quotes it back."""

from __future__ import annotations

from typing import Any

from ctxchat.core.errors import ContextOverflow, ModelError
from ctxchat.core.redact import scrub_secrets
from ctxchat.core.settings import OPENAI_BASE_URL, ModelSettings


def failure(
    exc: Exception, settings: ModelSettings, model: str, *, streaming: bool = False
) -> ModelError:
    """One clear line for each way the endpoint can fail; never the key, even when the
    server quotes it back in its own message."""
    described = _describe(exc, settings, model, streaming=streaming)
    text = described.message
    key = settings.api_key
    # The same class (a ContextOverflow stays one: the engine adds what was sent).
    return type(described)(scrub_secrets(text.replace(key, "***") if key else text))


def image_refusal(exc: Exception, settings: ModelSettings, model: str) -> ModelError:
    """A model that takes no images, told in one line (its server's words after)."""
    said = error_detail(exc)
    key = settings.api_key
    said = scrub_secrets(said.replace(key, "***") if key else said)
    return ModelError(
        f"model '{model}' at {settings.endpoint} does not take images{said}; "
        "nothing was sent or kept: send it without the image, or choose a model that "
        "reads images"
    )


def _describe(
    exc: Exception, settings: ModelSettings, model: str, *, streaming: bool
) -> ModelError:
    import openai

    where = settings.endpoint
    if _says_too_long(exc):
        return ContextOverflow(f"{where} refused the request: it is longer than the model takes")
    if streaming and not isinstance(exc, openai.APITimeoutError):
        # The connection was up and the reply had begun: whatever broke, broke mid-way.
        return ModelError(f"the reply stream from {where} was cut mid-way")
    retries = settings.retries
    if isinstance(exc, openai.AuthenticationError | openai.PermissionDeniedError):
        return ModelError(
            f"authentication failed at {where} (HTTP {exc.status_code}): "
            "set a valid key in OPENAI_API_KEY (or [model] api_key)"
        )
    if isinstance(exc, openai.NotFoundError):
        return ModelError(
            f"model '{model}' not found at {where} (HTTP 404): check [model] model, and "
            "that base_url ends with the API path, e.g. /v1"
        )
    if isinstance(exc, openai.RateLimitError):
        return ModelError(f"rate limited by {where} after {retries} retries (HTTP 429)")
    if isinstance(exc, openai.APITimeoutError):
        # A stream that stalls is not retried; a request that never answers is, so the
        # user waited the timeout once per attempt.
        attempts = 1 if streaming else retries + 1
        tried = f"{attempts} attempts; " if attempts > 1 else ""
        return ModelError(
            f"no reply from {where} within {settings.timeout:g}s "
            f"({tried}raise [model] timeout to wait longer)"
        )
    if isinstance(exc, openai.APIConnectionError):
        host = _unresolved_host(exc, settings)
        if host is not None:
            return ModelError(
                f"cannot reach {where}: the host '{host}' could not be resolved "
                "(check the host name in base_url, and the network)"
            )
        return ModelError(f"cannot reach {where}: is the server running?")
    if isinstance(exc, openai.APIStatusError):
        detail = error_detail(exc)
        kind = "server error" if exc.status_code >= 500 else "request rejected"
        return ModelError(f"{kind} from {where} (HTTP {exc.status_code}){detail}")
    if isinstance(exc, openai.APIError):
        return ModelError(f"the endpoint {where} failed: {exc.message}")
    return ModelError(f"unexpected failure talking to {where}: {type(exc).__name__}: {exc}")


# How servers say a request was too long: OpenAI's error code, and the words of OpenAI,
# vLLM and llama.cpp (whose stream ends on "...exceeds the available context size...").
_TOO_LONG = (
    "context_length_exceeded",
    "context length",
    "maximum context",
    "context window",
    "context size",
    "too many tokens",
    "exceed_context_size",
)


def _says_too_long(exc: Exception) -> bool:
    body = getattr(exc, "body", None)
    code = body.get("code") if isinstance(body, dict) else None
    inner = body.get("error") if isinstance(body, dict) else None
    if isinstance(inner, dict):
        code = code or inner.get("code")
    text = f"{code or ''} {getattr(exc, 'message', '')} {exc}".lower()
    return any(words in text for words in _TOO_LONG)


def _unresolved_host(exc: BaseException, settings: ModelSettings) -> str | None:
    """The endpoint's host name when the connection failed because it does not resolve
    (a typo, or no DNS): a server that is not running is a different fix."""
    import socket
    from urllib.parse import urlsplit

    seen: set[int] = set()
    cause: BaseException | None = exc
    while cause is not None and id(cause) not in seen:
        if isinstance(cause, socket.gaierror):
            return urlsplit(settings.base_url or OPENAI_BASE_URL).hostname or "?"
        seen.add(id(cause))
        cause = cause.__cause__ or cause.__context__
    return None


def refuses_images(exc: Exception) -> bool:
    """Whether a rejected request was rejected for its images: OpenAI's "image_url is
    only supported by certain models", llama.cpp's "image input is not supported"."""
    import openai

    if not isinstance(exc, openai.APIStatusError) or exc.status_code in (401, 403, 404, 429):
        return False
    said = error_detail(exc).lower()
    return "image" in said and ("support" in said or "vision" in said or "multimodal" in said)


def error_detail(exc: Any) -> str:
    body = getattr(exc, "body", None)
    message = None
    if isinstance(body, dict):
        inner = body.get("error", body)
        message = inner.get("message") if isinstance(inner, dict) else None
    if not message:
        return ""
    message = " ".join(str(message).split())
    return f": {message[:200]}"
