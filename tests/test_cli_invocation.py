"""One command's run is an object (`ctxchat.cli.invocation.Invocation`): the --config
given before the command name and the engines it opened live there, not in module
globals, so two commands run in one process share nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from ctxchat.cli.invocation import Invocation
from ctxchat.cli.main import execute


def test_the_config_named_before_the_command_is_that_runs_alone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    named = tmp_path / "named.toml"
    first, second = Invocation(), Invocation()

    assert execute(["--config", str(named), "config", "path"], first) == 0
    assert capsys.readouterr().out == f"{named}\n"
    assert execute(["config", "path"], second) == 0

    assert first.config == named
    assert second.config is None
    assert capsys.readouterr().out.strip() != str(named)


def test_the_engines_a_command_opened_are_its_own_to_close(
    capsys: pytest.CaptureFixture[str],
) -> None:
    listing, idle = Invocation(), Invocation()

    assert execute(["tools", "list"], listing) == 0
    assert execute(["config", "path"], idle) == 0

    assert len(listing.services) == 1
    assert idle.services == []
    listing.close()
    assert listing.services == []
