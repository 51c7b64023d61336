"""The kiosk and mirror units as install.sh writes them: valid for systemd, and the right service."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from pi_install import (
    APP_GROUPS,
    APP_UNIT,
    MIRROR_UNIT,
    environment,
    existing_groups,
    parse_unit,
    require_tool,
    values,
)


def verify(folder: Path, *units: str) -> subprocess.CompletedProcess[str]:
    analyze = require_tool("systemd-analyze", "systemd")
    return subprocess.run(
        [analyze, "verify", *(f"./{unit}" for unit in units)],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.parametrize("display", ["kms", "desktop"])
def test_both_units_pass_systemd_analyze_verify(
    display: str, render: Callable[..., str], tmp_path: Path
) -> None:
    folder = tmp_path / "units"
    folder.mkdir()
    for unit in (APP_UNIT, MIRROR_UNIT):
        (folder / unit).write_text(render(unit, display=display))
    done = verify(folder, APP_UNIT, MIRROR_UNIT)
    # verify exits 0 even for an unknown key: any message at all is a failure here.
    assert done.returncode == 0, done.stderr
    assert done.stdout + done.stderr == ""


def test_verify_as_used_here_catches_a_misspelt_setting(
    render: Callable[..., str], tmp_path: Path
) -> None:
    text = render(APP_UNIT).replace("Restart=on-failure", "Restart=on-failure\nRestartSecs=5")
    (tmp_path / APP_UNIT).write_text(text)
    done = verify(tmp_path, APP_UNIT)
    assert "RestartSecs" in done.stdout + done.stderr


def test_verify_as_used_here_catches_a_missing_program(
    render: Callable[..., str], tmp_path: Path
) -> None:
    (tmp_path / APP_UNIT).write_text(render(APP_UNIT, DREAMTABLE_VENV=str(tmp_path / "no-venv")))
    done = verify(tmp_path, APP_UNIT)
    assert done.returncode != 0
    assert "no-venv/bin/companion" in done.stdout + done.stderr


def test_kiosk_runs_the_app_full_screen_as_the_user_on_the_console(
    render: Callable[..., str], companion_prefix: Path, tmp_path: Path
) -> None:
    unit = parse_unit(render(APP_UNIT, display="kms"))
    assert values(unit, "Service", "User") == ["pi"]
    companion = str(companion_prefix / "bin" / "companion")
    assert values(unit, "Service", "ExecStart") == [companion, "app", "--fullscreen"]
    assert values(unit, "Service", "Restart") == ["on-failure"]
    assert 1 <= int(values(unit, "Service", "RestartSec")[0]) <= 30
    # A bad config exits 2; restarting would only fill the journal with the same error.
    assert values(unit, "Service", "RestartPreventExitStatus") == ["2"]
    assert values(unit, "Unit", "StartLimitIntervalSec") == ["0"]
    assert values(unit, "Service", "StandardOutput") == ["journal"]
    assert values(unit, "Service", "StandardError") == ["journal"]
    env = environment(unit)
    assert env["KIVY_NO_ARGS"] == "1"
    assert env["KIVY_WINDOW"] == "sdl2"
    assert env["SDL_VIDEODRIVER"] == "kmsdrm"
    assert "DISPLAY" not in env
    assert env["XDG_CONFIG_HOME"] == str(tmp_path / "config")
    assert env["XDG_DATA_HOME"] == str(tmp_path / "data")
    # The kiosk owns the first console instead of the login prompt.
    assert values(unit, "Service", "TTYPath") == ["/dev/tty1"]
    assert "getty@tty1.service" in values(unit, "Unit", "Conflicts")
    assert values(unit, "Install", "WantedBy") == ["multi-user.target"]


def test_kiosk_on_a_desktop_opens_a_window_on_its_display(render: Callable[..., str]) -> None:
    unit = parse_unit(render(APP_UNIT, display="desktop"))
    env = environment(unit)
    assert env["SDL_VIDEODRIVER"] == "x11"
    assert env["DISPLAY"] == ":0"
    assert env["XAUTHORITY"] == "/home/pi/.Xauthority"
    assert values(unit, "Service", "TTYPath") == []
    assert values(unit, "Unit", "Conflicts") == []
    assert "display-manager.service" in values(unit, "Unit", "After")
    assert values(unit, "Install", "WantedBy") == ["graphical.target"]
    # It waits for the desktop's X server rather than failing before the session is up.
    assert "/tmp/.X11-unix/X0" in " ".join(values(unit, "Service", "ExecStartPre"))


def test_kiosk_gets_the_device_groups_that_exist_here(render: Callable[..., str]) -> None:
    unit = parse_unit(render(APP_UNIT))
    groups = values(unit, "Service", "SupplementaryGroups")
    # A group this system lacks would stop the unit from starting (status 216/GROUP).
    assert groups == existing_groups()
    assert set(groups) <= set(APP_GROUPS)


def test_mirror_serves_alone_after_the_network_and_never_beside_the_app(
    render: Callable[..., str], companion_prefix: Path
) -> None:
    unit = parse_unit(render(MIRROR_UNIT))
    assert values(unit, "Service", "User") == ["pi"]
    companion = str(companion_prefix / "bin" / "companion")
    assert values(unit, "Service", "ExecStart") == [companion, "serve"]
    assert values(unit, "Unit", "Conflicts") == [APP_UNIT]
    assert "network-online.target" in values(unit, "Unit", "After")
    assert "network-online.target" in values(unit, "Unit", "Wants")
    assert values(unit, "Service", "Restart") == ["on-failure"]
    assert values(unit, "Install", "WantedBy") == ["multi-user.target"]
    assert "SDL_VIDEODRIVER" not in environment(unit)


@pytest.mark.parametrize("unit_name", [APP_UNIT, MIRROR_UNIT])
@pytest.mark.parametrize("display", ["kms", "desktop"])
def test_rendering_fills_in_every_placeholder(
    unit_name: str, display: str, render: Callable[..., str]
) -> None:
    text = render(unit_name, display=display)
    assert "@" not in text.replace("getty@tty1", "")


def test_render_refuses_root_as_the_app_user(render: Callable[..., str]) -> None:
    with pytest.raises(AssertionError, match="refusing to run as root"):
        render(APP_UNIT, user="root")


def test_render_refuses_a_path_systemd_would_need_quoted(
    render: Callable[..., str], tmp_path: Path
) -> None:
    with pytest.raises(AssertionError, match="character systemd units would need quoted"):
        render(APP_UNIT, DREAMTABLE_VENV=str(tmp_path / "my venv"))
