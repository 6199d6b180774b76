"""Secret options are declared one way, `option(secret=True)`: a key, and every database URL
(it may carry a password), of ctxchat's own tables and of every installed provider. Such a
value never shows in the options' repr, so a log line or traceback of them cannot leak it."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from ctxchat.core.redact import is_secret_name
from ctxchat.core.registry import load_provider_class, provider_entry_points
from ctxchat.core.settings import AgentSettings, EmbeddingSettings, ModelSettings, StorageSettings

SECRET = "pw-7f3a9c"


def options_classes() -> list[type[Any]]:
    own: list[type[Any]] = [AgentSettings, EmbeddingSettings, ModelSettings, StorageSettings]
    return own + [load_provider_class(name).Options for name in provider_entry_points()]


def must_be_secret(f: dataclasses.Field[Any]) -> bool:
    """A key or a database URL; `api_key_env` names a variable, it holds no secret."""
    return f.name == "url" or (is_secret_name(f.name) and not f.name.endswith("_env"))


@pytest.mark.parametrize("cls", options_classes(), ids=lambda c: c.__qualname__)
def test_keys_and_database_urls_are_declared_secret(cls: type[Any]) -> None:
    undeclared = [
        f.name
        for f in dataclasses.fields(cls)
        if must_be_secret(f) and not f.metadata.get("secret")
    ]
    assert undeclared == []


def test_a_secret_option_is_not_in_the_repr() -> None:
    secret = [
        (cls, f)
        for cls in options_classes()
        for f in dataclasses.fields(cls)
        if f.metadata.get("secret")
    ]
    assert len(secret) >= 5  # the API key, [storage] url, and the three SQL providers' url
    for cls, f in secret:
        value = f"postgresql://me:{SECRET}@db/chat" if f.name == "url" else SECRET
        built = cls(**{f.name: value})
        assert SECRET not in repr(built), (cls, f.name)
        assert getattr(built, f.name) == value
