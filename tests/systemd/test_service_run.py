"""The units' command lines, run as systemd would run them: they start, serve, stop on SIGTERM.

Each test renders a unit with install.sh, takes its ExecStart, Environment= and
WorkingDirectory= (``pi_install.service_command``) and runs that, with the almost empty
environment systemd gives a service. A game is in the journal beforehand; after the stop the
journal must hold exactly that game, sound.
"""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from pi_install import APP_UNIT, MIRROR_UNIT, Running, parse_unit, require_tool, service_command
from ui.testing import VirtualDisplay


@pytest.fixture
def started() -> Iterator[list[Running]]:
    """Whatever a test starts is killed at the end, whatever happened."""
    running: list[Running] = []
    yield running
    for service in running:
        service.kill()


def test_mirror_unit_serves_the_game_and_stops_cleanly_on_sigterm(
    render: Callable[..., str], table_home, tmp_path: Path, started: list[Running]
) -> None:
    command = service_command(parse_unit(render(MIRROR_UNIT)), tmp_path / "run", tmp_path / "home")
    assert command.argv[1:] == ["serve"]
    mirror = Running(command)
    started.append(mirror)

    ready = json.loads(mirror.next_stdout_line(timeout=60))
    assert ready["port"] == table_home.port
    assert ready["game"] == table_home.game_id
    with urllib.request.urlopen(f"http://127.0.0.1:{table_home.port}/", timeout=10) as page:
        assert page.status == 200

    status = mirror.terminate(timeout=command.stop_timeout)
    assert status == 0, mirror.stderr
    assert "SIGTERM received, stopping" in mirror.stderr
    assert "Traceback" not in mirror.stderr
    table_home.assert_journal_intact()


def test_kiosk_unit_starts_the_app_under_xvfb_and_stops_cleanly_on_sigterm(
    render: Callable[..., str], table_home, tmp_path: Path, started: list[Running]
) -> None:
    require_tool("Xvfb", "xvfb")
    home = tmp_path / "home"
    home.mkdir()
    command = service_command(parse_unit(render(APP_UNIT, display="kms")), tmp_path / "run", home)
    assert command.argv[1:] == ["app", "--fullscreen"]
    with VirtualDisplay(800, 480) as display:
        # Only the screen differs from the Pi's: an X server instead of KMS/DRM. The app says
        # when its first frame is on screen (the hook bench/ui.py uses).
        app = Running(
            command, SDL_VIDEODRIVER="x11", DISPLAY=display.display, DREAMTABLE_FIRST_FRAME="1"
        )
        started.append(app)
        ready = app.next_stdout_line(timeout=120)
        assert ready.startswith("first-frame "), ready
        status = app.terminate(timeout=command.stop_timeout)
    assert status == 0, app.stderr
    assert "Traceback" not in app.stderr
    table_home.assert_journal_intact()
