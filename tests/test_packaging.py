"""Packaging: the wheel installs and runs in a fresh venv; plugins register by entry point."""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
import textwrap
import venv
from pathlib import Path

import pytest
from fakeopenai import FakeOpenAI

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent


def pip(*args: str, cwd: Path | None = None) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "pip", "--disable-pip-version-check", "-q", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    pip("wheel", "--no-deps", "--no-build-isolation", "-w", str(out), str(ROOT))
    (built,) = out.glob("ctxchat-*.whl")
    return built


def test_wheel_installs_into_a_fresh_venv_and_runs(wheel: Path, tmp_path: Path) -> None:
    env_dir = tmp_path / "fresh"
    venv.create(env_dir, with_pip=False)
    python = env_dir / "bin" / "python"
    site = Path(
        subprocess.check_output(
            [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
            text=True,
        ).strip()
    )
    # Dependencies come from the test environment (no network needed); ctxchat itself only
    # from the wheel: a path line in a .pth file does not run that directory's own .pth
    # files, so the editable install of the checkout stays invisible.
    (site / "deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    pip("install", "--no-deps", "--target", str(site), str(wheel))

    where = subprocess.check_output(
        [
            str(python),
            "-c",
            "import ctxchat, ctxchat.providers.in_memory_history as m; "
            "print(ctxchat.__file__); print(m.__file__)",
        ],
        text=True,
        cwd=tmp_path,
    ).split()
    assert all(path.startswith(str(site)) for path in where), where
    from ctxchat import __version__

    # The console script the wheel declares, run by the fresh venv's interpreter.
    script = site / "bin" / "ctxchat"
    version = subprocess.run(
        [str(python), str(script), "--version"], capture_output=True, text=True, cwd=tmp_path
    )
    assert version.returncode == 0, version.stderr
    assert version.stdout.strip() == f"ctxchat {__version__}"


PLUGIN_MODULE = textwrap.dedent(
    '''
    """A third-party provider: adds one instruction block."""
    from dataclasses import dataclass
    from typing import Any

    from ctxchat.options import option
    from ctxchat.provider import ContextProvider


    @dataclass(frozen=True)
    class Options:
        motto: str = option("be kind", help="what to say")


    class MottoProvider(ContextProvider):
        Options = Options

        async def before_run(self, *, agent: Any, session: Any, context: Any, state: Any) -> None:
            context.extend_instructions(self.source_id, "Motto: " + self.options.motto)
    '''
)
PLUGIN_PYPROJECT = textwrap.dedent(
    """
    [build-system]
    requires = ["setuptools"]
    build-backend = "setuptools.build_meta"

    [project]
    name = "ctxchat-motto"
    version = "0.0.1"

    [project.entry-points."ctxchat.providers"]
    motto = "ctxchat_motto:MottoProvider"

    [tool.setuptools]
    py-modules = ["ctxchat_motto"]
    """
)
RUN_ONE_TURN = textwrap.dedent(
    """
    import asyncio
    from ctxchat.build import build_agent
    from ctxchat.config import load_config
    from ctxchat.registry import provider_entry_points
    from ctxchat.session import Session

    assert "motto" in provider_entry_points()
    agent = build_agent(load_config())
    asyncio.run(agent.run(Session(), "hello"))
    """
)


def test_third_party_provider_is_found_by_entry_point(
    tmp_path: Path, fake_openai: FakeOpenAI, cli_env: dict[str, str], ctxchat_home: Path
) -> None:
    source = tmp_path / "plugin"
    source.mkdir()
    (source / "pyproject.toml").write_text(PLUGIN_PYPROJECT)
    (source / "ctxchat_motto.py").write_text(PLUGIN_MODULE)
    target = tmp_path / "site"
    pip("install", "--no-deps", "--no-build-isolation", "--target", str(target), str(source))

    ctxchat_home.mkdir(parents=True, exist_ok=True)
    (ctxchat_home / "config.toml").write_text(
        '[[providers]]\ntype = "in_memory_history"\nsource_id = "history"\n\n'
        '[[providers]]\ntype = "motto"\nsource_id = "mine"\nmotto = "measure twice"\n'
    )
    env = {**cli_env, "PYTHONPATH": os.pathsep.join([str(target), cli_env.get("PYTHONPATH", "")])}
    done = subprocess.run(
        [sys.executable, "-c", RUN_ONE_TURN], env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    system = fake_openai.chat_requests()[0].messages[0]["content"]
    assert '<context source="mine">\nMotto: measure twice\n</context>' in system

    # A typo in the plugin's option is caught with the nearest name, like a built-in's.
    (ctxchat_home / "config.toml").write_text('[[providers]]\ntype = "motto"\nmoto = "x"\n')
    done = subprocess.run(
        [sys.executable, "-c", RUN_ONE_TURN], env=env, capture_output=True, text=True
    )
    assert "providers[0].moto: unknown option (did you mean 'motto'?)" in done.stderr
