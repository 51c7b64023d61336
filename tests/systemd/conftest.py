"""Fixtures for the Pi install tests: the install script, its rendered units, a plain user.

The script refuses root, and CI runs as root, so the steps that need a plain user run under
``setpriv`` as ``nobody``. A tool that is missing fails the test, it never skips it.
"""

from __future__ import annotations

import os
import shutil
import socket
import sqlite3
import stat
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))  # so the tests import the helpers by name

from pi_install import INSTALL_SH, PLAIN_PATH, require_tool  # noqa: E402

from companion.journal import Journal  # noqa: E402
from companion.table import Table  # noqa: E402


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
def plain_user_script(as_plain_user: list[str]) -> Iterator[Path]:
    """install.sh where the plain user can read it: as root, a copy of the checkout's parts the
    script reads (its folder and pyproject.toml) in a world-readable folder, since the checkout
    may sit in a home only root can enter."""
    if not as_plain_user:
        yield INSTALL_SH
        return
    checkout = Path(tempfile.mkdtemp(prefix="dreamtable-checkout-"))
    try:
        shutil.copytree(INSTALL_SH.parent, checkout / "systemd")
        shutil.copy2(INSTALL_SH.parent.parent / "pyproject.toml", checkout / "pyproject.toml")
        for path in [checkout, *checkout.rglob("*")]:
            path.chmod(0o755 if path.is_dir() or os.access(path, os.X_OK) else 0o644)
        yield checkout / "systemd" / INSTALL_SH.name
    finally:
        shutil.rmtree(checkout, ignore_errors=True)


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


@dataclass
class TableHome:
    """A Pi user's Dreamtable files: a config keeping the mirror on loopback, one game played."""

    config: Path
    database: Path
    game_id: int
    entries: list[dict[str, Any]]
    port: int

    def assert_journal_intact(self) -> None:
        """The journal file is sound and holds exactly the game it held before."""
        with sqlite3.connect(f"file:{self.database}?mode=ro", uri=True) as db:
            assert db.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        with Journal(self.database) as journal:
            assert [entry.to_json() for entry in journal.entries(self.game_id)] == self.entries
            table = Table.resume(journal, self.game_id)
            assert table.seq == len(self.entries) - 1
            table.close()


def free_loopback_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def table_home(tmp_path: Path) -> TableHome:
    """The files at the XDG paths `render` puts in the units, with a CHAINsomnia game in play."""
    port = free_loopback_port()
    config = tmp_path / "config" / "dreamtable" / "config.toml"
    config.parent.mkdir(parents=True)
    # Tests use loopback only: the mirror listens and announces on 127.0.0.1.
    config.write_text(f'[mirror]\nport = {port}\ninterfaces = ["127.0.0.1"]\n', encoding="utf-8")
    database = tmp_path / "data" / "dreamtable" / "games.sqlite3"
    database.parent.mkdir(parents=True)
    with Journal(database) as journal:
        table = Table.new(
            journal, "chainsomnia", {"players": 4, "characters": ["ryan", "chloe", "isaac", "timi"], "seed": 7}
        )
        for _ in range(3):
            outcome = table.submit({"type": "end_turn"})
            assert outcome.accepted, outcome.error
        game_id = table.game_id
        table.close()
        entries = [entry.to_json() for entry in journal.entries(game_id)]
    return TableHome(config, database, game_id, entries, port)
