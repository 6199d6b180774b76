"""The pipeline ctxchat runs with no config file, defined here and nowhere else.

`ctxchat config init` writes exactly this (`default_config_text`). It grows as built-in
providers land.
"""

from __future__ import annotations

from typing import Any

from ctxchat.config.toml_values import toml_value

# (type, source_id, options) in pipeline order: history first, it loads what the model reads.
# The history is SQL (a SQLite file in the data dir): loading it costs the window, not the
# conversation, and sessions can share one. Recall right after it: the past messages of
# your other sessions relevant to what you just said, or nothing. The summary then: it folds what
# falls out of the history's window (after the reply, and rarely: half a window at a time)
# and stands in for it, so a long session keeps its gist in a small model's context. The
# audit (one row a turn, in the same database) is what makes `sessions show --audit` and
# the turn-by-turn record useful from day one. The user's memory: what it recalls is an
# instruction block, and it learns from a turn only once the history has stored it (the
# engine's rule, whatever the order). Then the safe built-in tools (time, time zones, a
# calculator): none has side effects, and the file tools stay off until a root is set.
# They fill the catalogue; the selector after them advertises the ones that fit the
# conversation (all of them, at no cost, while there are no more than its max_tools).
DEFAULT_PIPELINE: tuple[tuple[str, str, dict[str, Any]], ...] = (
    ("sql_history", "history", {}),
    ("recall", "recall", {}),
    ("summary", "summary", {}),
    ("audit", "audit", {}),
    ("user_memory", "memory", {}),
    ("tools", "tools", {"advertise": False}),
    ("tool_selector", "tool_selector", {}),
)

_HEADER = """\
# ctxchat configuration. `ctxchat providers` lists every provider type with its options;
# `ctxchat config show` prints what is in effect (this file, then environment, then flags);
# `ctxchat config validate` checks it. The API key is best kept out of here: set
# OPENAI_API_KEY instead.

[model]
# The model as the endpoint names it. Unset: gpt-4o-mini on OpenAI; on any other endpoint
# the one model its /v1/models lists (when it lists several, ctxchat asks you to choose).
# model = "gpt-4o-mini"
# An OpenAI-compatible endpoint (unset: OpenAI): Ollama, llama.cpp's server, vLLM...
# base_url = "http://localhost:11434/v1"
# The most tokens a reply may take. Unset: a server with a cap of its own (OpenAI, most
# hosted APIs) keeps it; to one with none (llama.cpp's server) ctxchat sends the room it
# keeps for a reply, an eighth of the context window, at most 2,048. A reply that reaches
# it is cut, and said so.
# max_tokens = 1024

# A role: a preset for `ctxchat run --role review` or `/role review` in the chat
# (`ctxchat roles list` lists them). It may also set the model and its options, and
# [roles.NAME.providers.SOURCE_ID] tables laid over the providers below (enabled = false
# leaves one out).
[roles.review]
# one line for `ctxchat roles list`
description = "review the code piped in"
# the system prompt while the role is on; {{language}} is filled by --arg language=...
instructions = "You review {{language}} code: point out bugs first, then unclear names."
# what is sent for each message: {{input}} is the message, so `cat f.py | ctxchat run
# --role review` reviews f.py
prompt = "Review this code:\\n\\n{{input}}"
# the value of an argument not given with --arg
defaults = { language = "Python" }

# The provider pipeline, in order: before each model call every provider adds what it has;
# after it each stores what it learned. Append a [[providers]] table to add one.
"""
_TYPE_HELP = "the provider type (`ctxchat providers` lists them)"
_SOURCE_ID_HELP = "its name in the session state, in /context and in the audit"


def default_config_text() -> str:
    """The starter config file: `[[providers]]` tables (so that appending another one keeps
    it valid TOML), a short comment above each option, the model left unset."""
    tables = [_provider_table(*entry) for entry in DEFAULT_PIPELINE]
    return _HEADER + "".join(f"\n{table}" for table in tables)


def _provider_table(type_name: str, source_id: str, options: dict[str, Any]) -> str:
    summary, helps = _described(type_name)
    lines = [f"# {summary}"] if summary else []
    lines.append("[[providers]]")
    lines += [f"# {_TYPE_HELP}", f"type = {toml_value(type_name)}"]
    lines += [f"# {_SOURCE_ID_HELP}", f"source_id = {toml_value(source_id)}"]
    for key, value in options.items():
        lines += [f"# {helps.get(key, key)}", f"{key} = {toml_value(value)}"]
    return "\n".join(lines) + "\n"


def _described(type_name: str) -> tuple[str, dict[str, str]]:
    """A provider type's one-line summary and its options' help texts (none when the type
    cannot be loaded: the file is still written, `config validate` says what is wrong)."""
    import dataclasses

    from ctxchat.core.errors import ConfigError
    from ctxchat.core.registry import load_provider_class

    try:
        cls = load_provider_class(type_name)
    except ConfigError:
        return "", {}
    summary = next(iter((cls.__doc__ or "").strip().splitlines()), "")
    helps = {f.name: str(f.metadata.get("help", f.name)) for f in dataclasses.fields(cls.Options)}
    return summary.strip(), helps
