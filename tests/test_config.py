"""The TOML config: defaults, the places it is looked for, and clear errors."""

from __future__ import annotations

import subprocess
import sys

import pytest

from companion.config import (
    DEFAULT_CONFIG_TEXT, Config, ConfigError, default_config_path, load_config, load_config_text,
)


def test_no_config_file_means_all_defaults():
    config = load_config()
    assert config == Config()
    assert config.mirror.port == 8080
    assert config.data.database_path.name == "games.sqlite3"


def test_the_documented_default_file_is_the_defaults():
    loaded = load_config_text(DEFAULT_CONFIG_TEXT, "default.toml")
    assert loaded.mirror == Config().mirror
    assert loaded.app == Config().app
    assert loaded.camera == Config().camera


def test_xdg_location_is_read(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    path = default_config_path()
    path.parent.mkdir(parents=True)
    path.write_text("[mirror]\nport = 9001\n")
    assert load_config().mirror.port == 9001


def test_environment_variable_overrides_xdg(tmp_path, monkeypatch):
    named = tmp_path / "other.toml"
    named.write_text("[app]\ntext_scale = 1.5\n")
    monkeypatch.setenv("DREAMTABLE_CONFIG", str(named))
    assert load_config().app.text_scale == 1.5


def test_explicit_path_beats_the_environment(tmp_path, monkeypatch):
    (tmp_path / "env.toml").write_text("[mirror]\nport = 1111\n")
    (tmp_path / "cli.toml").write_text("[mirror]\nport = 2222\n")
    monkeypatch.setenv("DREAMTABLE_CONFIG", str(tmp_path / "env.toml"))
    assert load_config(tmp_path / "cli.toml").mirror.port == 2222


def test_a_named_config_that_does_not_exist_is_an_error(tmp_path):
    with pytest.raises(ConfigError, match="no such config file"):
        load_config(tmp_path / "nope.toml")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[mirror]\nport = 'eighty'", "demo.toml: [mirror] port: must be a whole number, not 'eighty'"),
        ("[mirror]\nport = 70000", "demo.toml: [mirror] port: must be between 1 and 65535"),
        ("[mirror]\nprot = 1", "demo.toml: [mirror] prot: unknown setting"),
        ("[mirorr]\nport = 1", "demo.toml: [mirorr]: unknown section"),
        ("[game]\ndice = 'loaded'", "demo.toml: [game] dice: must be one of camera, typed, virtual"),
        ("[app]\nfullscreen = 1", "demo.toml: [app] fullscreen: must be true or false"),
        ("[mirror]\ninterfaces = [1]", "demo.toml: [mirror] interfaces: must be a list of strings"),
        ("[camera]\nsource = 'folder'", "demo.toml: [camera] path: the folder source needs a path"),
        ("mirror = 3", "demo.toml: [mirror] must be a table"),
        ("[app\n", "demo.toml: not valid TOML"),
    ],
)
def test_bad_settings_name_file_section_and_key(text, message):
    with pytest.raises(ConfigError) as err:
        load_config_text(text, "demo.toml")
    assert message in str(err.value)


def test_buttons_and_lights_are_kept_for_hardware_to_validate():
    config = load_config_text("[buttons.confirm]\npin = 17\n[lights]\ndaemon = 5\n")
    assert config.buttons == {"confirm": {"pin": 17}}
    assert config.lights == {"daemon": 5}


def test_the_command_reports_a_bad_config_in_one_line(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text("[mirror]\nport = 'x'\n")
    done = subprocess.run([sys.executable, "-m", "companion", "--config", str(bad)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr.strip() == f"companion: {bad}: [mirror] port: must be a whole number, not 'x'"


def test_companion_without_a_command_prints_the_overview():
    done = subprocess.run([sys.executable, "-m", "companion"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0
    assert "somnicum" in done.stdout
    assert "Run 'companion COMMAND --help'" in done.stdout
