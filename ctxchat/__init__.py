"""ctxchat: a terminal chat whose memory is a pipeline of context providers.

The names below are the API for writing providers and driving the engine from Python;
they stay importable from `ctxchat` whatever module holds them. Importing `ctxchat` costs
nothing: each name is loaded when first used.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ctxchat.core.lazy import load_export

__version__ = "0.1.0"

if TYPE_CHECKING:
    from ctxchat.core.agent import Agent, TurnFailed
    from ctxchat.core.capabilities import (
        AuditSource,
        ChecksReach,
        Closes,
        CommandSource,
        EmbeddableHistory,
        ForgetSource,
        ForgetsSessions,
        ForgottenSources,
        ForksSessions,
        ImportableHistory,
        InDatabase,
        KeepsSessionData,
        MemorySource,
        RecordsMissedTurns,
        SearchableHistory,
        StoresOutsideSession,
        ToolChooser,
        ToolSource,
        UndoesTurns,
        UsageLedger,
        ValueForgetter,
    )
    from ctxchat.core.commands import (
        Cell,
        Command,
        CommandContext,
        CommandResult,
        CommandView,
        Gauge,
        Marked,
        Note,
        Table,
    )
    from ctxchat.core.context import RunContext, RunResponse
    from ctxchat.core.errors import ConfigError, CtxchatError, ModelError, StorageError, UsageError
    from ctxchat.core.limits import ContextLimits
    from ctxchat.core.messages import (
        Message,
        MessageFormatError,
        ReasoningPart,
        TextPart,
        ToolCallPart,
        ToolResultPart,
        Usage,
    )
    from ctxchat.core.model_types import (
        ChatModel,
        Event,
        EventSink,
        Middleware,
        ModelReply,
        ModelRequest,
        ProviderNotice,
        ProviderWarning,
        ReasoningDelta,
        TextDelta,
        ToolCall,
    )
    from ctxchat.core.options import NoOptions, OptionValueError, option
    from ctxchat.core.provider import (
        AgentView,
        ContextProvider,
        HistoryOptions,
        HistoryProvider,
        ProviderEnv,
    )
    from ctxchat.core.session import Session
    from ctxchat.core.tools import Tool
    from ctxchat.services.model_client import OpenAIChatModel

_EXPORTS = {
    "ContextLimits": "ctxchat.core.limits",
    "EventSink": "ctxchat.core.model_types",
    "MessageFormatError": "ctxchat.core.messages",
    "ModelError": "ctxchat.core.errors",
    "OptionValueError": "ctxchat.core.options",
    "ToolCall": "ctxchat.core.model_types",
    "UsageError": "ctxchat.core.errors",
    "Agent": "ctxchat.core.agent",
    "TurnFailed": "ctxchat.core.agent",
    "Cell": "ctxchat.core.commands",
    "Command": "ctxchat.core.commands",
    "CommandContext": "ctxchat.core.commands",
    "CommandResult": "ctxchat.core.commands",
    "CommandView": "ctxchat.core.commands",
    "Gauge": "ctxchat.core.commands",
    "Marked": "ctxchat.core.commands",
    "Note": "ctxchat.core.commands",
    "Table": "ctxchat.core.commands",
    "CommandSource": "ctxchat.core.capabilities",
    "AuditSource": "ctxchat.core.capabilities",
    "UndoesTurns": "ctxchat.core.capabilities",
    "ChecksReach": "ctxchat.core.capabilities",
    "Closes": "ctxchat.core.capabilities",
    "ForgetsSessions": "ctxchat.core.capabilities",
    "ForksSessions": "ctxchat.core.capabilities",
    "KeepsSessionData": "ctxchat.core.capabilities",
    "RecordsMissedTurns": "ctxchat.core.capabilities",
    "StoresOutsideSession": "ctxchat.core.capabilities",
    "EmbeddableHistory": "ctxchat.core.capabilities",
    "ForgetSource": "ctxchat.core.capabilities",
    "ForgottenSources": "ctxchat.core.capabilities",
    "ImportableHistory": "ctxchat.core.capabilities",
    "InDatabase": "ctxchat.core.capabilities",
    "MemorySource": "ctxchat.core.capabilities",
    "SearchableHistory": "ctxchat.core.capabilities",
    "ToolChooser": "ctxchat.core.capabilities",
    "ToolSource": "ctxchat.core.capabilities",
    "UsageLedger": "ctxchat.core.capabilities",
    "ValueForgetter": "ctxchat.core.capabilities",
    "RunContext": "ctxchat.core.context",
    "RunResponse": "ctxchat.core.context",
    "ConfigError": "ctxchat.core.errors",
    "CtxchatError": "ctxchat.core.errors",
    "StorageError": "ctxchat.core.errors",
    "Message": "ctxchat.core.messages",
    "ReasoningPart": "ctxchat.core.messages",
    "TextPart": "ctxchat.core.messages",
    "ToolCallPart": "ctxchat.core.messages",
    "ToolResultPart": "ctxchat.core.messages",
    "Usage": "ctxchat.core.messages",
    "OpenAIChatModel": "ctxchat.services.model_client",
    "ChatModel": "ctxchat.core.model_types",
    "Event": "ctxchat.core.model_types",
    "Middleware": "ctxchat.core.model_types",
    "ModelReply": "ctxchat.core.model_types",
    "ModelRequest": "ctxchat.core.model_types",
    "ProviderNotice": "ctxchat.core.model_types",
    "ProviderWarning": "ctxchat.core.model_types",
    "ReasoningDelta": "ctxchat.core.model_types",
    "TextDelta": "ctxchat.core.model_types",
    "NoOptions": "ctxchat.core.options",
    "option": "ctxchat.core.options",
    "AgentView": "ctxchat.core.provider",
    "ContextProvider": "ctxchat.core.provider",
    "HistoryOptions": "ctxchat.core.provider",
    "HistoryProvider": "ctxchat.core.provider",
    "ProviderEnv": "ctxchat.core.provider",
    "Session": "ctxchat.core.session",
    "Tool": "ctxchat.core.tools",
}
__all__ = [
    "Agent",
    "AgentView",
    "AuditSource",
    "Cell",
    "ChatModel",
    "ChecksReach",
    "Closes",
    "Command",
    "CommandContext",
    "CommandResult",
    "CommandSource",
    "CommandView",
    "ConfigError",
    "ContextLimits",
    "ContextProvider",
    "CtxchatError",
    "EmbeddableHistory",
    "Event",
    "EventSink",
    "ForgetSource",
    "ForgetsSessions",
    "ForgottenSources",
    "ForksSessions",
    "Gauge",
    "HistoryOptions",
    "HistoryProvider",
    "ImportableHistory",
    "InDatabase",
    "KeepsSessionData",
    "Marked",
    "MemorySource",
    "Message",
    "MessageFormatError",
    "Middleware",
    "ModelError",
    "ModelReply",
    "ModelRequest",
    "NoOptions",
    "Note",
    "OpenAIChatModel",
    "OptionValueError",
    "ProviderEnv",
    "ProviderNotice",
    "ProviderWarning",
    "ReasoningDelta",
    "ReasoningPart",
    "RecordsMissedTurns",
    "RunContext",
    "RunResponse",
    "SearchableHistory",
    "Session",
    "StorageError",
    "StoresOutsideSession",
    "Table",
    "TextDelta",
    "TextPart",
    "Tool",
    "ToolCall",
    "ToolCallPart",
    "ToolChooser",
    "ToolResultPart",
    "ToolSource",
    "TurnFailed",
    "UndoesTurns",
    "Usage",
    "UsageError",
    "UsageLedger",
    "ValueForgetter",
    "__version__",
    "option",
]


def __getattr__(name: str) -> Any:
    return load_export(__name__, _EXPORTS, globals(), name)


def __dir__() -> list[str]:
    return sorted(__all__)
