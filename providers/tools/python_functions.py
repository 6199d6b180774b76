"""Python functions as tools: found by reference, described by their own signature.

A reference is `"package.module:function"` (`"package.module:Class.method"` reaches a
static method). The JSON Schema of the arguments comes from the type hints, the
descriptions from the docstring (Google `Args:` or reST `:param x:` style), so a function
documented for people is documented for the model. Whatever cannot be said in JSON
Schema (`*args`, a parameter without a type hint, a type such as `socket`) is a config
error naming the reference and the parameter: finding that out at the first call would
cost a turn. The built-in tools are made the same way.
"""

from __future__ import annotations

import asyncio
import enum
import functools
import importlib
import inspect
import re
import types
import typing
from collections.abc import Callable
from typing import Any

from ctxchat import ConfigError, Tool
from ctxchat.kit import TOOL_NAME_PATTERN, TOOL_NAME_RULE

_SCALARS: dict[Any, dict[str, Any]] = {
    str: {"type": "string"},
    int: {"type": "integer"},
    float: {"type": "number"},
    bool: {"type": "boolean"},
}
_SECTION = re.compile(
    r"^\s*(Args|Arguments|Parameters|Params|Returns?|Raises|Yields|Examples?|Notes?)\s*:?\s*$"
)
_GOOGLE_ARG = re.compile(r"^\s*(\*{0,2}\w+)\s*(?:\([^)]*\))?\s*:\s*(.*)$")
_REST_PARAM = re.compile(r"^\s*:param\s+(?:[^:]*\s)?(\w+)\s*:\s*(.*)$")


class Unsupported(Exception):
    """A signature or type JSON Schema cannot describe; the message says which part."""


def load_reference(reference: str) -> Callable[..., Any]:
    """The callable `reference` names, or a `ConfigError` saying what is wrong with it."""
    module_name, colon, path = reference.partition(":")
    if not colon or not module_name.strip() or not path.strip():
        raise ConfigError(f"python tool {reference!r}: expected 'package.module:function'")
    try:
        target: Any = importlib.import_module(module_name.strip())
    except Exception as exc:  # any import failure is the reference's problem
        raise ConfigError(
            f"python tool {reference!r}: cannot import {module_name!r}: {type(exc).__name__}: {exc}"
        ) from exc
    for part in path.strip().split("."):
        try:
            target = getattr(target, part)
        except AttributeError:
            raise ConfigError(
                f"python tool {reference!r}: {module_name!r} has no {path.strip()!r}"
            ) from None
    if not callable(target):
        raise ConfigError(f"python tool {reference!r}: {path.strip()!r} is not callable")
    return typing.cast(Callable[..., Any], target)


def in_a_loop_of_its_own(function: Callable[..., Any]) -> Callable[..., Any]:
    """An `async def` tool as a plain function that runs it under `asyncio.run`.

    Run on ctxchat's own loop, an async tool that blocks (a `time.sleep`, a C call) holds
    the loop: neither its timeout nor Ctrl-C is handled until it returns, and it may never.
    As a plain function it runs in a daemon thread like any sync tool, on a loop of its
    own there, so the turn's loop stays free to time it out or be interrupted (the thread
    is then left behind, as a sync tool's is). Its name, docstring and signature stay."""

    @functools.wraps(function)
    def run(**arguments: Any) -> Any:
        return asyncio.run(function(**arguments))

    return run


def tool_from_function(
    function: Callable[..., Any],
    *,
    source: str,
    name: str | None = None,
    side_effects: bool = False,
    timeout: float | None = None,
    where: str | None = None,
    worker_ref: str | None = None,
    takes_run: bool = False,
) -> Tool:
    """A `Tool` for `function`: its name, docstring and type hints as the model sees them.
    `where` names it in errors (the reference as configured); `worker_ref` runs its calls
    in a worker process (see `Tool.worker_ref`); with `takes_run` its first parameter is
    the turn's `ToolRun`, left out of the schema (see `Tool.takes_run`)."""
    label = where or getattr(function, "__qualname__", repr(function))
    tool_name = name or str(getattr(function, "__name__", ""))
    if not TOOL_NAME_PATTERN.match(tool_name):
        raise ConfigError(f"python tool {label!r}: tool name {tool_name!r} {TOOL_NAME_RULE}")
    summary, argument_help = parse_docstring(inspect.getdoc(function) or "")
    try:
        parameters = _schema(function, argument_help, skip_first=takes_run)
    except Unsupported as exc:
        raise ConfigError(f"python tool {label!r}: {exc}") from None
    return Tool(
        tool_name,
        summary or tool_name.replace("_", " "),
        function,
        parameters,
        timeout=timeout,
        side_effects=side_effects,
        source=source,
        worker_ref=worker_ref,
        takes_run=takes_run,
    )


def _schema(
    function: Callable[..., Any], argument_help: dict[str, str], *, skip_first: bool = False
) -> dict[str, Any]:
    try:
        signature = inspect.signature(function)
    except (TypeError, ValueError) as exc:
        raise Unsupported(f"its signature cannot be read ({exc})") from None
    try:
        hints = typing.get_type_hints(function, include_extras=True)
    except Exception as exc:
        raise Unsupported(f"its type hints cannot be resolved ({exc})") from None
    properties: dict[str, Any] = {}
    required: list[str] = []
    shown = list(signature.parameters.values())[1 if skip_first else 0 :]
    for parameter in shown:
        pname = parameter.name
        if parameter.kind in (parameter.VAR_POSITIONAL, parameter.VAR_KEYWORD):
            star = "*" if parameter.kind is parameter.VAR_POSITIONAL else "**"
            raise Unsupported(f"{star}{pname} is not supported: name each argument")
        if parameter.kind is parameter.POSITIONAL_ONLY:
            raise Unsupported(f"parameter '{pname}' is positional-only: tools pass keywords")
        if pname not in hints:
            raise Unsupported(f"parameter '{pname}' has no type hint: tools need one for each")
        try:
            schema = json_schema(hints[pname])
        except Unsupported as exc:
            raise Unsupported(f"parameter '{pname}': {exc}") from None
        if pname in argument_help and "description" not in schema:
            schema["description"] = argument_help[pname]
        if parameter.default is parameter.empty:
            required.append(pname)
        elif isinstance(parameter.default, str | int | float | bool):
            schema.setdefault("default", parameter.default)
        properties[pname] = schema
    result: dict[str, Any] = {"type": "object", "properties": properties}
    if required:
        result["required"] = required
    return result


def json_schema(hint: Any) -> dict[str, Any]:
    """The JSON Schema of a type hint; `Unsupported` for what it cannot say."""
    origin = typing.get_origin(hint)
    arguments = typing.get_args(hint)
    if origin is typing.Annotated:
        schema = json_schema(arguments[0])
        notes = [a for a in arguments[1:] if isinstance(a, str)]
        if notes:
            schema["description"] = " ".join(notes)
        return schema
    if hint in _SCALARS:
        return dict(_SCALARS[hint])
    if hint is Any:
        return {}
    if origin is typing.Literal:
        if not all(isinstance(a, str | int | float | bool) for a in arguments):
            raise Unsupported("Literal values must be strings, numbers or booleans")
        return {"enum": list(arguments)}
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        return {"enum": [member.value for member in hint]}
    if origin in (list, tuple, set, frozenset) or hint in (list, tuple, set, frozenset):
        if origin is tuple and len(arguments) == 2 and arguments[1] is Ellipsis:
            arguments = arguments[:1]
        elif origin is tuple and arguments:
            raise Unsupported("a fixed-length tuple is not supported: use list[...]")
        items = json_schema(arguments[0]) if arguments else {}
        return {"type": "array", "items": items}
    if origin is dict or hint is dict:
        if arguments and arguments[0] is not str:
            raise Unsupported("dict keys must be str (JSON objects have string keys)")
        values = json_schema(arguments[1]) if len(arguments) == 2 else {}
        return {"type": "object", "additionalProperties": values}
    if origin in (types.UnionType, typing.Union):
        options = [a for a in arguments if a is not type(None)]
        schemas = [json_schema(a) for a in options]
        if len(options) < len(arguments):
            schemas.append({"type": "null"})
        return schemas[0] if len(schemas) == 1 else {"anyOf": schemas}
    shown = getattr(hint, "__name__", None) or repr(hint)
    raise Unsupported(f"type {shown} cannot be described in JSON Schema")


def parse_docstring(doc: str) -> tuple[str, dict[str, str]]:
    """(description, {argument: help}) from a docstring: the text before the first section
    is the description (joined into one paragraph per blank-line block); `Args:` (Google)
    or `:param name:` (reST) lines describe the arguments."""
    summary: list[str] = []
    helps: dict[str, str] = {}
    section: str | None = None
    current: str | None = None
    for line in doc.splitlines():
        rest = _REST_PARAM.match(line)
        if rest:
            current, section = rest.group(1), "args"
            helps[current] = rest.group(2).strip()
            continue
        if line.strip().startswith(":"):
            section, current = "other", None
            continue
        heading = _SECTION.match(line)
        if heading:
            word = heading.group(1).lower()
            section = "args" if word.startswith(("arg", "param")) else "other"
            current = None
            continue
        if section is None:
            summary.append(line.strip())
        elif section == "args":
            found = _GOOGLE_ARG.match(line)
            if found and (current is None or _indent(line) <= _indent_of_args(doc)):
                current = found.group(1).lstrip("*")
                helps[current] = found.group(2).strip()
            elif current is not None and line.strip():
                helps[current] = f"{helps[current]} {line.strip()}".strip()
    paragraphs = " ".join(summary).strip()
    return re.sub(r"\s+", " ", paragraphs), helps


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _indent_of_args(doc: str) -> int:
    """The indentation of the first argument line under `Args:`."""
    lines = doc.splitlines()
    for index, line in enumerate(lines):
        if _SECTION.match(line) and line.strip().lower().startswith(("arg", "param")):
            for following in lines[index + 1 :]:
                if following.strip():
                    return _indent(following)
    return 0
