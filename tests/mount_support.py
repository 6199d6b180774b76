"""Running `ctxchat` with part of the file system changed for it alone, in a private mount
namespace (`unshare -m`): a path mounted read-only, a directory on a tiny tmpfs (a full
disk). File modes would not do, since the tests may run as root, which ignores them.
Where namespaces are not allowed, the tests using these are skipped."""

from __future__ import annotations

import functools
import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import ctxchat_executable

READ_ONLY = 'mount --bind "$1" "$1" && mount -o remount,ro,bind "$1" "$1" && shift && exec "$@"'


@functools.cache
def unshare_command() -> tuple[str, ...] | None:
    """How to get a private mount namespace here: as root, or else inside a user namespace
    of one's own (where unprivileged ones are allowed); None when neither works."""
    unshare = shutil.which("unshare")
    if unshare is None:
        return None
    probe = Path(__file__).parent
    for command in ((unshare, "-m"), (unshare, "-r", "-m")):
        try:
            result = subprocess.run(
                [*command, "sh", "-c", READ_ONLY, "sh", str(probe), "touch", str(probe)],
                capture_output=True,
                timeout=30,
            )
        except OSError:
            return None
        # Mounted read-only, touching the directory itself must fail just so.
        if result.returncode != 0 and b"Read-only file system" in result.stderr:
            return command
    return None


needs_read_only_mount = pytest.mark.skipif(
    unshare_command() is None, reason="no private mount namespace (unshare -m) here"
)


def read_only_argv(path: Path, *args: str) -> list[str]:
    """The command line running `ctxchat ARGS` with `path` (a file or a directory)
    mounted read-only for it alone."""
    unshare = unshare_command()
    assert unshare is not None
    return [*unshare, "sh", "-c", READ_ONLY, "sh", str(path), ctxchat_executable(), *args]


def ctxchat_read_only(
    path: Path, *args: str, env: dict[str, str], stdin: str = ""
) -> subprocess.CompletedProcess[str]:
    """`ctxchat ARGS` with `path` mounted read-only for it alone."""
    result = subprocess.run(
        read_only_argv(path, *args), input=stdin.encode(), capture_output=True, env=env, timeout=60
    )
    return subprocess.CompletedProcess(
        result.args, result.returncode, result.stdout.decode(), result.stderr.decode()
    )


def in_namespace(script: str, *args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """`sh -c SCRIPT sh ARGS` in a private mount namespace, `ctxchat` on its PATH."""
    unshare = unshare_command()
    assert unshare is not None
    bin_dir = str(Path(ctxchat_executable()).parent)
    env = {**env, "PATH": f"{bin_dir}:{env.get('PATH', '/usr/bin:/bin')}"}
    result = subprocess.run(
        [*unshare, "sh", "-c", script, "sh", *args],
        capture_output=True,
        env=env,
        timeout=120,
    )
    return subprocess.CompletedProcess(
        result.args, result.returncode, result.stdout.decode(), result.stderr.decode()
    )
