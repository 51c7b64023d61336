"""``companion app`` refuses a bad hardware config before any window opens."""

from __future__ import annotations

import subprocess
import sys


def test_a_panel_config_naming_a_pin_twice_stops_the_app_with_the_entry_named(tmp_path):
    config = tmp_path / "config.toml"
    config.write_text("[buttons]\nconfirm = 17\nback = 17\n")
    done = subprocess.run([sys.executable, "-m", "companion", "--config", str(config), "app"],
                          capture_output=True, text=True, timeout=60, env={"PATH": "/usr/bin:/bin",
                          "HOME": str(tmp_path), "DISPLAY": ""})
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("companion app: ")
    assert str(config) in lines[0] and "17" in lines[0] and "[buttons" in lines[0]


def test_a_light_on_a_pin_not_on_the_header_stops_the_app(tmp_path):
    config = tmp_path / "config.toml"
    config.write_text("[lights]\nseat_1 = 99\n")
    done = subprocess.run([sys.executable, "-m", "companion", "--config", str(config), "app"],
                          capture_output=True, text=True, timeout=60, env={"PATH": "/usr/bin:/bin",
                          "HOME": str(tmp_path), "DISPLAY": ""})
    assert done.returncode == 2
    assert "[lights" in done.stderr and "seat_1" in done.stderr
