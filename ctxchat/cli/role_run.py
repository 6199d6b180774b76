"""`run --role NAME --arg NAME=VALUE`: the role a run starts with, or a resumed session's."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from ctxchat.core.errors import UsageError

if TYPE_CHECKING:
    from ctxchat.config.loading import Config
    from ctxchat.config.roles import AppliedRole
    from ctxchat.storage.store import SessionStore

ROLE_PANEL = "Role"


def complete_role(incomplete: str) -> list[str]:
    """Shell completion: the config's role names that start with the text."""
    try:
        from ctxchat.cli.common import load_config

        return [name for name in load_config(None).roles if name.startswith(incomplete)]
    except Exception:  # completion must never print a traceback into the shell
        return []


RoleOption = Annotated[
    str | None,
    typer.Option(
        "--role",
        metavar="NAME",
        help="Run with this [roles.NAME] preset (a resumed session keeps its own).",
        autocompletion=complete_role,
        rich_help_panel=ROLE_PANEL,
        show_default=False,
    ),
]
ArgOption = Annotated[
    list[str] | None,
    typer.Option(
        "--arg",
        metavar="NAME=VALUE",
        help="A value for the role's {{NAME}} (repeatable).",
        rich_help_panel=ROLE_PANEL,
        show_default=False,
    ),
]


def resumed_role(store: SessionStore, session: str | None, latest: bool) -> str | None:
    """The role of the session a run resumes, read before the agent is built (the role
    decides which providers it has)."""
    if session is not None:
        return store.load(store.resolve(session)).role
    if latest:
        found = next((s for s in store.list() if s.turns > 0), None)
        return found.role if found is not None else None
    return None


def choose_role(
    config: Config,
    name: str | None,
    arguments: list[str] | None,
    *,
    store: SessionStore,
    session: str | None,
    latest: bool,
) -> tuple[Config, AppliedRole | None]:
    """The config with the run's role laid over it: `--role`, else the resumed session's.
    A session's role the config no longer defines is said in a warning and left off."""
    from ctxchat.config.roles import apply_role, parse_arguments

    values = parse_arguments(arguments or [])
    if name is None:
        kept = resumed_role(store, session, latest)
        if kept is None:
            if arguments:
                raise UsageError("--arg fills a role's {{NAME}}: give the role with --role")
            return config, None
        if kept not in config.roles:
            from ctxchat.cli.common import warn

            warn(f"the session's role '{kept}' is no longer in the config: going on without it")
            return config, None
        name = kept
    return apply_role(config, name, values)
