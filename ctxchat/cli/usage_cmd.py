"""`ctxchat usage`: tokens in and out and their cost, from the usage ledger."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from ctxchat.cli.common import ConfigOption, chat_service, load_config, run_sync


def usage(
    since: Annotated[
        str | None,
        typer.Option(
            "--since",
            metavar="AGE",
            help="Only turns of the last AGE: 30d, 12h, 2w, 6mo, 1y.",
            show_default=False,
        ),
    ] = None,
    by: Annotated[
        str, typer.Option("--by", metavar="model|session|day|role", help="Group the turns by.")
    ] = "model",
    json_output: Annotated[bool, typer.Option("--json", help="One JSON object.")] = False,
    config: ConfigOption = None,
) -> None:
    """Tokens in and out, and what they cost at your [prices."MODEL"].

    Reads the ledger the SQL history writes with each stored turn (yours only). A turn
    whose usage the endpoint did not report is counted as unknown, never as 0; one from
    before the ledger as unrecorded.
    """
    from rich.console import Console
    from rich.table import Table

    from ctxchat.services.usage import grouping, since_of, usage_report
    from ctxchat.views.usage_view import COLUMNS, key_text, usage_cells

    grouped = grouping(by)
    start = since_of(since)
    settings = load_config(config)
    service = chat_service(settings)
    report = run_sync(
        usage_report(service.agent.run_providers(), settings.prices, grouped, since=start)
    )
    if json_output:
        print(json.dumps(report.to_dict(), ensure_ascii=False))
        return
    table = Table(box=None, pad_edge=False)
    for column in (grouped, *COLUMNS):
        table.add_column(column, justify="left" if column in (grouped, "not counted") else "right")
    for line in report.lines:
        table.add_row(key_text(line.key), *usage_cells(line))
    table.add_row("total", *usage_cells(report.total), style="bold")
    Console(soft_wrap=True).print(table)
