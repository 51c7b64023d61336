"""Helpers for the Pi install tests: where the script is, reading unit files, needed tools."""

from __future__ import annotations

import grp
import shutil
from pathlib import Path

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


