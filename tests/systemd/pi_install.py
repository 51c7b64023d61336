"""Helpers for the Pi install tests: where the script is, reading unit files, needed tools."""

from __future__ import annotations

import grp
import queue
import shlex
import shutil
import signal
import subprocess
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import IO

import pytest

REPO = Path(__file__).resolve().parents[2]
INSTALL_SH = REPO / "systemd" / "install.sh"
APP_UNIT = "dreamtable.service"
MIRROR_UNIT = "dreamtable-mirror.service"
APP_GROUPS = ("video", "render", "input", "gpio")
# A fixed PATH: the script must find the system's python3, not a developer's shim.
PLAIN_PATH = "/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin"

Unit = dict[str, list[tuple[str, str]]]


def require_tool(name: str, package: str) -> str:
    """The path of `name`, or a failure saying which Debian package provides it."""
    path = shutil.which(name)
    if path is None:
        pytest.fail(f"{name} is not installed; apt-get install -y {package} (CI: .ci/run)")
    return path


def parse_unit(text: str) -> Unit:
    """A unit file as {section: [(key, value), ...]}, keeping repeated keys in order."""
    unit: Unit = {}
    section = ""
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("[") and line.endswith("]"):
            section = line[1:-1]
            unit.setdefault(section, [])
            continue
        key, _, value = line.partition("=")
        unit[section].append((key.strip(), value.strip()))
    return unit


def values(unit: Unit, section: str, key: str) -> list[str]:
    """Every value given to `key` in `section`, space-separated lists split out."""
    found: list[str] = []
    for name, value in unit.get(section, []):
        if name == key:
            found.extend(value.split())
    return found


def environment(unit: Unit) -> dict[str, str]:
    """The Environment= assignments of the [Service] section as a dict."""
    env: dict[str, str] = {}
    for name, value in unit.get("Service", []):
        if name == "Environment":
            for assignment in value.split():
                key, _, val = assignment.partition("=")
                env[key] = val
    return env


def existing_groups() -> list[str]:
    found = []
    for group in APP_GROUPS:
        try:
            grp.getgrnam(group)
        except KeyError:
            continue
        found.append(group)
    return found




# --- running a unit's command line outside systemd -------------------------------------------


@dataclass
class ServiceCommand:
    """What systemd would run for a unit: the command line, its environment and folder."""

    argv: list[str]
    env: dict[str, str]
    cwd: Path
    stop_timeout: float


def service_command(unit: Unit, runtime_dir: Path, home: Path) -> ServiceCommand:
    """The unit's ExecStart, Environment= and WorkingDirectory=, with %t as `runtime_dir`.

    systemd starts a service with an almost empty environment: PATH, HOME, LANG and the
    unit's own assignments; the test gives it the same, not the test runner's environment.
    """

    def resolve(value: str) -> str:
        value = value.replace("%t", str(runtime_dir))
        assert "%" not in value, f"a specifier the test does not resolve: {value}"
        return value

    (exec_start,) = [value for key, value in unit["Service"] if key == "ExecStart"]
    for name in values(unit, "Service", "RuntimeDirectory"):
        (runtime_dir / name).mkdir(mode=0o700, parents=True, exist_ok=True)
    env = {"PATH": PLAIN_PATH, "HOME": str(home), "LANG": "C.UTF-8"}
    env.update({key: resolve(value) for key, value in environment(unit).items()})
    (workdir,) = values(unit, "Service", "WorkingDirectory")
    (stop_timeout,) = values(unit, "Service", "TimeoutStopSec")
    return ServiceCommand(
        argv=[resolve(arg) for arg in shlex.split(exec_start)],
        env=env,
        cwd=Path(resolve(workdir)),
        stop_timeout=float(stop_timeout),
    )


class Running:
    """A started service command whose stdout and stderr are collected line by line."""

    def __init__(self, command: ServiceCommand, **env: str) -> None:
        self.process = subprocess.Popen(
            command.argv,
            env={**command.env, **env},
            cwd=command.cwd,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        self.stdout: queue.Queue[str] = queue.Queue()
        self.stderr_lines: list[str] = []
        threading.Thread(target=self._pump, args=(self.process.stdout, self.stdout.put), daemon=True).start()
        self._stderr_done = threading.Thread(
            target=self._pump, args=(self.process.stderr, self.stderr_lines.append), daemon=True
        )
        self._stderr_done.start()

    @staticmethod
    def _pump(stream: IO[str] | None, put: Callable[[str], None]) -> None:
        assert stream is not None
        for line in stream:
            put(line.rstrip("\n"))

    @property
    def stderr(self) -> str:
        return "\n".join(self.stderr_lines)

    def next_stdout_line(self, timeout: float) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                return self.stdout.get(timeout=0.1)
            except queue.Empty:
                if self.process.poll() is not None and self.stdout.empty():
                    break
        raise AssertionError(f"no line on stdout (exit status {self.process.poll()}):\n{self.stderr}")

    def terminate(self, timeout: float) -> int:
        """Sends SIGTERM, as `systemctl stop` does, and waits as long as the unit allows."""
        self.process.send_signal(signal.SIGTERM)
        try:
            status = self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            raise AssertionError(f"still running {timeout}s after SIGTERM:\n{self.stderr}") from None
        self._stderr_done.join(timeout=5)
        return status

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
