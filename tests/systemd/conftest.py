"""Fixtures for the Pi install tests: the install script, its rendered units, a plain user.

The script refuses root, and CI runs as root, so the steps that need a plain user run under
``setpriv`` as ``nobody``. A tool that is missing fails the test, it never skips it.
"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))  # so the tests import the helpers by name

from pi_install import INSTALL_SH, PLAIN_PATH, require_tool  # noqa: E402


@pytest.fixture
def companion_prefix() -> Path:
    """The virtual environment running these tests: its bin/companion is a real ExecStart."""
    prefix = Path(sys.executable).parent.parent
    if not os.access(prefix / "bin" / "companion", os.X_OK):
        pytest.fail(f"no executable {prefix}/bin/companion: install the project (make test does)")
    return prefix


@pytest.fixture
def render(companion_prefix: Path, tmp_path: Path) -> Callable[..., str]:
    """Renders a unit through `install.sh render`, for user "pi" and this test's own paths."""

    def run(unit: str, display: str = "kms", user: str = "pi", **env: str) -> str:
        full_env = {
            **os.environ,
            "DREAMTABLE_VENV": str(companion_prefix),
            "XDG_CONFIG_HOME": str(tmp_path / "config"),
            "XDG_DATA_HOME": str(tmp_path / "data"),
            **env,
        }
        done = subprocess.run(
            ["bash", str(INSTALL_SH), "render", unit, "--user", user, "--display", display],
            env=full_env,
            capture_output=True,
            text=True,
            timeout=30,
        )
        assert done.returncode == 0, done.stderr
        return done.stdout

    return run


@pytest.fixture
def as_plain_user() -> list[str]:
    """A command prefix that runs the rest as a user who is not root."""
    if os.geteuid() != 0:
        return []
    return [require_tool("setpriv", "util-linux"), "--reuid=65534", "--regid=65534", "--clear-groups"]


@pytest.fixture
def as_root() -> list[str]:
    """A command prefix that runs the rest as root, or as root of a user namespace."""
    if os.geteuid() == 0:
        return []
    return [require_tool("unshare", "util-linux"), "--user", "--map-root-user"]


@pytest.fixture
def shared_dir() -> Iterator[Path]:
    """A scratch folder the plain user can read (pytest's own tmp_path is root's alone)."""
    path = Path(tempfile.mkdtemp(prefix="dreamtable-install-"))
    path.chmod(stat.S_IRWXU | stat.S_IRGRP | stat.S_IXGRP | stat.S_IROTH | stat.S_IXOTH)
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


@pytest.fixture
def install_env(shared_dir: Path) -> dict[str, str]:
    """The environment for a dry run: every path of the install inside `shared_dir`."""
    return {
        "PATH": PLAIN_PATH,
        "HOME": str(shared_dir / "home"),
        "LANG": "C.UTF-8",
        "DREAMTABLE_VENV": str(shared_dir / "venv"),
        "XDG_CONFIG_HOME": str(shared_dir / "config"),
        "XDG_DATA_HOME": str(shared_dir / "data"),
    }
