"""`ctxchat models ...`: the GGUF files kept in the data dir, to run with `--model NAME`."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from ctxchat.cli.common import output_width, report
from ctxchat.cli.help_words import WordsCommand

app = typer.Typer(
    help="GGUF models kept here (run one with --model NAME).",
    no_args_is_help=True,
)
MIB = 1 << 20


@app.command("list", cls=WordsCommand)
def list_models() -> None:
    """The kept models: the short name `--model` takes, the size, the file."""
    from ctxchat.cli.command_view import table_lines
    from ctxchat.core.paths import models_dir
    from ctxchat.services.commands import Table
    from ctxchat.storage import model_files

    folder = models_dir()
    models = model_files.list_models(folder)
    if not models:
        sys.stdout.write(f"no models in {folder}: ctxchat models pull SOURCE adds one\n")
        return
    columns = ("NAME", "SIZE", "FILE")
    rows = tuple((m.short_name, f"{m.size / MIB:,.0f} MiB", str(m.path)) for m in models)
    table = Table(columns, (columns, *rows))
    sys.stdout.write("\n".join(table_lines(table, width=output_width())) + "\n")


@app.command("pull", cls=WordsCommand)
def pull(
    source: Annotated[
        str,
        typer.Argument(
            metavar="SOURCE",
            help="A URL of a .gguf file (#sha256=HEX checks it), or a Hugging Face "
            "repository, owner/repo (the hub is $HF_ENDPOINT, else huggingface.co).",
            show_default=False,
        ),
    ],
    file: Annotated[
        str | None,
        typer.Argument(
            metavar="[FILE]", help="The .gguf file in the repository.", show_default=False
        ),
    ] = None,
) -> None:
    """Download a GGUF model; a cut download resumes where it stopped.

    Its size and SHA-256 are checked where the source gives them; a partial file never
    has the model's name."""
    from ctxchat.cli.common import require_utf8
    from ctxchat.cli.progress import ProgressDisplay
    from ctxchat.core.paths import models_dir
    from ctxchat.services.model_pull import hub_url, parse_source
    from ctxchat.services.model_pull import pull as fetch
    from ctxchat.storage.model_files import short_name

    require_utf8(source=source, file=file)
    where = parse_source(source, file, hub_url())
    bars = ProgressDisplay()

    def progress(done: int, total: int | None) -> None:
        if total is not None:  # in MiB, so the bar counts what a person reads
            bars.update(where.name, min(done // MIB, total // MIB or 1), total // MIB or 1)

    try:
        path = fetch(where, models_dir(), progress)
    finally:
        bars.close()
    report(f"kept {path} (run it with --model {short_name(path.stem)})", kind="")


@app.command("rm", cls=WordsCommand)
def remove(
    name: Annotated[
        str,
        typer.Argument(metavar="NAME", help="Its short name or file name.", show_default=False),
    ],
) -> None:
    """Delete a kept model."""
    from ctxchat.core.paths import models_dir
    from ctxchat.storage.model_files import remove_model

    removed = remove_model(models_dir(), name)
    report(f"removed {removed.path}", kind="")
