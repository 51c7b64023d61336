"""Dreamtable's one configuration file.

The config is TOML. It is looked for, in order, at the path given by ``--config``, by the
``DREAMTABLE_CONFIG`` environment variable, and at ``$XDG_CONFIG_HOME/dreamtable/config.toml``
(``~/.config/dreamtable/config.toml``). A missing file at the default place means "all
defaults"; a missing file that was asked for by name is an error.

Every setting has a default. Each section is a frozen dataclass below; loading checks every key
against its field's type and names the file, the section and the key of anything wrong:

>>> load_config_text('[mirror]\\nport = "eighty"', "demo.toml")
Traceback (most recent call last):
...
companion.config.ConfigError: demo.toml: [mirror] port: must be a whole number, not 'eighty'
"""

from __future__ import annotations

import dataclasses
import os
import tomllib
import typing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ENV_VAR = "DREAMTABLE_CONFIG"


class ConfigError(ValueError):
    """A config file that cannot be used; the message names the file, section and key."""


def xdg_config_home() -> Path:
    return Path(os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config")


def xdg_data_home() -> Path:
    return Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")


def default_config_path() -> Path:
    return xdg_config_home() / "dreamtable" / "config.toml"


def default_database_path() -> Path:
    return xdg_data_home() / "dreamtable" / "games.sqlite3"


@dataclass(frozen=True)
class AppConfig:
    """The touchscreen app."""

    fullscreen: bool = False
    width: int = 800
    height: int = 480
    text_scale: float = 1.0
    log_level: str = "INFO"

    def check(self) -> list[tuple[str, str]]:
        problems = []
        if self.log_level.upper() not in {"DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"}:
            problems.append(("log_level", "must be one of DEBUG, INFO, WARNING, ERROR, CRITICAL"))
        if not 0.5 <= self.text_scale <= 3.0:
            problems.append(("text_scale", "must be between 0.5 and 3.0"))
        if self.width < 320 or self.height < 240:
            problems.append(("width", "the window must be at least 320x240"))
        return problems


@dataclass(frozen=True)
class DataConfig:
    """Where games are kept."""

    database: str = ""  # empty: $XDG_DATA_HOME/dreamtable/games.sqlite3
    catalog: str = ""  # empty: the catalog shipped in companion/data

    @property
    def database_path(self) -> Path:
        return Path(self.database).expanduser() if self.database else default_database_path()

    def check(self) -> list[tuple[str, str]]:
        return []


@dataclass(frozen=True)
class GameConfig:
    """How chance and cards come in at this table."""

    dice: str = "typed"  # camera | typed | virtual
    decks: str = "physical"  # physical | digital

    def check(self) -> list[tuple[str, str]]:
        problems = []
        if self.dice not in {"camera", "typed", "virtual"}:
            problems.append(("dice", "must be one of camera, typed, virtual"))
        if self.decks not in {"physical", "digital"}:
            problems.append(("decks", "must be one of physical, digital"))
        return problems


@dataclass(frozen=True)
class MirrorConfig:
    """The phones' mirror page and the zeroconf announcement."""

    enabled: bool = True
    port: int = 8080
    interfaces: list[str] = field(default_factory=list)  # empty: all interfaces
    max_clients: int = 64
    max_clients_per_address: int = 8

    def check(self) -> list[tuple[str, str]]:
        problems = []
        if not 1 <= self.port <= 65535:
            problems.append(("port", "must be between 1 and 65535"))
        if self.max_clients < 1 or self.max_clients_per_address < 1:
            problems.append(("max_clients", "must be at least 1"))
        return problems


@dataclass(frozen=True)
class CameraConfig:
    """The camera above the table."""

    source: str = "none"  # none | picamera2 | usb | folder
    device: int = 0  # usb: the VideoCapture index
    path: str = ""  # folder: a folder of images or a video file
    min_confidence: float = 0.9  # below this a reading is shown to the players to confirm

    def check(self) -> list[tuple[str, str]]:
        problems = []
        if self.source not in {"none", "picamera2", "usb", "folder"}:
            problems.append(("source", "must be one of none, picamera2, usb, folder"))
        if self.source == "folder" and not self.path:
            problems.append(("path", "the folder source needs a path"))
        if not 0.0 <= self.min_confidence <= 1.0:
            problems.append(("min_confidence", "must be between 0 and 1"))
        return problems


@dataclass(frozen=True)
class Config:
    """The whole configuration, one frozen dataclass per TOML section."""

    app: AppConfig = field(default_factory=AppConfig)
    data: DataConfig = field(default_factory=DataConfig)
    game: GameConfig = field(default_factory=GameConfig)
    mirror: MirrorConfig = field(default_factory=MirrorConfig)
    camera: CameraConfig = field(default_factory=CameraConfig)
    # Sections validated by their own module (hardware/buttons.py, hardware/lights.py) at
    # start-up, where the pin numbers mean something; kept here as plain tables.
    buttons: dict[str, Any] = field(default_factory=dict)
    lights: dict[str, Any] = field(default_factory=dict)
    source: str = "<defaults>"


_RAW_SECTIONS = {"buttons", "lights"}


def _type_name(t: Any) -> str:
    return {bool: "true or false", int: "a whole number", float: "a number", str: "a string"}.get(
        t, "a list of strings"
    )


def _check_value(value: Any, expected: Any) -> bool:
    if expected is bool:
        return isinstance(value, bool)
    if expected is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if expected is float:
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if expected is str:
        return isinstance(value, str)
    if typing.get_origin(expected) is list:
        return isinstance(value, list) and all(isinstance(v, str) for v in value)
    raise TypeError(f"unsupported config type {expected!r}")


def _build_section(cls: type, raw: Any, where: str, section: str) -> Any:
    if not isinstance(raw, dict):
        raise ConfigError(f"{where}: [{section}] must be a table")
    hints = typing.get_type_hints(cls)
    known = {f.name for f in dataclasses.fields(cls)}
    values = {}
    for key, value in raw.items():
        if key not in known:
            raise ConfigError(
                f"{where}: [{section}] {key}: unknown setting (known: {', '.join(sorted(known))})"
            )
        expected = hints[key]
        if not _check_value(value, expected):
            raise ConfigError(
                f"{where}: [{section}] {key}: must be {_type_name(expected)}, not {value!r}"
            )
        values[key] = float(value) if expected is float else value
    built = cls(**values)
    for key, problem in built.check():
        raise ConfigError(f"{where}: [{section}] {key}: {problem}")
    return built


def config_from_dict(raw: dict[str, Any], where: str = "<config>") -> Config:
    """Validates a parsed TOML document and returns the Config it describes."""
    hints = typing.get_type_hints(Config)
    sections: dict[str, Any] = {}
    for name, value in raw.items():
        if name in _RAW_SECTIONS:
            if not isinstance(value, dict):
                raise ConfigError(f"{where}: [{name}] must be a table")
            sections[name] = value
            continue
        cls = hints.get(name)
        if name == "source" or not isinstance(cls, type) or not dataclasses.is_dataclass(cls):
            known = [f.name for f in dataclasses.fields(Config) if f.name != "source"]
            raise ConfigError(
                f"{where}: [{name}]: unknown section (known: {', '.join(sorted(known))})"
            )
        sections[name] = _build_section(cls, value, where, name)
    return Config(**sections, source=where)


def load_config_text(text: str, where: str = "<config>") -> Config:
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise ConfigError(f"{where}: not valid TOML: {err}") from None
    return config_from_dict(raw, where)


def resolve_config_path(explicit: str | os.PathLike[str] | None = None) -> tuple[Path, bool]:
    """The config path to use, and whether it was asked for by name (so must exist)."""
    if explicit:
        return Path(explicit).expanduser(), True
    if os.environ.get(ENV_VAR):
        return Path(os.environ[ENV_VAR]).expanduser(), True
    return default_config_path(), False


def load_config(explicit: str | os.PathLike[str] | None = None) -> Config:
    """Loads the config from ``--config``, ``$DREAMTABLE_CONFIG`` or the XDG location."""
    path, named = resolve_config_path(explicit)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        if named:
            raise ConfigError(f"{path}: no such config file") from None
        return Config()
    except (OSError, UnicodeDecodeError) as err:
        raise ConfigError(f"{path}: cannot be read: {err}") from None
    return load_config_text(text, str(path))


DEFAULT_CONFIG_TEXT = """\
# Dreamtable configuration. Every setting is optional; these are the defaults.

[app]
fullscreen = false        # true on the Pi's touchscreen
width = 800
height = 480
text_scale = 1.0          # larger text for tables far from the screen
log_level = "INFO"

[data]
database = ""             # empty: ~/.local/share/dreamtable/games.sqlite3
catalog = ""              # empty: the catalog shipped with Dreamtable

[game]
dice = "typed"            # camera | typed | virtual
decks = "physical"        # physical | digital

[mirror]
enabled = true
port = 8080
interfaces = []           # empty: every interface; ["127.0.0.1"] keeps it on this machine
max_clients = 64
max_clients_per_address = 8

[camera]
source = "none"           # none | picamera2 | usb | folder
device = 0
path = ""
min_confidence = 0.9
"""

