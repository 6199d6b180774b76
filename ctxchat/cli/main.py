"""The `ctxchat` command: the Typer app, and the one place errors become exit codes.

Only Typer and ctxchat's light modules are imported here; each command imports what it
needs when it runs, so `ctxchat --help` and `--version` stay fast.
"""

from __future__ import annotations

import contextlib
import gc
import os
import sys
from collections.abc import Sequence
from typing import Annotated, NoReturn

import typer

from ctxchat import __version__
from ctxchat.cli import (
    collector,
    config_cmd,
    import_cmd,
    memory_cmd,
    models_cmd,
    recall_cmd,
    roles_cmd,
    run_cmd,
    serve_cmd,
    sessions_cmd,
    tools_cmd,
    usage_cmd,
)
from ctxchat.cli.common import ConfigOption, print_traceback, report
from ctxchat.cli.help_words import WordsCommand
from ctxchat.cli.invocation import Invocation
from ctxchat.core.errors import EXIT_FAILURE, EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE, CtxchatError

PROG = "ctxchat"
EXIT_CODES = (
    "Exit codes: 0 ok · 1 the model or a tool failed · 2 usage or config error · "
    "130 interrupted. A failed turn in a script stops it with that code; the turns "
    "before it are saved."
)

ABOUT = (
    "A terminal chat whose memory is a pipeline of context providers.\n\n"
    "`ctxchat` alone is `ctxchat run`: a chat (REPL) on a terminal, a script when stdin "
    "is piped."
)

app = typer.Typer(
    name=PROG,
    help=ABOUT,
    epilog=EXIT_CODES,
    invoke_without_command=True,
    subcommand_metavar="[COMMAND [ARGS]...]",
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _show_version(value: bool) -> None:
    if value:
        typer.echo(f"{PROG} {__version__}")
        raise typer.Exit()


@app.callback(invoke_without_command=True)
def root(
    ctx: typer.Context,
    version: Annotated[
        bool,
        typer.Option(
            "--version",
            "-V",
            callback=_show_version,
            is_eager=True,
            help="Print the version and exit.",
        ),
    ] = False,
    config: ConfigOption = None,
) -> None:
    """The options before the command name; with no command, `run` with its defaults."""
    ctx.ensure_object(Invocation).config = config
    if ctx.invoked_subcommand not in (None, "run"):
        collector.resume()
    if ctx.invoked_subcommand is None:
        run_cmd.run()


app.command("run", epilog=EXIT_CODES, cls=WordsCommand)(run_cmd.run)
app.add_typer(sessions_cmd.app, name="sessions")
app.add_typer(config_cmd.app, name="config")
app.add_typer(memory_cmd.app, name="memory")
app.add_typer(tools_cmd.app, name="tools")
app.add_typer(recall_cmd.app, name="recall")
app.add_typer(roles_cmd.app, name="roles")
app.add_typer(models_cmd.app, name="models")
app.command("serve", epilog=EXIT_CODES, cls=WordsCommand)(serve_cmd.serve)
app.command("providers", epilog=EXIT_CODES, cls=WordsCommand)(config_cmd.providers)
app.command("usage", epilog=EXIT_CODES, cls=WordsCommand)(usage_cmd.usage)
app.command("import", epilog=EXIT_CODES, cls=WordsCommand)(import_cmd.import_sessions)


def _debug() -> bool:
    return os.environ.get("CTXCHAT_DEBUG", "") not in ("", "0")


def execute(argv: Sequence[str] | None = None, invocation: Invocation | None = None) -> int:
    """Run the app and return the exit code, having reported any error on stderr.
    `invocation` gathers what the command opened, for the caller to close."""
    from typer import _click

    from ctxchat.cli.lazy_commands import lazy_command

    command = lazy_command(app)
    try:
        result = command.main(
            args=list(argv) if argv is not None else None,
            prog_name=PROG,
            standalone_mode=False,
            obj=invocation if invocation is not None else Invocation(),
        )
    except BrokenPipeError:
        return _reader_gone()
    except SystemExit as exc:
        # Typer meets a BrokenPipeError from a command with sys.exit(1) (and its own
        # message-less stdout wrapper); a reader that stopped reading is not a failure.
        if isinstance(exc.__context__, BrokenPipeError):
            return _reader_gone()
        raise
    except _click.exceptions.NoArgsIsHelpError as exc:
        sys.stderr.write(exc.format_message() + "\n")
        return EXIT_USAGE
    except _click.exceptions.UsageError as exc:
        path = exc.ctx.command_path if exc.ctx is not None else PROG
        report(f"{exc.format_message()} (see '{path} --help')")
        return exc.exit_code
    except _click.exceptions.ClickException as exc:
        report(exc.format_message())
        return exc.exit_code
    except typer.Abort as exc:
        if isinstance(exc.__context__, KeyboardInterrupt):
            if sys.stderr.isatty():
                sys.stderr.write("\n")  # the question's line was left open at the ^C
            report("interrupted", kind="")
            return EXIT_INTERRUPTED
        report("aborted", kind="")
        return EXIT_FAILURE
    except CtxchatError as exc:
        if isinstance(getattr(exc, "cause", None), BrokenPipeError):
            return _reader_gone()  # a turn failed only because its output had no reader
        if _debug():
            print_traceback()
        for problem in exc.problems:
            report(problem)
        return exc.exit_code
    except KeyboardInterrupt:
        report("interrupted", kind="")
        return EXIT_INTERRUPTED
    except Exception as exc:
        if _debug():
            print_traceback()
        report(f"unexpected {type(exc).__name__}: {exc} (set CTXCHAT_DEBUG=1 for a traceback)")
        return EXIT_FAILURE
    if result == EXIT_INTERRUPTED:  # Typer turned a KeyboardInterrupt into Exit(130)
        report("interrupted", kind="")
    return result if isinstance(result, int) else EXIT_OK


def _reader_gone() -> int:
    """stdout's reader went away (`ctxchat sessions list | head -1`): it had all it wanted.

    Nothing is reported and the exit is 0, as for a reader that read to the end; stdout is
    pointed at /dev/null so the final flush has nowhere to fail."""
    with contextlib.suppress(OSError, ValueError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    return EXIT_OK


def main() -> NoReturn:
    """The console-script entry point."""
    # Start-up creates thousands of objects (openai's pydantic models) and no garbage worth
    # collecting yet: fewer young-generation passes save CPU without holding memory long,
    # and `run` makes none until its first turn is out (see `collector`).
    gc.set_threshold(20_000, 20, 20)
    collector.pause()
    invocation = Invocation()
    code = execute(invocation=invocation)
    try:
        invocation.close()
    except CtxchatError as exc:
        report(exc.message, kind="warning")
    exit_now(code)


def exit_now(code: int) -> NoReturn:
    """End the process without tearing the interpreter down.

    Freeing the object graph of openai, pydantic and SQLAlchemy at exit costs about 0.2 s
    of CPU, after the user's answer is already out. By now every turn is committed, every
    file atomically written and every provider closed; only stdio remains to flush.
    """
    for stream in (sys.stdout, sys.stderr):
        # A reader that went away (a closed pipe) leaves nothing more to say.
        with contextlib.suppress(OSError, ValueError):
            stream.flush()
    os._exit(code)


if __name__ == "__main__":
    main()
