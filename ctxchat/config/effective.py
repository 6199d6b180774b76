"""The effective configuration, as the engine is built from it: the model, the agent,
the providers in order, and where each setting came from (`config.loading` makes it)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ctxchat.config.prices import Price
from ctxchat.config.projects import Project
from ctxchat.config.roles import Role
from ctxchat.core.settings import (
    AgentSettings,
    AttachmentSettings,
    EmbeddingSettings,
    ModelSettings,
    StorageSettings,
)


@dataclass(frozen=True)
class ProviderSpec:
    """One `[[providers]]` entry, before its type is looked up."""

    type: str
    source_id: str
    options: Mapping[str, Any] = field(default_factory=dict)
    where: str = "providers[?]"


@dataclass(frozen=True)
class Config:
    path: Path | None  # the file read, or None when running on built-in defaults
    model: ModelSettings
    agent: AgentSettings
    providers: tuple[ProviderSpec, ...]
    default_pipeline: bool  # True when the file lists no providers
    origins: Mapping[str, str] = field(default_factory=dict)  # model key -> file/env/flag
    storage: StorageSettings = field(default_factory=StorageSettings)
    embeddings: EmbeddingSettings = field(default_factory=EmbeddingSettings)
    agent_origins: Mapping[str, str] = field(default_factory=dict)  # agent key -> file/flag
    embeddings_origins: Mapping[str, str] = field(default_factory=dict)  # key -> "file"
    attachments: AttachmentSettings = field(default_factory=AttachmentSettings)
    roles: Mapping[str, Role] = field(default_factory=dict)  # [roles.NAME], by name
    project: Project | None = None  # the project the command runs in (`config.projects`)
    project_file: Path | None = None  # its .ctxchat.toml, when laid over this config
    notices: tuple[str, ...] = ()  # for the user: a project file left unread, and why
    prices: Mapping[str, Price] = field(default_factory=dict)  # [prices."MODEL"], by model
