"""What ctxchat keeps stays private: every dir it creates is 0700, whatever the umask, and a
secret in a rejected config value is never printed back."""

from __future__ import annotations

import os
import stat
import subprocess
from pathlib import Path

import pytest
from cli_support import assert_clean_error, write_config
from conftest import ctxchat_executable


def run_with_umask(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [ctxchat_executable(), *args],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        env=env,
        timeout=60,
        umask=0o022,  # the usual one, which mkdir(parents=True) would pass on to parents
    )


def test_first_command_creates_every_dir_private(cli_env: dict[str, str], tmp_path: Path) -> None:
    home = tmp_path / "fresh" / "nested" / "ctxchat"
    env = {**cli_env, "CTXCHAT_HOME": str(home)}

    result = run_with_umask(env, "sessions", "list")

    assert result.returncode == 0, result.stderr
    created = [tmp_path / "fresh", tmp_path / "fresh" / "nested", home, home / "sessions"]
    modes = {str(p.relative_to(tmp_path)): oct(stat.S_IMODE(p.stat().st_mode)) for p in created}
    assert modes == dict.fromkeys(modes, "0o700")


def test_a_dir_that_already_exists_keeps_its_mode(cli_env: dict[str, str], tmp_path: Path) -> None:
    shared = tmp_path / "shared"
    shared.mkdir(mode=0o755)
    os.chmod(shared, 0o755)
    env = {**cli_env, "CTXCHAT_HOME": str(shared / "ctxchat")}

    assert run_with_umask(env, "sessions", "list").returncode == 0

    assert stat.S_IMODE(shared.stat().st_mode) == 0o755
    assert stat.S_IMODE((shared / "ctxchat").stat().st_mode) == 0o700


@pytest.mark.parametrize(
    ("toml", "secret", "expected"),
    [
        (
            '[model]\napi_key = ["sk-live-SECRET"]\n',
            "sk-live-SECRET",
            "model.api_key: expected a string (or omitted), got a list",
        ),
        (
            "[model]\napi_key = 12345678\n",
            "12345678",
            "model.api_key: expected a string (or omitted), got an integer",
        ),
        (
            '[[providers]]\ntype = "sql_history"\nurl = ["postgresql://me:hunter2@db/x"]\n',
            "hunter2",
            "providers[0].url: expected a string (or omitted), got a list",
        ),
        (
            '[model]\nbase_url = "ftp://me:hunter2@host/v1?key=qsecret"\n',
            "hunter2",
            "model.base_url: 'ftp://***@host/v1?key=***' is not an http:// or https:// URL",
        ),
    ],
)
def test_a_rejected_secret_is_never_echoed(
    cli_env: dict[str, str], ctxchat_home: Path, toml: str, secret: str, expected: str
) -> None:
    path = write_config(ctxchat_home, toml)
    result = subprocess.run(
        [ctxchat_executable(), "config", "validate"],
        capture_output=True,
        env=cli_env,
        timeout=60,
        text=True,
    )
    line = assert_clean_error(result, 2, f"{path}: {expected}")
    assert secret not in line
    assert "qsecret" not in line
