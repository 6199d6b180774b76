"""What several commands share: option types, and opening the engine lazily."""

from __future__ import annotations

import sys
from collections.abc import Coroutine
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer

if TYPE_CHECKING:
    from ctxchat.config.loading import Config
    from ctxchat.services.conversations import ChatService
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


ConfigOption = Annotated[
    Path | None,
    typer.Option(
        "--config",
        metavar="FILE",
        help="Config file to read (default: $CTXCHAT_CONFIG, else `ctxchat config path`).",
        show_default=False,
    ),
]
# `ctxchat --config FILE COMMAND`: the file every command reads unless its own --config
# names another. Set once, by the root callback, before the command runs.
_global_config: list[Path] = []


def use_config_file(path: Path | None) -> None:
    """Remember the --config given before the command name."""
    _global_config[:] = [path] if path is not None else []


def config_file(path: Path | None) -> Path | None:
    """The config file a command was told to read: its own --config, else the global one
    (None: `CTXCHAT_CONFIG`, else the default path, as `config_path` decides)."""
    if path is not None:
        return path
    return _global_config[0] if _global_config else None


SessionArg = Annotated[
    str,
    typer.Argument(
        help="Session id, unique id prefix, or exact title.",
        metavar="SESSION",
        autocompletion=complete_session,
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
    return config


def session_store() -> SessionStore:
    from ctxchat.core.paths import sessions_dir
    from ctxchat.storage.store import SessionStore

    return SessionStore(sessions_dir())


def session_catalog() -> SessionCatalog:
    """The saved sessions, for commands that only list them (no agent is built)."""
    from ctxchat.storage.catalog import SessionCatalog

    return SessionCatalog(session_store())


_open_services: list[ChatService] = []


def chat_service(
    config: Config, *, no_memory: bool = False, temporary: bool = False
) -> ChatService:
    """The engine for one command; `close_services` closes it when the command is over."""
    from ctxchat.services.build import build_agent
    from ctxchat.services.conversations import ChatService

    service = ChatService(
        build_agent(config, no_memory=no_memory, temporary=temporary),
        session_store(),
        model_chosen=config.origins.get("model", "file") != "file",
        context_window=config.model.context_window,
        ephemeral=temporary,
    )
    service.on_lock_wait = announce_lock_wait  # the REPL puts its own console in its place
    _open_services.append(service)
    return service


def report(message: str, *, kind: str = "error") -> None:
    """One line on stderr (`ctxchat: KIND: message`), whatever the message holds."""
    flat = " ".join(str(message).split())
    try:
        sys.stderr.write(f"ctxchat: {kind}: {flat}\n" if kind else f"ctxchat: {flat}\n")
        sys.stderr.flush()
    except (OSError, ValueError):
        pass  # stderr is gone; the exit code still tells


def warn(text: str) -> None:
    report(text, kind="warning")


def announce_lock_wait(session_id: str) -> None:
    """Said once when another process holds the session, before waiting up to 30 s."""
    report(f"waiting for session {session_id}: in use by another ctxchat process…", kind="")


def close_services() -> None:
    while _open_services:
        _open_services.pop().close()


def run_sync(coroutine: Coroutine[Any, Any, T]) -> T:
    import asyncio

    return asyncio.run(coroutine)


def confirm(question: str, *, yes: bool, stdin_tty: bool | None = None) -> bool:
    """Ask on the terminal; without one, refuse unless --yes said so already."""
    if yes:
        return True
    import sys

    from ctxchat.core.errors import UsageError

    interactive = sys.stdin.isatty() if stdin_tty is None else stdin_tty
    if not interactive:
        # The question, made the start of an error line: "delete session X: not confirmed".
        what = question.rstrip("?")
        raise UsageError(
            f"{what[:1].lower()}{what[1:]}: not confirmed; pass --yes to do it without asking"
        )
    return typer.confirm(question, default=False, err=True)
