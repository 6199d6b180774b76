"""`ctxchat config ...` and `ctxchat providers`."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from ctxchat.cli.common import ConfigOption, load_config, require_utf8

app = typer.Typer(
    help="Write, show, check and locate the config file.",
    no_args_is_help=True,
)

CONFIG_HEADER = """\
# ctxchat configuration. `ctxchat providers` lists every provider type and its options;
# `ctxchat config show` prints what is in effect (this file, then environment, then flags).
# The API key is best kept out of here: set OPENAI_API_KEY instead.

"""


def _target(config: Path | None) -> Path:
    import os

    from ctxchat.config.loading import config_path

    return config_path(config, os.environ)[0]


@app.command()
def init(
    force: Annotated[
        bool, typer.Option("--force", help="Overwrite an existing config file.")
    ] = False,
    config: ConfigOption = None,
) -> None:
    """Write a starter config file (the built-in default pipeline)."""
    import tomli_w

    from ctxchat.config.defaults import default_config_document
    from ctxchat.core.errors import UsageError
    from ctxchat.storage.fsutil import atomic_write_text

    path = _target(config)
    if path.exists() and not force:
        raise UsageError(f"{path} already exists; pass --force to overwrite it")
    if path.is_dir():
        raise UsageError(f"{path} is a directory")
    text = CONFIG_HEADER + tomli_w.dumps(default_config_document())
    try:
        atomic_write_text(path, text)
    except OSError as exc:
        raise UsageError(f"cannot write {path}: {exc.strerror or exc}") from exc
    print(f"wrote {path}")


@app.command()
def show(
    config: ConfigOption = None,
    model: Annotated[
        str | None, typer.Option(help="Model name, as `run` takes it.", show_default=False)
    ] = None,
    base_url: Annotated[
        str | None, typer.Option(help="Endpoint URL, as `run` takes it.", show_default=False)
    ] = None,
    system: Annotated[
        str | None, typer.Option(help="System prompt, as `run` takes it.", show_default=False)
    ] = None,
) -> None:
    """The effective configuration (file + environment + flags), secrets masked, and which
    provider loads the history."""
    from ctxchat.services.build import build_agent
    from ctxchat.views.config_report import describe_config

    require_utf8(model=model, base_url=base_url, system=system)
    settings = load_config(config, model=model, base_url=base_url, system=system)
    sys.stdout.write(describe_config(settings, build_agent(settings)))


@app.command()
def validate(
    file: Annotated[
        Path | None,
        typer.Argument(
            help="Config file to check (default: the one `run` reads).", show_default=False
        ),
    ] = None,
    config: ConfigOption = None,
) -> None:
    """Check a config file: TOML syntax, settings, provider types and their options, and
    that each provider reaches what it needs (SQL providers open their database)."""
    from ctxchat.services.build import build_agent, check_agent

    settings = load_config(file or config)
    agent = build_agent(settings)
    try:
        check_agent(settings, agent)
    finally:
        agent.close()
    where = settings.path or "built-in defaults (no config file)"
    print(f"ok: {where}")


@app.command()
def path(config: ConfigOption = None) -> None:
    """Print the config file's path (whether or not it exists yet)."""
    print(_target(config))


def providers() -> None:
    """Every registered provider type with its options, their types and defaults."""
    from ctxchat.core.errors import ConfigError
    from ctxchat.core.registry import load_provider_class, provider_entry_points

    for name, entry in provider_entry_points().items():
        print(f"{name}  ({entry.value})")
        try:
            cls = load_provider_class(name)
        except ConfigError as exc:
            print(f"  cannot load: {exc.message}\n")
            continue
        doc = (cls.__doc__ or "").strip().splitlines()
        if doc:
            print(f"  {doc[0]}")
        print("\n".join(option_lines(cls.Options)) or "  (no options)")
        print()


def option_lines(options_cls: type[Any]) -> list[str]:
    from ctxchat.core.options import describe_type, option_defaults, option_fields
    from ctxchat.views.config_report import toml_value

    defaults = option_defaults(options_cls)
    lines = []
    for f, tp in option_fields(options_cls):
        if f.name not in defaults:
            default = "required"
        elif defaults[f.name] is None:
            default = "omitted"
        else:
            default = toml_value(defaults[f.name])
        lines.append(f"  {f.name} ({describe_type(tp)}; default {default})")
        help_text = f.metadata.get("help")
        if help_text:
            lines.append(f"      {help_text}")
    return lines
