"""ctxchat: a terminal chat whose memory is a pipeline of context providers.

The names below are the API for writing providers and driving the engine from Python;
they stay importable from `ctxchat` whatever module holds them. Importing `ctxchat` costs
nothing: each name is loaded when first used.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

if TYPE_CHECKING:
    from ctxchat.agent import Agent, TurnFailed
    from ctxchat.commands import (
        Command,
        CommandContext,
        CommandResult,
        CommandSource,
        Note,
        Table,
    )
    from ctxchat.context import RunContext, RunResponse
    from ctxchat.errors import ConfigError, CtxchatError, StorageError
    from ctxchat.messages import Message, TextPart, ToolCallPart, ToolResultPart, Usage
    from ctxchat.model_client import OpenAIChatModel
    from ctxchat.model_types import (
        ChatModel,
        Event,
        Middleware,
        ModelReply,
        ModelRequest,
        ProviderNotice,
        ProviderWarning,
        TextDelta,
    )
    from ctxchat.options import NoOptions, option
    from ctxchat.provider import (
        AgentView,
        ContextProvider,
        HistoryOptions,
        HistoryProvider,
        ProviderEnv,
    )
    from ctxchat.session import Session
    from ctxchat.tools import Tool

_EXPORTS = {
    "Agent": "ctxchat.agent",
    "TurnFailed": "ctxchat.agent",
    "Command": "ctxchat.commands",
    "CommandContext": "ctxchat.commands",
    "CommandResult": "ctxchat.commands",
    "CommandSource": "ctxchat.commands",
    "Note": "ctxchat.commands",
    "Table": "ctxchat.commands",
    "RunContext": "ctxchat.context",
    "RunResponse": "ctxchat.context",
    "ConfigError": "ctxchat.errors",
    "CtxchatError": "ctxchat.errors",
    "StorageError": "ctxchat.errors",
    "Message": "ctxchat.messages",
    "TextPart": "ctxchat.messages",
    "ToolCallPart": "ctxchat.messages",
    "ToolResultPart": "ctxchat.messages",
    "Usage": "ctxchat.messages",
    "OpenAIChatModel": "ctxchat.model_client",
    "ChatModel": "ctxchat.model_types",
    "Event": "ctxchat.model_types",
    "Middleware": "ctxchat.model_types",
    "ModelReply": "ctxchat.model_types",
    "ModelRequest": "ctxchat.model_types",
    "ProviderNotice": "ctxchat.model_types",
    "ProviderWarning": "ctxchat.model_types",
    "TextDelta": "ctxchat.model_types",
    "NoOptions": "ctxchat.options",
    "option": "ctxchat.options",
    "AgentView": "ctxchat.provider",
    "ContextProvider": "ctxchat.provider",
    "HistoryOptions": "ctxchat.provider",
    "HistoryProvider": "ctxchat.provider",
    "ProviderEnv": "ctxchat.provider",
    "Session": "ctxchat.session",
    "Tool": "ctxchat.tools",
}
__all__ = [
    "Agent",
    "AgentView",
    "ChatModel",
    "Command",
    "CommandContext",
    "CommandResult",
    "CommandSource",
    "ConfigError",
    "ContextProvider",
    "CtxchatError",
    "Event",
    "HistoryOptions",
    "HistoryProvider",
    "Message",
    "Middleware",
    "ModelReply",
    "ModelRequest",
    "NoOptions",
    "Note",
    "OpenAIChatModel",
    "ProviderEnv",
    "ProviderNotice",
    "ProviderWarning",
    "RunContext",
    "RunResponse",
    "Session",
    "StorageError",
    "Table",
    "TextDelta",
    "TextPart",
    "Tool",
    "ToolCallPart",
    "ToolResultPart",
    "TurnFailed",
    "Usage",
    "__version__",
    "option",
]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'ctxchat' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)
