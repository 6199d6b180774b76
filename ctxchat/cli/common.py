"""What several commands share: option types, and opening the engine lazily."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Coroutine, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer

from ctxchat.core.errors import UsageError

if TYPE_CHECKING:
    from ctxchat.config.loading import Config
    from ctxchat.core.context import RunResponse
    from ctxchat.core.model_types import ChatModel, ReplyCut
    from ctxchat.services.conversations import ChatService
    from ctxchat.services.roles import RoleSwitch
    from ctxchat.storage.catalog import SessionCatalog
    from ctxchat.storage.store import SessionStore

T = TypeVar("T")


def complete_session(incomplete: str) -> list[tuple[str, str]]:
    """Shell completion for session references: ids and titles that start with the text."""
    try:
        summaries = session_catalog().list(limit=200)
    except Exception:  # completion must never print a traceback into the shell
        return []
    found: list[tuple[str, str]] = []
    for s in summaries:
        if s.id.upper().startswith(incomplete.upper()):
            found.append((s.id, s.title or ""))
        elif s.title and s.title.startswith(incomplete):
            found.append((s.title, s.id))
    return found


def invalid_utf8(value: str) -> str | None:
    """Why `value` is not text, or None. Python keeps an argument's bytes that are not UTF-8
    as surrogate escapes (U+DC80-U+DCFF), which no file, terminal or server accepts."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as exc:
        code = ord(value[exc.start])
        byte = f"byte 0x{code - 0xDC00:02x}" if 0xDC80 <= code <= 0xDCFF else f"U+{code:04X}"
        return f"{byte} at character {exc.start + 1}"
    return None


def require_utf8(**arguments: str | Sequence[str] | None) -> None:
    """Refuse (exit 2) any of `arguments` that is not valid UTF-8 text, naming it
    (`title` -> --title, `prompt` -> the prompt), before anything is sent or stored."""
    for name, given in arguments.items():
        values = [given] if isinstance(given, str) else list(given or ())
        for value in values:
            problem = invalid_utf8(value)
            if problem is not None:
                what = ARGUMENT_NAMES.get(name, f"--{name.replace('_', '-')}")
                raise UsageError(f"{what} is not valid UTF-8 text ({problem})")


def _session_ref(value: str) -> str:
    require_utf8(session=value)
    return value


ARGUMENT_NAMES = {"prompt": "the prompt", "session": "the session", "title": "the title"}

ConfigOption = Annotated[
    Path | None,
    typer.Option(
        "--config",
        metavar="FILE",
        help="Config file to read (default: $CTXCHAT_CONFIG, else `ctxchat config path`).",
        show_default=False,
    ),
]


def config_file(path: Path | None) -> Path | None:
    """The config file a command was told to read: its own --config, else the one given
    before the command name (None: `CTXCHAT_CONFIG`, else the default path, as
    `config_path` decides)."""
    if path is not None:
        return path
    from ctxchat.cli.invocation import current

    return current().config


SessionArg = Annotated[
    str,
    typer.Argument(
        help="Session id, unique id prefix, or exact title.",
        metavar="SESSION",
        autocompletion=complete_session,
        callback=_session_ref,
        show_default=False,
    ),
]


def load_config(
    path: Path | None,
    *,
    model: str | None = None,
    base_url: str | None = None,
    system: str | None = None,
) -> Config:
    """The config a command runs with. A wrong one is refused with every problem in it,
    its providers' too, a line each: fixing one at a time would take as many runs."""
    from ctxchat.config.loading import read_config

    config, problems = read_config(
        config_file(path),
        model_overrides={"model": model, "base_url": base_url},
        instructions=system,
    )
    if problems:
        from ctxchat.services.build import validate_config

        failure = validate_config(config, problems, check=False)
        if failure is not None:
            raise failure
    for notice in config.notices:
        warn(notice)
    return config


def session_store() -> SessionStore:
    from ctxchat.core.paths import sessions_dir
    from ctxchat.storage.store import SessionStore

    return SessionStore(sessions_dir())


def session_catalog() -> SessionCatalog:
    """The saved sessions, for commands that only list them (no agent is built)."""
    from ctxchat.storage.catalog import SessionCatalog

    return SessionCatalog(session_store())


def chat_service(
    config: Config,
    *,
    no_memory: bool = False,
    temporary: bool = False,
    roles: RoleSwitch | None = None,
    discover: bool = False,
    on_lock_wait: Callable[[str], None] | None = None,
) -> ChatService:
    """The engine for one command, closed when the command is over (`Invocation.close`).
    `discover`: the endpoint may be asked which models it serves (a chat's start, /model);
    `on_lock_wait` says that another process holds a session (default: a line on stderr)."""
    from ctxchat.cli.progress import ProgressDisplay
    from ctxchat.services.build import build_agent
    from ctxchat.services.conversations import ChatService

    models = None
    if discover:
        from ctxchat.core.paths import model_lists_path
        from ctxchat.services.model_discovery import endpoint_models

        models = endpoint_models(config.model, model_lists_path())
    progress = ProgressDisplay().bar  # a migration of the database shows here
    service = ChatService(
        build_agent(config, no_memory=no_memory, temporary=temporary, progress=progress),
        session_store(),
        model_chosen=config.origins.get("model", "file") != "file",
        context_window=config.model.context_window,
        on_lock_wait=on_lock_wait or announce_lock_wait,
        ephemeral=temporary,
        models=models,
        roles=roles,
        project=config.project.id if config.project is not None else None,
        prices=config.prices,
    )
    from ctxchat.cli.invocation import current

    current().services.append(service)
    return service


def report(message: str, *, kind: str = "error") -> None:
    """One line on stderr (`ctxchat: KIND: message`), whatever the message holds: a
    server's error text may carry escape sequences, and a driver's a password."""
    from ctxchat.core.redact import scrub_secrets
    from ctxchat.core.sanitize import one_line

    flat = one_line(scrub_secrets(str(message)))
    try:
        sys.stderr.write(f"ctxchat: {kind}: {flat}\n" if kind else f"ctxchat: {flat}\n")
        sys.stderr.flush()
    except (OSError, ValueError):
        pass  # stderr is gone; the exit code still tells


def debug_traceback() -> str:
    """The exception being handled, as a traceback safe to show: drivers and servers quote
    URLs, passwords and keys in their messages (see `ctxchat.core.redact`)."""
    import traceback

    from ctxchat.core.redact import scrub_secrets
    from ctxchat.core.sanitize import terminal_safe

    return terminal_safe(scrub_secrets(traceback.format_exc()))


def print_traceback() -> None:
    """`debug_traceback` on stderr (CTXCHAT_DEBUG=1)."""
    with contextlib.suppress(OSError, ValueError):
        sys.stderr.write(debug_traceback())


def output_width() -> int | None:
    """stdout's width when it is a terminal (a table is fitted to it); None on a pipe,
    which gets every cell whole."""
    import os

    try:
        if not sys.stdout.isatty():
            return None
        return os.get_terminal_size(sys.stdout.fileno()).columns or None
    except (OSError, ValueError):
        return None


def warn(text: str) -> None:
    report(text, kind="warning")


def cut_note(event: ReplyCut) -> str:
    """What the user is told when a reply is kept cut (see `ctxchat.core.reply_limit`)."""
    return (
        f"the reply was {event.size:,} bytes: only its first {event.kept:,} were saved "
        "(raise [agent] max_reply_bytes to keep more)"
    )


GO_ON = "send 'go on' for the rest"


def cut_short_note(response: RunResponse, model: ChatModel) -> str | None:
    """Why a reply stopped before its end, naming the cap it hit and how to go on; None
    for a whole reply."""
    reason = response.cut_short
    if reason is None:
        return None
    if response.finish_reason != "length":
        return f"the reply was cut short ({reason})"
    settings = getattr(model, "settings", None)
    configured = getattr(settings, "max_tokens", None)
    if isinstance(configured, int):
        cap = f"[model] max_tokens = {configured:,}; raise it for longer replies"
    else:
        limits = getattr(model, "_limits", None)
        if getattr(limits, "uncapped", False):
            room = limits.reply_room  # type: ignore[union-attr]
            cap = (
                f"the {room:,} tokens kept for a reply, as [model] max_tokens is unset "
                "and the server has no cap of its own; set it for longer replies"
            )
        else:
            cap = "the server's own cap on a reply; [model] max_tokens may raise it"
    return f"the reply was cut short (max_tokens reached: {cap}; {GO_ON})"


def announce_lock_wait(session_id: str) -> None:
    """Said once when another process holds the session, before waiting up to 30 s."""
    report(f"waiting for session {session_id}: in use by another ctxchat process…", kind="")


def run_sync(coroutine: Coroutine[Any, Any, T]) -> T:
    import asyncio

    return asyncio.run(coroutine)


def confirm(question: str, *, yes: bool, stdin_tty: bool | None = None) -> bool:
    """Ask on the terminal; without one, refuse unless --yes said so already."""
    if yes:
        return True
    import sys

    interactive = sys.stdin.isatty() if stdin_tty is None else stdin_tty
    if not interactive:
        # The question, made the start of an error line: "delete session X: not confirmed".
        what = question.rstrip("?")
        raise UsageError(
            f"{what[:1].lower()}{what[1:]}: not confirmed; pass --yes to do it without asking"
        )
    return typer.confirm(question, default=False, err=True)
