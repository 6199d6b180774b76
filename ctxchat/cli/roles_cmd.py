"""`ctxchat roles list|show NAME`: the presets the config defines."""

from __future__ import annotations

from typing import Annotated

import typer

from ctxchat.cli.common import ConfigOption, load_config
from ctxchat.cli.help_words import WordsCommand
from ctxchat.cli.role_run import complete_role

app = typer.Typer(help="The roles ([roles.NAME] presets) the config defines.", no_args_is_help=True)


@app.command("list", cls=WordsCommand)
def list_roles(
    json_output: Annotated[bool, typer.Option("--json", help="A JSON array.")] = False,
    config: ConfigOption = None,
) -> None:
    """Each role with its description and the arguments it takes."""
    from ctxchat.core.sanitize import json_text, one_line

    roles = load_config(config).roles
    if json_output:
        rows = [
            {"name": r.name, "description": r.description, "arguments": r.arguments}
            for r in roles.values()
        ]
        print(json_text(rows, indent=2))
        return
    if not roles:
        typer.echo("no roles defined: add a [roles.NAME] table to the config", err=True)
        return
    width = max(len(name) for name in roles)
    for role in roles.values():
        takes = " ".join(f"{{{{{a}}}}}" for a in role.arguments)
        line = f"{role.name.ljust(width)}  {one_line(role.description or '')}"
        print((line + (f"  [{takes}]" if takes else "")).rstrip())


@app.command(cls=WordsCommand)
def show(
    name: Annotated[
        str,
        typer.Argument(metavar="NAME", autocompletion=complete_role, show_default=False),
    ],
    config: ConfigOption = None,
) -> None:
    """A role's settings, as the config gives them."""
    from ctxchat.config.roles import find_role
    from ctxchat.views.role_report import describe_role

    print(describe_role(find_role(load_config(config), name)), end="")
