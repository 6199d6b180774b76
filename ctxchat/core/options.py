"""Typed options from TOML: dataclass fields checked one by one, errors with a key path.

Providers (and ctxchat's own settings tables) declare their options as a dataclass whose
fields carry a `help` text in their metadata. Only the types TOML can express are accepted.

Numbers must be finite and, unless the option says `signed=True`, 0 or more: TOML spells
`nan` and `inf`, and a `timeout = nan` would pass every range check written as a comparison
(`nan <= 0` is false) and then fail every turn. No option ctxchat has means anything below 0.
"""

from __future__ import annotations

import dataclasses
import difflib
import math
import types
import typing
from collections.abc import Mapping
from dataclasses import MISSING, dataclass, field
from typing import Any, Literal, TypeVar, get_args, get_origin

from ctxchat.core.errors import ConfigError
from ctxchat.core.redact import is_secret_name, is_url_name, mask_url

T = TypeVar("T")


class OptionValueError(ValueError):
    """A value an options dataclass rejects in `__post_init__`, naming the option, so the
    error carries its key path (`model.base_url: ...`)."""

    def __init__(self, key: str, problem: str) -> None:
        super().__init__(f"{key}: {problem}")
        self.key = key
        self.problem = problem


def option(
    default: Any = MISSING,
    *,
    help: str,
    default_factory: Any = MISSING,
    signed: bool = False,
    secret: bool = False,
) -> Any:
    """A dataclass field with its documentation, shown by `ctxchat providers`; `signed`
    lets a number option be negative; `secret` (a key, a URL that may carry a password)
    keeps the value out of the options' repr, so no log or traceback of them shows it."""
    metadata = {"help": help, "signed": signed, "secret": secret}
    if default_factory is not MISSING:
        return field(default_factory=default_factory, metadata=metadata, repr=not secret)
    return field(default=default, metadata=metadata, repr=not secret)


def nearest(name: str, candidates: list[str]) -> str | None:
    matches = difflib.get_close_matches(name, candidates, n=1, cutoff=0.6)
    return matches[0] if matches else None


def did_you_mean(name: str, candidates: list[str]) -> str:
    guess = nearest(name, candidates)
    return f" (did you mean '{guess}'?)" if guess else ""


def describe_type(tp: Any) -> str:
    origin = get_origin(tp)
    if tp is bool:
        return "a boolean"
    if tp is int:
        return "an integer"
    if tp is float:
        return "a number"
    if tp is str:
        return "a string"
    if origin is Literal:
        return "one of " + ", ".join(repr(a) for a in get_args(tp))
    if origin is list:
        (item,) = get_args(tp) or (Any,)
        return f"a list of {describe_type(item).removeprefix('a ').removeprefix('an ')}s"
    if origin is dict or tp is dict:
        return "a table"
    if origin in (types.UnionType, typing.Union):
        args = [a for a in get_args(tp) if a is not type(None)]
        inner = " or ".join(describe_type(a) for a in args)
        return f"{inner} (or omitted)" if len(args) < len(get_args(tp)) else inner
    if tp is Any:
        return "any value"
    return getattr(tp, "__name__", str(tp))


def _fits(value: Any, tp: Any) -> bool:
    origin = get_origin(tp)
    if tp is Any:
        return True
    if tp is bool:
        return isinstance(value, bool)
    if tp is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if tp is float:
        return isinstance(value, int | float) and not isinstance(value, bool)
    if tp is str:
        return isinstance(value, str)
    if tp is type(None):
        return value is None
    if origin is Literal:
        return value in get_args(tp)
    if origin is list:
        (item,) = get_args(tp) or (Any,)
        return isinstance(value, list) and all(_fits(v, item) for v in value)
    if origin is dict or tp is dict:
        return isinstance(value, dict)
    if origin in (types.UnionType, typing.Union):
        return any(_fits(value, a) for a in get_args(tp))
    raise TypeError(f"option type {tp!r} is not supported")


def _convert(value: Any, tp: Any) -> Any:
    if tp is float and isinstance(value, int):
        return float(value)
    if get_origin(tp) in (types.UnionType, typing.Union) and float in get_args(tp):
        return float(value) if isinstance(value, int) and not isinstance(value, bool) else value
    return value


def option_fields(options_cls: type[Any]) -> list[tuple[dataclasses.Field[Any], Any]]:
    hints = typing.get_type_hints(options_cls)
    return [(f, hints[f.name]) for f in dataclasses.fields(options_cls) if f.init]


def build_options(options_cls: type[T], raw: Mapping[str, Any], where: str) -> T:
    """Check `raw` against the dataclass `options_cls` and build it; `where` prefixes errors."""
    fields = option_fields(options_cls)
    known = [f.name for f, _ in fields]
    problems: list[str] = []
    for key in raw:
        if key not in known:
            problems.append(f"{where}.{key}: unknown option{did_you_mean(key, known)}")
    values: dict[str, Any] = {}
    for f, tp in fields:
        if f.name not in raw:
            if f.default is MISSING and f.default_factory is MISSING:
                problems.append(f"{where}.{f.name}: required option is missing")
            continue
        value = raw[f.name]
        if not _fits(value, tp):
            got = _show(f.name, value)
            problems.append(f"{where}.{f.name}: expected {describe_type(tp)}, got {got}")
            continue
        bad = _bad_number(value, signed=bool(f.metadata.get("signed", False)))
        if bad is not None:
            problems.append(f"{where}.{f.name}: {bad}")
            continue
        values[f.name] = _convert(value, tp)
    try:
        built = options_cls(**values)
    except ValueError as exc:  # __post_init__ range checks, on the values that fit
        problems.extend(option_error(where, exc).problems)
    except TypeError:  # a required option is missing: already said above
        pass
    if problems:
        raise ConfigError.of(problems)
    return built


def _bad_number(value: Any, *, signed: bool) -> str | None:
    """Why a number (or a number in a list) is refused: not finite, or below 0."""
    if isinstance(value, list):
        return next((p for p in (_bad_number(v, signed=signed) for v in value) if p), None)
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    if isinstance(value, float) and not math.isfinite(value):
        return f"expected a finite number, got {value!r}"
    if value < 0 and not signed:
        return f"must be 0 or more, got {value!r}"
    return None


def option_error(where: str, exc: ValueError) -> ConfigError:
    """A `__post_init__` rejection as a config error, with the key path when it names one."""
    if isinstance(exc, OptionValueError):
        return ConfigError(f"{where}.{exc.key}: {exc.problem}")
    return ConfigError(f"{where}: {exc}")


def option_defaults(options_cls: type[Any]) -> dict[str, Any]:
    defaults: dict[str, Any] = {}
    for f, _ in option_fields(options_cls):
        if f.default is not MISSING:
            defaults[f.name] = f.default
        elif f.default_factory is not MISSING:
            defaults[f.name] = f.default_factory()
    return defaults


def _show(name: str, value: Any) -> str:
    """The rejected value for an error message; a secret's only by its type, never its text
    (a key pasted as a list must not end up in a terminal's scrollback or a CI log)."""
    if is_secret_name(name):
        return _kind(value)
    if is_url_name(name):
        if not isinstance(value, str):
            return _kind(value)
        value = mask_url(value)
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _kind(value: Any) -> str:
    kinds = {bool: "a boolean", int: "an integer", float: "a number", str: "a string"}
    kinds.update({list: "a list", dict: "a table"})
    return kinds.get(type(value), f"a {type(value).__name__}")


@dataclass(frozen=True)
class NoOptions:
    """For providers that take no options."""
