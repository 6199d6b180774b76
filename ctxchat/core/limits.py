"""How much one request to a model may hold: its context window, where that figure came
from, the room kept for the reply, and how tokens are counted for it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from ctxchat.core.tokens import count_text_tokens

WindowSource = Literal["config", "endpoint", "default"]
# Where a window's figure came from, in words for `/context` and `config show`.
WINDOW_ORIGINS: dict[WindowSource, str] = {
    "config": "[model] context_window",
    "endpoint": "reported by the endpoint",
    "default": "the default: the endpoint reports none",
}
# Without a window from the config or the endpoint: small enough for most local models.
DEFAULT_WINDOW = 8192
# The reply's room when max_tokens is not set: an eighth of the window, at most this.
DEFAULT_RESERVE = 2048
# An estimate (4 characters a token) may count short: it is scaled up by this much.
ESTIMATE_MARGIN = 1.2


@dataclass(frozen=True)
class ContextLimits:
    """How much a request to a model may hold, and how its tokens are counted."""

    window: int
    source: WindowSource = "default"
    reserve: int | None = None  # tokens kept for the reply; None: see `reply_room`
    # The model's own tokenizer (exact), or None: the local count with a margin.
    counter: Callable[[str], int] | None = None
    # The endpoint caps no reply of its own (llama.cpp's `n_predict` -1): a reply with no
    # max_tokens runs until the window is full, so the client sends `reply_room` as it.
    uncapped: bool = False
    # False where the endpoint says its model cannot take tools (llama.cpp's
    # `chat_template_caps.supports_tools`): none are sent, and none cost the window.
    takes_tools: bool = True
    # Tokens a request's chat template adds once, whatever it holds (the reply's header):
    # measured where the endpoint can say (llama.cpp's `/apply-template`), else none.
    prompt_overhead: int = 0

    @property
    def reply_room(self) -> int:
        if self.reserve is not None:
            return self.reserve
        return min(DEFAULT_RESERVE, self.window // 8)

    @property
    def room(self) -> int:
        """Tokens the request itself may take."""
        return max(0, self.window - self.reply_room - self.prompt_overhead)

    def count_text(self, text: str) -> int:
        if self.counter is not None:
            return self.counter(text)
        return int(count_text_tokens(text) * ESTIMATE_MARGIN + 0.999)
