"""`ctxchat tools ...`: the tool catalogue the configured pipeline offers."""

from __future__ import annotations

import json
import sys
from typing import Annotated

import typer

from ctxchat.cli.common import ConfigOption, chat_service, load_config, run_sync, warn
from ctxchat.cli.help_words import WordsCommand

app = typer.Typer(help="The tools the configured providers offer.", no_args_is_help=True)


@app.command("list", cls=WordsCommand)
def list_tools(
    json_output: Annotated[
        bool,
        typer.Option(
            "--json", help='A JSON list: [{"name", "source", "description", "side_effects"}].'
        ),
    ] = False,
    config: ConfigOption = None,
) -> None:
    """The tool catalogue, with sources and side effects.

    A tool with side effects is asked about before it runs. MCP servers are started to
    list theirs."""
    from ctxchat.cli.command_view import table_lines
    from ctxchat.services.commands import Table
    from ctxchat.services.tool_catalogue import catalogue_entry, load_catalogue, summary

    service = chat_service(load_config(config))
    tools = run_sync(load_catalogue(service.agent, warn))
    if json_output:
        entries = [catalogue_entry(tool) for tool in tools]
        sys.stdout.write(json.dumps(entries, ensure_ascii=False, indent=2) + "\n")
        return
    if not tools:
        sys.stdout.write('no tools: add a provider of type "tools" to the config\n')
        return
    columns = ("NAME", "SOURCE", "SIDE EFFECTS", "DESCRIPTION")
    rows = tuple(
        (t.name, t.source or "-", "yes (asks)" if t.side_effects else "no", summary(t.description))
        for t in tools
    )
    table = Table(columns, (columns, *rows))
    sys.stdout.write("\n".join(table_lines(table)) + "\n")
