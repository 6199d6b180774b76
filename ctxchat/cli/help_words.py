"""Help that names values with words (`PROMPT`, `SESSION...`), not type hints.

Typer writes an argument as its name and its Python type (`SESSION <list[str]>`) and gives
an option without a metavar its type (`--title <str>`). Every option here names its value
with a `metavar`; arguments are written by `WordsCommand`, which every command uses: the
metavar alone, `...` when it takes several, brackets in the usage line when it may be left
out.
"""

from __future__ import annotations

from typing import Any

from typer import _click
from typer.core import TyperCommand


def _argument_name(param: _click.Parameter) -> str:
    name = param.metavar or (param.name or "value").upper()
    return f"{name}..." if param.nargs != 1 else name


class WordsCommand(TyperCommand):
    """A Typer command whose help writes arguments as words."""

    def collect_usage_pieces(self, ctx: _click.Context) -> list[str]:
        pieces = [self.options_metavar] if self.options_metavar else []
        for param in self.get_params(ctx):
            if param.param_type_name == "argument":
                name = _argument_name(param)
                pieces.append(name if param.required else f"[{name}]")
        return pieces

    def format_options(self, ctx: _click.Context, formatter: _click.HelpFormatter) -> None:
        arguments: list[tuple[str, str]] = []
        options: list[tuple[str, str]] = []
        for param in self.get_params(ctx):
            if param.param_type_name == "argument":
                help_text: Any = getattr(param, "help", None)
                arguments.append((_argument_name(param), str(help_text or "")))
                continue
            record = param.get_help_record(ctx)
            if record is not None:
                options.append(record)
        if arguments:
            with formatter.section("Arguments"):
                formatter.write_dl(arguments)
        if options:
            with formatter.section("Options"):
                formatter.write_dl(options)
