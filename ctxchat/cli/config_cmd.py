"""`ctxchat config ...` and `ctxchat providers`."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from ctxchat.cli import project_cmd
from ctxchat.cli.common import ConfigOption, config_file, load_config, require_utf8
from ctxchat.cli.help_words import WordsCommand

app = typer.Typer(
    help="Write, show, check and locate the config file.",
    no_args_is_help=True,
)


def _target(config: Path | None) -> Path:
    import os

    from ctxchat.config.loading import config_path

    return config_path(config_file(config), os.environ)[0]


@app.command(cls=WordsCommand)
def init(
    force: Annotated[
        bool, typer.Option("--force", help="Overwrite an existing config file.")
    ] = False,
    config: ConfigOption = None,
) -> None:
    """Write a starter config file (the default pipeline)."""
    from ctxchat.config.defaults import default_config_text
    from ctxchat.core.errors import UsageError
    from ctxchat.storage.fsutil import atomic_write_text

    path = _target(config)
    if path.exists() and not force:
        raise UsageError(f"{path} already exists; pass --force to overwrite it")
    if path.is_dir():
        raise UsageError(f"{path} is a directory")
    text = default_config_text()
    try:
        atomic_write_text(path, text)
    except OSError as exc:
        raise UsageError(f"cannot write {path}: {exc.strerror or exc}") from exc
    print(f"wrote {path}")


@app.command(cls=WordsCommand)
def show(
    config: ConfigOption = None,
    model: Annotated[
        str | None,
        typer.Option(metavar="NAME", help="Model name, as `run` takes it.", show_default=False),
    ] = None,
    base_url: Annotated[
        str | None,
        typer.Option(metavar="URL", help="Endpoint URL, as `run` takes it.", show_default=False),
    ] = None,
    system: Annotated[
        str | None,
        typer.Option(metavar="TEXT", help="System prompt, as `run` takes it.", show_default=False),
    ] = None,
) -> None:
    """Print the configuration in effect, secrets masked.

    The file, then the environment, then flags, each value's origin noted, the context
    window requests are fitted to, and which provider loads the history.
    """
    from ctxchat.services.build import build_agent
    from ctxchat.services.model_client import window_in_effect
    from ctxchat.views.config_report import describe_config

    require_utf8(model=model, base_url=base_url, system=system)
    settings = load_config(config, model=model, base_url=base_url, system=system)
    limits = window_in_effect(settings.model)
    sys.stdout.write(describe_config(settings, build_agent(settings), limits))


@app.command(cls=WordsCommand)
def validate(
    file: Annotated[
        Path | None,
        typer.Argument(
            metavar="FILE",
            help="Config file to check (default: the one `run` reads).",
            show_default=False,
        ),
    ] = None,
    config: ConfigOption = None,
) -> None:
    """Check a config file; every problem on a line.

    TOML syntax, settings, provider types and their options, and that each provider
    reaches what it needs (SQL providers open their database, MCP servers start).
    """
    from ctxchat.config.loading import read_config
    from ctxchat.services.build import validate_config
    from ctxchat.services.roles import role_option_problems

    settings, problems = read_config(config_file(file or config))
    failure = validate_config(settings, [*problems, *role_option_problems(settings)])
    if failure is not None:
        raise failure
    where = settings.path or "built-in defaults (no config file)"
    print(f"ok: {where}")


app.command("trust", cls=WordsCommand)(project_cmd.trust)


@app.command(cls=WordsCommand)
def path(config: ConfigOption = None) -> None:
    """Print the config file's path (whether or not it exists yet)."""
    print(_target(config))


def providers(config: ConfigOption = None) -> None:
    """List provider types and their options.

    Every registered provider type, with its options, their types and defaults.
    """
    del config  # accepted like everywhere (an alias may carry it); the list is the same
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
    from ctxchat.views.config_report import masked_toml

    defaults = option_defaults(options_cls)
    lines = []
    for f, tp in option_fields(options_cls):
        if f.name not in defaults:
            default = "required"
        elif defaults[f.name] is None:
            default = "omitted"
        else:
            default = masked_toml(defaults[f.name])
        lines.append(f"  {f.name} ({describe_type(tp)}; default {default})")
        help_text = f.metadata.get("help")
        if help_text:
            lines.append(f"      {help_text}")
    return lines
